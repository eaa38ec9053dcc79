// Runs a workload on the timing model: the `gputlm run --config` job. Builds the GPU from its
// config, runs every launch of the workload (the functional engine executes each instruction as
// the cores issue it), checks the outputs against the CPU reference and gathers statistics.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/interrupt.h"
#include "app/prediction.h"
#include "app/stat_table.h"
#include "io/trace/trace_format.h"
#include "io/workload/workload.h"
#include "models/analytical/run_inputs.h"
#include "models/energy/energy_model.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::app {

struct TimingOptions {
  std::string vcd_path;                   // empty: no waves
  std::string vcd_scope;                  // only modules whose name starts with this
  uint64_t vcd_from = 0, vcd_to = ~0ull;  // cycle window kept in the VCD
  std::string dram_trace_path;            // empty: no per-request DRAM trace (see DramRequestLog)
  bool progress = false;                  // print progress on stderr
  bool keep_outputs = false;
  uint64_t sample_every =
      0;  // > 0: a time series row every this many core cycles (TimingRun::samples, app::Sampler)
          // // workload runs: keep the output buffers' final contents (TimingRun::outputs)
  // Asked during the run (every gpu::Gpu::kStopCheckCycles): a signal number stops it there; the
  // statistics so far are gathered and marked incomplete, the rest of the launches are skipped.
  std::function<int()> stop_signal = app::stop_signal;
};

struct TimedLaunch {
  std::string kernel;
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  analytical::LaunchCounts counts;             // what the MWP/CWP model takes from the launch
  Prediction prediction;                       // the model's, from counts and the GPU's constants
  uint64_t register_file_accesses = 0;         // SIMT cores: warp-wide register operand accesses
  uint64_t register_file_thread_accesses = 0;  // the same per thread
  uint64_t live_value_accesses = 0;            // VGIW cores: live value cache accesses
  uint64_t reconfiguration_cycles = 0;         // VGIW cores: summed over cores
  uint64_t core_active_cycles = 0;  // VGIW cores: cycles with a tile in flight, summed over cores
  uint64_t block_runs = 0;          // VGIW cores: blocks streamed, summed over cores
  uint64_t block_run_threads = 0;   // VGIW cores: the threads they streamed
  std::vector<uint64_t>
      fabric_cycles;  // VGIW cores: streaming cycles by core::FabricPhase, summed over cores
  nlohmann::json
      modules;  // every module's statistics over this launch alone, as TimingRun::modules
  std::optional<energy::EnergyBreakdown>
      energy;  // from `modules` and the config's energy table (none without one)
  // Where the launch lies in simulated time, in core cycles (not in the statistics): the edge its
  // first CTAs started at, and the edge it ended at (the first after its last CTA finished with
  // no memory request out), where the next launch starts (gpu::LaunchTiming).
  uint64_t start_cycle = 0, end_cycle = 0;
};

struct TimingRun {
  std::string workload, size, config, config_hash;
  std::vector<TimedLaunch> launches;
  uint64_t cycles = 0, warp_instructions = 0, thread_instructions = 0;
  std::vector<uint64_t> simd_cycles;   // core-cycles with k lanes started, k = 0..32
  std::vector<uint64_t> stall_cycles;  // fetch stall cycles by cause, summed over cores
  uint32_t cores = 1;
  bool replayed = false;  // driven by a trace: no outputs to check
  bool self_checked =
      false;  // a CUDA program's launches (gputlm cuda): the program checks its own outputs
  std::vector<std::string>
      notes;          // what the summary should say about the input (an import's approximations)
  bool vgiw = false;  // dataflow cores (VGIW, SGMF): no warps; the summary shows block runs and the
                      // fabric's cycles
  std::string core_type = "simt";  // the config's "core": simt, vgiw or sgmf
  workload::VerifyReport verify;
  std::vector<workload::OutputBuffer>
      outputs;               // with TimingOptions::keep_outputs, of a complete workload run
  nlohmann::json modules;    // every module's statistics over the whole run by hierarchical name
  std::string energy_table;  // the config's energy table by name ("" without one)
  std::optional<energy::EnergyBreakdown>
      energy;                    // the launches' energies summed (none without a table)
  uint64_t sample_every = 0;     // with TimingOptions::sample_every: the interval of
  std::vector<StatRow> samples;  // the time series rows (app::Sampler::rows)
  double host_seconds = 0;
  std::string stopped_by;  // the signal that stopped the run ("SIGINT"); empty: complete

  double ipc() const { return cycles ? double(thread_instructions) / cycles : 0.0; }
  double idle_share() const;  // share of core-cycles with no lane active
};

// Throws func::KernelFault (kernel faults), InputError (bad input) and std::runtime_error (the
// run stopped making progress).
TimingRun run_timing(workload::Workload& w, const gpu::GpuSpec& spec, const TimingOptions& options);
// The same driven by a recorded trace (traces/FORMAT.md) instead of the functional engine: no
// outputs to check (verify stays empty). InputError for a bad trace, one that does not match
// what the cores issue, or a config that cannot replay it (warp formations other than static,
// VGIW).
TimingRun run_timing_trace(trace::TraceReader& reader, const gpu::GpuSpec& spec,
                           const TimingOptions& options);
// A trace given by path: a directory with an Accel-Sim kernelslist.g (its SASS kernels replayed
// in order; io/trace/accel_sim_replay.h), else a gputlm trace file (text or gzip).
TimingRun run_timing_trace_path(const std::string& path, const gpu::GpuSpec& spec,
                                const TimingOptions& options);

nlohmann::json to_json(const TimingRun& run);
void print_summary(std::ostream& os, const TimingRun& run);

}  // namespace gputlm::app
