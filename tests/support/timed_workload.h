// Test support: a workload's timed run on a preset, as `gputlm run` makes it (one session, the
// workload's launches in order, its outputs checked), for tests that read the run's statistics.
#pragma once

#include <functional>
#include <string>

#include "models/gpu/gpu_spec.h"
#include "tb/sc_kernel.h"
#include "tb/timing_session.h"
#include "tb/workload/workload.h"

namespace gputlm::test {

// Runs traces/<workload> (size test) on configs/<preset>.json; `while_alive` is called after the
// run, while its modules still exist (to read their statistics' schemas, say).
inline tb::TimingRun run_timed_workload(const std::string& preset, const std::string& workload,
                                        const std::function<void()>& while_alive = {}) {
  tb::fresh_sc_kernel();
  const gpu::GpuSpec spec =
      gpu::GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/" + workload, "test");
  func::GlobalMemory memory;
  w.setup(memory);
  tb::TimingSession session(spec, {}, w.name(), "test");
  w.for_each_launch(
      memory, [&](const func::BoundKernel& k, const func::Launch& l) { session.run_launch(k, l); });
  tb::TimingRun timing = session.finish();
  timing.verify = w.verify(memory);
  if (while_alive) while_alive();
  return timing;
}

}  // namespace gputlm::test
