// A timing run in progress: the GPU built from its config (with waves, DRAM request log and
// progress as the options ask), running launches one at a time as they come, and the run's
// statistics gathered at the end. `gputlm run` feeds it a workload's or a trace's launches
// (run_timing); the CUDA runtime stand-in (runtime/) feeds it a program's launches as the program
// makes them. One session per SystemC context: it elaborates the GPU in its constructor.
#pragma once

#include <memory>
#include <string>

#include "app/timing_run.h"
#include "models/func/bound_kernel.h"
#include "models/func/launch.h"

namespace gputlm::app {

class TimingSession {
 public:
  // InputError when an output of the options cannot be written or the VCD scope matches nothing.
  TimingSession(const gpu::GpuSpec& spec, const TimingOptions& options, const std::string& workload,
                const std::string& size);
  ~TimingSession();
  TimingSession(const TimingSession&) = delete;
  TimingSession& operator=(const TimingSession&) = delete;

  // Runs one launch to its end and records it (launches()). Does nothing once a stop signal has
  // ended a launch (the GPU then holds that launch's unfinished CTAs). Throws what gpu::Gpu::run
  // throws: func::KernelFault, std::runtime_error when the run stops making progress.
  void run_launch(const func::BoundKernel& kernel, const func::Launch& launch);
  // Empties the GPU's caches before the next launch (gpu::Gpu::flush_caches).
  void flush_caches();
  // The signal number that stopped a launch, 0 if none did.
  int stopped() const;
  // The launches run so far, in order.
  const std::vector<TimedLaunch>& launches() const;
  // Host seconds spent inside run_launch, summed.
  double launch_seconds() const;
  // The run's statistics: totals, every module's statistics, waves closed. Call once, last.
  // host_seconds is the time since the constructor; `verify` is left empty for the caller.
  TimingRun finish();

 private:
  struct State;
  std::unique_ptr<State> m;
};

}  // namespace gputlm::app
