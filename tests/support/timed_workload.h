// Test support: a workload's timed run on a preset, as `gputlm run` makes it (one session, the
// workload's launches in order, its outputs checked), for tests that read the run's statistics.
#pragma once

#include <functional>
#include <string>

#include "app/timing_session.h"
#include "io/workload/workload.h"
#include "models/gpu/gpu_spec.h"
#include "support/sc_kernel.h"

namespace gputlm::test {

// Runs traces/<workload> (size test) on configs/<preset>.json; `while_alive` is called after the
// run, while its modules still exist (to read their statistics' schemas, say).
inline app::TimingRun run_timed_workload(const std::string& preset, const std::string& workload,
                                         const std::function<void()>& while_alive = {}) {
  test::fresh_sc_kernel();
  const gpu::GpuSpec spec =
      gpu::GpuSpec::from_file(std::string(GPUTLM_SOURCE_DIR) + "/configs/" + preset + ".json");
  workload::Workload w(std::string(GPUTLM_SOURCE_DIR) + "/traces/" + workload, "test");
  func::GlobalMemory memory;
  w.setup(memory);
  app::TimingSession session(spec, {}, w.name(), "test");
  w.for_each_launch(
      memory, [&](const func::BoundKernel& k, const func::Launch& l) { session.run_launch(k, l); });
  app::TimingRun timing = session.finish();
  timing.verify = w.verify(memory);
  if (while_alive) while_alive();
  return timing;
}

}  // namespace gputlm::test
