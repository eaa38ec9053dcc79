// The simulator inside the CUDA runtime stand-in: runs a program's launches one by one, as the
// program makes them, on the timing model (app::TimingSession, the same code as `gputlm run
// --config`, with the MWP/CWP prediction beside each launch) or on the functional engine
// (`--functional`), and at the end writes the summary to stderr and the statistics file (the JSON
// of `gputlm run --stats`, one entry per launch). Options come from the environment `gputlm
// cuda` sets (ProgramOptions::kEnv...).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/func_stats.h"
#include "models/func/launch.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::runtime {

struct ProgramOptions {
  // Environment variables: the config path (required), the statistics file, VCD path, scope and
  // window (FROM:TO), "1" for the functional engine, the program's name for the reports, "1" for
  // memcheck (func/memory_check.h).
  static constexpr const char* kEnvConfig = "GPUTLM_CUDA_CONFIG";
  static constexpr const char* kEnvStats = "GPUTLM_CUDA_STATS";
  static constexpr const char* kEnvVcd = "GPUTLM_CUDA_VCD";
  static constexpr const char* kEnvVcdScope = "GPUTLM_CUDA_VCD_SCOPE";
  static constexpr const char* kEnvVcdWindow = "GPUTLM_CUDA_VCD_WINDOW";
  static constexpr const char* kEnvFunctional = "GPUTLM_CUDA_FUNCTIONAL";
  static constexpr const char* kEnvProgram = "GPUTLM_CUDA_PROGRAM";
  static constexpr const char* kEnvMemcheck =
      "GPUTLM_CUDA_MEMCHECK";  // "1": every access outside an allocation faults
  static constexpr const char* kEnvTimeLimit =
      "GPUTLM_CUDA_TIME_LIMIT";  // seconds of host time; unset: none
  static constexpr const char* kEnvTimedLaunches =
      "GPUTLM_CUDA_TIMED_LAUNCHES";  // launches timed per kernel name; unset: all
  static constexpr const char* kEnvCacheControl =
      "GPUTLM_CUDA_CACHE_CONTROL";  // "all": caches emptied before each timed launch; unset: none

  std::string config, stats, vcd, vcd_scope, program;
  uint64_t vcd_from = 0, vcd_to = ~0ull;
  bool functional = false, memcheck = false;
  double time_limit = 0;  // seconds from the runtime's start; 0: none
  // Sampled simulation: the first `timed_launches` launches of each kernel (by name) run on the
  // timing model, later ones on the functional engine alone (their results stay right; the
  // statistics list them apart, as "untimed_launches"). 0: every launch is timed.
  uint64_t timed_launches = 0;
  // Nsight Compute's --cache-control: true ("all", its default) empties every cache before each
  // timed launch, so that each starts cold as a kernel it measures does; false ("none") keeps
  // what earlier launches left.
  bool flush_caches = false;

  // InputError naming the variable when one is missing or malformed (a program started without
  // `gputlm cuda`).
  static ProgramOptions from_env();
};

class ProgramRun {
 public:
  explicit ProgramRun(const ProgramOptions& options);
  const ProgramOptions& options() const { return m_options; }
  ~ProgramRun();

  const gpu::GpuSpec& spec() const { return m_spec; }
  const std::string& program_name() const { return m_options.program; }
  // Runs one launch to its end. Throws func::KernelFault, InputError (a kernel the engine cannot
  // run) and std::runtime_error (no progress). A stop signal (SIGINT, SIGTERM) ends the process
  // after writing the reports, marked incomplete; so does the time limit (checked where the
  // signals are: between CTAs, between slices of simulated time), with exit status 2 and a line
  // naming the launch and the speed the engine reached.
  void launch(const func::BoundKernel& kernel, const func::Launch& launch);
  // Simulated core cycles of every launch so far (launches are serialised), which CUDA events read.
  // The functional engine has no time; there each launch counts as its warp instructions over the
  // config's cores, one a core a cycle (an ideal-IPC bound, a choice), so that a program dividing
  // by an elapsed time (GB/s, MPixel/s) sees a positive one that grows with its work.
  uint64_t cycles() const { return m_cycles; }
  size_t launches() const;
  // cudaProfilerStart/Stop: the launches between them are the ones a profiler would capture.
  // The statistics keep every launch and name the ranges ("profiler_ranges": launch indices, the
  // first in and the first after), so a study can take those launches alone, as Nsight Compute's
  // --profile-from-start off does; the summary says which they are.
  void profiler_start();
  void profiler_stop();
  // Writes the summary (stderr) and the statistics file; once. `stopped_by` non-empty: the program
  // is ended by an error (gputlm's exit 2 or 3); the reports, of every launch completed before,
  // are marked incomplete and say where the run stopped.
  void finish(const std::string& stopped_by = "");
  // Where the program is, for such a stop: "in launch N (kernel)" while a launch runs, else
  // "after launch N" or "before any launch".
  std::string position() const;

 private:
  struct Engine;
  ProgramOptions m_options;
  gpu::GpuSpec m_spec;
  std::unique_ptr<Engine> m_engine;  // built at the first launch (elaborates the SystemC model)
  uint64_t m_cycles = 0;
  // Per kernel name: timed launches and their cycles (the clock an untimed launch advances by is
  // their mean); the untimed launches, in order.
  std::map<std::string, std::pair<uint64_t, uint64_t>> m_timed;
  struct Untimed {
    size_t index;  // the program's launch index
    std::string kernel;
    uint64_t warp_instructions, cycles;
  };
  std::vector<Untimed> m_untimed;
  bool m_finished = false;
  std::vector<std::pair<size_t, size_t>> m_profiler_ranges;  // [first launch, first launch after)
  bool m_profiling = false;
  std::string m_running;  // the kernel of the launch running now; empty between launches
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  bool past_time_limit() const;
  [[noreturn]] void stop_at_time_limit();
  bool untimed(const std::string& kernel) const;
  // Runs a launch on the functional engine (the stepper when waves are asked for), adding its
  // statistics and host time to the functional run's.
  func::FuncStats run_functionally(const func::BoundKernel& kernel, const func::Launch& launch);
  void run_untimed(const func::BoundKernel& kernel, const func::Launch& launch);
};

}  // namespace gputlm::runtime
