#include "app/timing_run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>

#include "app/energy_report.h"
#include "app/kernel_name.h"
#include "app/report.h"
#include "app/timing_session.h"
#include "io/trace/accel_sim_replay.h"
#include "io/trace/trace_file.h"
#include "io/trace/trace_replay.h"
#include "models/gpu/gpu.h"
#include "models/vgiw/vgiw_core.h"

namespace gputlm::app {

double TimingRun::idle_share() const {
  uint64_t total = 0;
  for (uint64_t c : simd_cycles) total += c;
  return total ? double(simd_cycles[0]) / total : 0.0;
}

namespace {

// What a timing run runs: its launches in order, and the check of its outputs afterwards (none
// for a replay: there is no functional execution to check).
struct LaunchFeed {
  std::string workload, size;
  std::function<void(const std::function<void(const func::BoundKernel&, const func::Launch&)>&)>
      for_each_launch;
  std::function<workload::VerifyReport()> verify;  // empty: a replay
};

TimingRun run_feed(const LaunchFeed& feed, const gpu::GpuSpec& spec, const TimingOptions& options);

// Runs one launch of a replay; when the replay stopped the run (a mismatch, a bad line), its
// error is the one thrown, not the unfinished CTAs it left.
void run_replayed(const std::function<void(const func::BoundKernel&, const func::Launch&)>& run,
                  const trace::ReplaySource& source, const func::BoundKernel& kernel,
                  const func::Launch& launch) {
  try {
    run(kernel, launch);
  } catch (const std::runtime_error&) {
    if (source.error().empty()) throw;
  }
  if (!source.error().empty()) throw InputError(source.error());
}

void check_replayable(const std::string& name, const gpu::GpuSpec& spec);
TimingRun run_accel_sim(const std::string& dir, const gpu::GpuSpec& spec,
                        const TimingOptions& options);

}  // namespace

TimingRun run_timing(workload::Workload& w, const gpu::GpuSpec& spec,
                     const TimingOptions& options) {
  if (spec.fabric_core()) {  // a kernel the fabric cannot map is an error before anything runs
    std::set<std::string> kernels;
    for (const workload::LaunchSpec& l : w.spec().launches)
      if (kernels.insert(l.kernel).second)
        vgiw::map_for_core(w.module().get(l.kernel), spec.vgiw, spec.sgmf());
  }
  func::GlobalMemory memory;
  w.setup(memory);
  LaunchFeed feed{w.name(), w.spec().size, [&](const auto& run) { w.for_each_launch(memory, run); },
                  [&] { return w.verify(memory); }};
  TimingRun run = run_feed(feed, spec, options);
  if (options.keep_outputs && run.stopped_by.empty()) run.outputs = w.outputs(memory);
  return run;
}

TimingRun run_timing_trace(trace::TraceReader& reader, const gpu::GpuSpec& spec,
                           const TimingOptions& options) {
  check_replayable(reader.name(), spec);
  trace::TraceReplay replay(reader);
  LaunchFeed feed{reader.workload() + " (trace)",
                  reader.size(),
                  [&](const auto& run) {
                    while (replay.next_launch())
                      run_replayed(run, replay, replay.kernel(), replay.launch());
                  },
                  {}};
  return run_feed(feed, spec, options);
}

TimingRun run_timing_trace_path(const std::string& path, const gpu::GpuSpec& spec,
                                const TimingOptions& options) {
  std::error_code
      ec;  // a path the file system cannot look up is no directory (open_trace names it)
  if (std::filesystem::is_directory(path, ec)) return run_accel_sim(path, spec, options);
  const std::unique_ptr<std::istream> in = trace::open_trace(path);
  trace::TraceReader reader(*in, path);
  return run_timing_trace(reader, spec, options);
}

namespace {

// Only static-warp SIMT cores replay traces: their warps are the traced warps.
void check_replayable(const std::string& name, const gpu::GpuSpec& spec) {
  if (spec.fabric_core())
    throw InputError(name + ": a trace cannot drive the " + vgiw::fabric_core_name(spec.sgmf()) +
                     " core (it runs threads through a dataflow graph, not warps)");
  if (!spec.core.static_warps())
    throw InputError(name + ": a trace replays static warps; the config's warp formation '" +
                     spec.core.formation + "' regroups threads");
}

TimingRun run_accel_sim(const std::string& dir, const gpu::GpuSpec& spec,
                        const TimingOptions& options) {
  check_replayable(dir, spec);
  const std::vector<accelsim::Command> commands = accelsim::read_kernelslist(dir);
  std::set<std::string> unclassified;
  uint64_t copies = 0, copied = 0;
  LaunchFeed feed{"accel-sim:" + std::filesystem::path(dir).lexically_normal().filename().string(),
                  "trace",
                  [&](const auto& run) {
                    for (const accelsim::Command& c : commands) {
                      if (c.kind == accelsim::Command::Kind::MemcpyHtoD) {
                        ++copies;
                        copied += c.bytes;
                        continue;
                      }
                      accelsim::AccelSimKernel k((std::filesystem::path(dir) / c.file).string());
                      unclassified.insert(k.unclassified().begin(), k.unclassified().end());
                      run_replayed(run, k, k.kernel(), k.launch());
                    }
                  },
                  {}};
  TimingRun run = run_feed(feed, spec, options);
  if (copies)
    run.notes.push_back(std::to_string(copies) + " host-to-device copies (" +
                        std::to_string(copied) + " bytes) not timed");
  if (!unclassified.empty()) {
    std::string list;
    for (const std::string& u : unclassified) list += (list.empty() ? "" : ", ") + u;
    run.notes.push_back("SASS opcodes outside the class table, timed as int ALU: " + list);
  }
  return run;
}

TimingRun run_feed(const LaunchFeed& feed, const gpu::GpuSpec& spec, const TimingOptions& options) {
  TimingSession session(spec, options, feed.workload, feed.size);
  feed.for_each_launch([&](const func::BoundKernel& bk, const func::Launch& launch) {
    session.run_launch(bk, launch);
  });
  TimingRun run = session.finish();
  run.replayed = !feed.verify;
  if (run.stopped_by.empty() && feed.verify) run.verify = feed.verify();
  return run;
}

}  // namespace

namespace {
nlohmann::json fabric_json(const std::vector<uint64_t>& cycles) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < cycles.size(); ++i)
    j[core::fabric_phase_name(static_cast<core::FabricPhase>(i))] = cycles[i];
  return j;
}

// The VGIW cores' figures, summed over launches and cores: thread vectors, live value cache
// traffic, and where the cores' active cycles went.
void print_vgiw_summary(std::ostream& os, const TimingRun& run) {
  uint64_t runs = 0, threads = 0, live = 0, reconfiguration = 0, active = 0;
  std::vector<uint64_t> phases(core::kFabricPhases, 0);
  for (const auto& l : run.launches) {
    runs += l.block_runs;
    threads += l.block_run_threads;
    live += l.live_value_accesses;
    reconfiguration += l.reconfiguration_cycles;
    active += l.core_active_cycles;
    for (size_t i = 0; i < l.fabric_cycles.size(); ++i) phases[i] += l.fabric_cycles[i];
  }
  auto share = [active](uint64_t n) { return active ? 100.0 * double(n) / double(active) : 0.0; };
  os << std::setprecision(1);
  os << "block runs          " << runs << " (" << (runs ? double(threads) / double(runs) : 0.0)
     << " threads each)\n";
  os << "live value cache    " << live << " accesses (" << std::setprecision(3)
     << (run.thread_instructions ? double(live) / double(run.thread_instructions) : 0.0)
     << " per thread instruction)\n";
  os << std::setprecision(1) << "core active cycles  " << active << ": reconfiguring "
     << share(reconfiguration) << "%";
  uint64_t accounted = reconfiguration;
  for (size_t i = 0; i < phases.size(); ++i) {
    os << ", " << core::fabric_phase_name(static_cast<core::FabricPhase>(i)) << " "
       << share(phases[i]) << "%";
    accounted += phases[i];
  }
  os << ", between blocks " << share(active > accounted ? active - accounted : 0) << "%\n";
}
}  // namespace

nlohmann::json to_json(const TimingRun& run) {
  nlohmann::json j;
  j["workload"] = run.workload;
  j["size"] = run.size;
  j["config"] = {{"name", run.config},
                 {"hash", run.config_hash},
                 {"cores", run.cores},
                 {"core", run.core_type}};
  if (!run.energy_table.empty()) j["config"]["energy_table"] = run.energy_table;
  j["mode"] = run.replayed ? "trace replay" : "timing";
  mark_completeness(j, run.stopped_by);
  if (!run.notes.empty()) j["notes"] = run.notes;
  j["host_seconds"] = run.host_seconds;
  for (const auto& l : run.launches) {
    const analytical::LaunchCounts& c = l.counts;
    j["launches"].push_back(
        {{"kernel", l.kernel},
         {"kernel_demangled", demangled_kernel_name(l.kernel)},
         {"cycles", l.cycles},
         {"warp_instructions", l.warp_instructions},
         {"thread_instructions", l.thread_instructions},
         {"ipc", l.cycles ? double(l.thread_instructions) / l.cycles : 0.0},
         {"register_file_accesses", l.register_file_accesses},
         {"register_file_thread_accesses", l.register_file_thread_accesses},
         {"live_value_accesses", l.live_value_accesses},
         {"reconfiguration_cycles", l.reconfiguration_cycles},
         {"core_active_cycles", l.core_active_cycles},
         {"block_runs", l.block_runs},
         {"block_run_threads", l.block_run_threads},
         {"fabric_cycles", fabric_json(l.fabric_cycles)},
         {"mwp_cwp_counts",
          {{"threads_per_block", c.threads_per_block},
           {"blocks", c.blocks},
           {"blocks_that_fit_per_core", c.blocks_that_fit_per_sm},
           {"cores", c.sms},
           {"coalesced_memory_instructions", c.coalesced_memory_instructions},
           {"uncoalesced_memory_instructions", c.uncoalesced_memory_instructions},
           {"uncoalesced_line_requests", c.uncoalesced_line_requests},
           {"barrier_instructions", c.barrier_instructions}}},
         {"mwp_cwp_prediction", to_json(l.prediction, l.cycles, l.warp_instructions)},
         {"modules", l.modules}});
    if (l.energy) j["launches"].back()["energy"] = to_json(*l.energy, l.thread_instructions);
  }
  nlohmann::json t;
  t["cycles"] = run.cycles;
  t["warp_instructions"] = run.warp_instructions;
  t["thread_instructions"] = run.thread_instructions;
  t["ipc"] = run.ipc();
  t["simd_utilization_cycles"] = run.simd_cycles;
  t["idle_cycle_share"] = run.idle_share();
  nlohmann::json stalls;
  for (size_t i = 0; i < run.stall_cycles.size(); ++i)
    stalls[core::stall_cause_name(static_cast<core::StallCause>(i))] = run.stall_cycles[i];
  t["fetch_stall_cycles"] = stalls;
  if (run.energy) t["energy"] = to_json(*run.energy, run.thread_instructions);
  j["total"] = t;
  j["modules"] = run.modules;
  if (run.sample_every) {
    nlohmann::json rows = nlohmann::json::array();
    for (const StatRow& r : run.samples) rows.push_back(nlohmann::json(r));
    j["samples"] = {{"every", run.sample_every}, {"rows", rows}};
  }
  j["verify"] = run.self_checked ? self_checked_json() : to_json(run.verify);
  return j;
}

void print_summary(std::ostream& os, const TimingRun& run) {
  if (run.self_checked)
    os << "program             " << run.workload;
  else
    os << "workload            " << run.workload << " (size " << run.size << ")";
  os << " on " << run.config << " (" << run.cores << " core" << (run.cores > 1 ? "s" : "") << ")\n";
  for (const auto& l : run.launches) {
    if (run.vgiw) {
      os << "launch              " << demangled_kernel_name(l.kernel) << ": " << l.cycles
         << " cycles, " << l.block_runs << " block runs\n";
    } else {
      os << "launch              " << demangled_kernel_name(l.kernel) << ": " << l.cycles
         << " cycles, " << l.warp_instructions << " warp instructions\n";
      print_prediction_line(os, l.prediction, l.cycles, l.warp_instructions);
    }
    if (l.energy) print_launch_energy(os, *l.energy, l.thread_instructions);
  }
  os << "cycles              " << run.cycles << "\n";
  if (!run.vgiw) os << "warp instructions   " << run.warp_instructions << "\n";
  os << "thread instructions " << run.thread_instructions << "\n";
  os << "IPC                 " << std::fixed << std::setprecision(2) << run.ipc()
     << " (thread instructions per cycle)\n";
  if (run.vgiw)
    print_vgiw_summary(os, run);
  else
    os << "idle cycles         " << std::setprecision(1) << 100.0 * run.idle_share()
       << "% of core cycles with no lane active\n";
  if (run.energy) print_run_energy(os, *run.energy, run.thread_instructions);
  os << "host time           " << std::setprecision(2) << run.host_seconds << " s ("
     << std::setprecision(1)
     << (run.host_seconds > 0 ? run.thread_instructions / run.host_seconds / 1e6 : 0.0)
     << " M thread instructions/s)\n";
  for (const std::string& n : run.notes) os << "note                " << n << "\n";
  if (!run.stopped_by.empty())
    print_stopped(os, run.stopped_by);
  else if (run.self_checked)
    print_self_checked(os);
  else if (run.replayed)
    os << "replayed            from a trace: no functional execution, no outputs to check\n";
  else
    print_verify(os, run.verify);
}

}  // namespace gputlm::app
