#include "tb/timing_run.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <memory>
#include <sstream>

#include "models/gpu/gpu.h"
#include "tb/progress.h"
#include "tb/trace/accel_sim_replay.h"
#include "tb/trace/trace_file.h"
#include "tb/trace/trace_replay.h"
#include "tb/report.h"
#include "tb/timing_waves.h"

namespace gputlm::tb {

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
  std::function<void(const std::function<void(const func::BoundKernel&, const func::Launch&)>&)> for_each_launch;
  std::function<workload::VerifyReport()> verify;  // empty: a replay
};

TimingRun run_feed(const LaunchFeed& feed, const gpu::GpuSpec& spec, const TimingOptions& options);

// Runs one launch of a replay; when the replay stopped the run (a mismatch, a bad line), its
// error is the one thrown, not the unfinished CTAs it left.
void run_replayed(const std::function<void(const func::BoundKernel&, const func::Launch&)>& run, const trace::ReplaySource& source,
                  const func::BoundKernel& kernel, const func::Launch& launch) {
  try {
    run(kernel, launch);
  } catch (const std::runtime_error&) {
    if (source.error().empty()) throw;
  }
  if (!source.error().empty()) throw InputError(source.error());
}

void check_replayable(const std::string& name, const gpu::GpuSpec& spec);
TimingRun run_accel_sim(const std::string& dir, const gpu::GpuSpec& spec, const TimingOptions& options);

}  // namespace

TimingRun run_timing(workload::Workload& w, const gpu::GpuSpec& spec, const TimingOptions& options) {
  func::GlobalMemory memory;
  w.setup(memory);
  LaunchFeed feed{w.name(), w.spec().size, [&](const auto& run) { w.for_each_launch(memory, run); }, [&] { return w.verify(memory); }};
  TimingRun run = run_feed(feed, spec, options);
  if (options.keep_outputs && run.stopped_by.empty()) run.outputs = w.outputs(memory);
  return run;
}

TimingRun run_timing_trace(trace::TraceReader& reader, const gpu::GpuSpec& spec, const TimingOptions& options) {
  check_replayable(reader.name(), spec);
  trace::TraceReplay replay(reader);
  LaunchFeed feed{reader.workload() + " (trace)", reader.size(),
                  [&](const auto& run) {
                    while (replay.next_launch()) run_replayed(run, replay, replay.kernel(), replay.launch());
                  },
                  {}};
  return run_feed(feed, spec, options);
}

TimingRun run_timing_trace_path(const std::string& path, const gpu::GpuSpec& spec, const TimingOptions& options) {
  std::error_code ec;  // a path the file system cannot look up is no directory (open_trace names it)
  if (std::filesystem::is_directory(path, ec)) return run_accel_sim(path, spec, options);
  const std::unique_ptr<std::istream> in = trace::open_trace(path);
  trace::TraceReader reader(*in, path);
  return run_timing_trace(reader, spec, options);
}

namespace {

// Only static-warp SIMT cores replay traces: their warps are the traced warps.
void check_replayable(const std::string& name, const gpu::GpuSpec& spec) {
  if (spec.core_type == "vgiw") throw InputError(name + ": a trace cannot drive the VGIW core (it runs threads by basic block, not warps)");
  if (spec.core.formation != "static")
    throw InputError(name + ": a trace replays static warps; the config's warp formation '" + spec.core.formation + "' regroups threads");
}

TimingRun run_accel_sim(const std::string& dir, const gpu::GpuSpec& spec, const TimingOptions& options) {
  check_replayable(dir, spec);
  const std::vector<accelsim::Command> commands = accelsim::read_kernelslist(dir);
  std::set<std::string> unclassified;
  uint64_t copies = 0, copied = 0;
  LaunchFeed feed{"accel-sim:" + std::filesystem::path(dir).lexically_normal().filename().string(), "trace",
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
  if (copies) run.notes.push_back(std::to_string(copies) + " host-to-device copies (" + std::to_string(copied) + " bytes) not timed");
  if (!unclassified.empty()) {
    std::string list;
    for (const std::string& u : unclassified) list += (list.empty() ? "" : ", ") + u;
    run.notes.push_back("SASS opcodes outside the class table, timed as int ALU: " + list);
  }
  return run;
}

TimingRun run_feed(const LaunchFeed& feed, const gpu::GpuSpec& spec, const TimingOptions& options) {
  TimingRun run;
  run.workload = feed.workload;
  run.size = feed.size;
  run.config = spec.name;
  run.config_hash = spec.hash;
  run.cores = spec.cores;
  run.vgiw = spec.core_type == "vgiw";
  gpu::Gpu gpu("gpu", spec);
  std::unique_ptr<TimingWaves> waves;
  if (!options.vcd_path.empty()) waves = std::make_unique<TimingWaves>(options, spec);
  std::ofstream dram_trace;
  std::unique_ptr<mem::DramRequestLog> dram_log;
  if (!options.dram_trace_path.empty()) {
    dram_trace.open(options.dram_trace_path);
    if (!dram_trace) throw InputError(options.dram_trace_path + ": cannot write the DRAM trace");
    dram_log = std::make_unique<mem::DramRequestLog>(dram_trace);
    gpu.set_dram_log(dram_log.get());
  }
  std::unique_ptr<ProgressReporter> progress;
  if (options.progress) progress = std::make_unique<ProgressReporter>("progress", gpu);
  int stopped = 0;
  uint64_t end_cycle = 0;  // the last launch's last cycle
  if (options.stop_signal) gpu.set_stop_check([&] { return (stopped = options.stop_signal()) != 0; });
  const auto start = std::chrono::steady_clock::now();
  feed.for_each_launch([&](const func::BoundKernel& bk, const func::Launch& launch) {
    if (stopped) return;  // the GPU holds the stopped launch's CTAs
    auto retired = [&gpu](uint64_t sm::CoreCounters::*field) {
      uint64_t n = 0;
      for (const auto& c : gpu.cores()) n += c->counters().*field;
      return n;
    };
    using C = sm::CoreCounters;
    enum { kWarps, kThreads, kCoalesced, kUncoalesced, kUncoalescedLines, kBarriers, kRegisterFile, kRegisterFileThreads, kLiveValues, kReconfiguration, kActive, kBlockRuns, kBlockRunThreads };
    constexpr uint64_t C::*kCounted[] = {&C::warp_instructions, &C::thread_instructions, &C::coalesced_memory_instructions,
                                         &C::uncoalesced_memory_instructions, &C::uncoalesced_line_requests,
                                         &C::barrier_instructions, &C::register_file_accesses, &C::register_file_thread_accesses, &C::live_value_accesses,
                                         &C::reconfiguration_cycles, &C::active_cycles, &C::block_runs, &C::block_run_threads};
    uint64_t before[std::size(kCounted)];
    for (size_t i = 0; i < std::size(kCounted); ++i) before[i] = retired(kCounted[i]);
    auto delta = [&](size_t i) { return retired(kCounted[i]) - before[i]; };
    auto phases = [&gpu] {
      std::vector<uint64_t> n(sm::kFabricPhases, 0);
      for (const auto& c : gpu.cores())
        for (size_t i = 0; i < n.size(); ++i) n[i] += c->counters().fabric_cycles[i];
      return n;
    };
    std::vector<uint64_t> fabric = phases();
    if (progress) progress->rearm();
    const gpu::LaunchTiming t = gpu.run(bk, launch);
    end_cycle = t.start + t.cycles;
    analytical::LaunchCounts counts = launch_shape(spec, launch);
    counts.warp_instructions = delta(kWarps);
    counts.coalesced_memory_instructions = delta(kCoalesced);
    counts.uncoalesced_memory_instructions = delta(kUncoalesced);
    counts.uncoalesced_line_requests = delta(kUncoalescedLines);
    counts.barrier_instructions = delta(kBarriers);
    run.launches.push_back({launch.kernel->name, t.cycles, delta(kWarps), delta(kThreads), counts, predict_launch(spec, counts),
                            delta(kRegisterFile), delta(kRegisterFileThreads), delta(kLiveValues), delta(kReconfiguration), delta(kActive),
                            delta(kBlockRuns), delta(kBlockRunThreads), {}});
    const std::vector<uint64_t> after = phases();
    for (size_t i = 0; i < fabric.size(); ++i) fabric[i] = after[i] - fabric[i];
    run.launches.back().fabric_cycles = std::move(fabric);
  });
  run.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) progress->finish();
  run.simd_cycles.assign(kWarpSize + 1, 0);
  run.stall_cycles.assign(static_cast<size_t>(sm::StallCause::kCount), 0);
  for (const auto& l : run.launches) run.cycles += l.cycles;
  uint64_t issued = 0, first_issue_ns = ~0ull;
  for (const auto& c : gpu.cores()) {
    const sm::CoreCounters& k = c->counters();
    first_issue_ns = std::min(first_issue_ns, k.first_issue_ns);
    run.warp_instructions += k.warp_instructions;
    run.thread_instructions += k.thread_instructions;
    issued += k.issue_cycles;
    for (size_t i = 1; i <= kWarpSize; ++i) run.simd_cycles[i] += k.simd_histogram[i];
    for (size_t i = 0; i < run.stall_cycles.size(); ++i) run.stall_cycles[i] += k.stall_cycles[i];
  }
  const uint64_t core_cycles = run.cycles * spec.cores;
  run.simd_cycles[0] = core_cycles > issued ? core_cycles - issued : 0;
  run.modules = collect_stats();
  if (waves) waves->finish(first_issue_ns, end_cycle);
  run.replayed = !feed.verify;
  if (stopped) run.stopped_by = signal_name(stopped);
  else if (feed.verify) run.verify = feed.verify();
  return run;
}

}  // namespace

namespace {
nlohmann::json fabric_json(const std::vector<uint64_t>& cycles) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < cycles.size(); ++i) j[sm::fabric_phase_name(static_cast<sm::FabricPhase>(i))] = cycles[i];
  return j;
}

// The VGIW cores' figures, summed over launches and cores: thread vectors, live value cache
// traffic, and where the cores' active cycles went.
void print_vgiw_summary(std::ostream& os, const TimingRun& run) {
  uint64_t runs = 0, threads = 0, live = 0, reconfiguration = 0, active = 0;
  std::vector<uint64_t> phases(sm::kFabricPhases, 0);
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
  os << "block runs          " << runs << " (" << (runs ? double(threads) / double(runs) : 0.0) << " threads each)\n";
  os << "live value cache    " << live << " accesses (" << std::setprecision(3)
     << (run.thread_instructions ? double(live) / double(run.thread_instructions) : 0.0) << " per thread instruction)\n";
  os << std::setprecision(1) << "core active cycles  " << active << ": reconfiguring " << share(reconfiguration) << "%";
  uint64_t accounted = reconfiguration;
  for (size_t i = 0; i < phases.size(); ++i) {
    os << ", " << sm::fabric_phase_name(static_cast<sm::FabricPhase>(i)) << " " << share(phases[i]) << "%";
    accounted += phases[i];
  }
  os << ", between blocks " << share(active > accounted ? active - accounted : 0) << "%\n";
}
}  // namespace

nlohmann::json to_json(const TimingRun& run) {
  nlohmann::json j;
  j["workload"] = run.workload;
  j["size"] = run.size;
  j["config"] = {{"name", run.config}, {"hash", run.config_hash}, {"cores", run.cores}, {"core", run.vgiw ? "vgiw" : "simt"}};
  j["mode"] = run.replayed ? "trace replay" : "timing";
  mark_completeness(j, run.stopped_by);
  if (!run.notes.empty()) j["notes"] = run.notes;
  j["host_seconds"] = run.host_seconds;
  for (const auto& l : run.launches) {
    const analytical::LaunchCounts& c = l.counts;
    j["launches"].push_back({{"kernel", l.kernel}, {"cycles", l.cycles}, {"warp_instructions", l.warp_instructions},
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
                              {{"threads_per_block", c.threads_per_block}, {"blocks", c.blocks},
                               {"blocks_that_fit_per_core", c.blocks_that_fit_per_sm}, {"cores", c.sms},
                               {"coalesced_memory_instructions", c.coalesced_memory_instructions},
                               {"uncoalesced_memory_instructions", c.uncoalesced_memory_instructions},
                               {"uncoalesced_line_requests", c.uncoalesced_line_requests},
                               {"barrier_instructions", c.barrier_instructions}}},
                             {"mwp_cwp_prediction", to_json(l.prediction, l.cycles, l.warp_instructions)}});
  }
  nlohmann::json t;
  t["cycles"] = run.cycles;
  t["warp_instructions"] = run.warp_instructions;
  t["thread_instructions"] = run.thread_instructions;
  t["ipc"] = run.ipc();
  t["simd_utilization_cycles"] = run.simd_cycles;
  t["idle_cycle_share"] = run.idle_share();
  nlohmann::json stalls;
  for (size_t i = 0; i < run.stall_cycles.size(); ++i) stalls[sm::stall_cause_name(static_cast<sm::StallCause>(i))] = run.stall_cycles[i];
  t["fetch_stall_cycles"] = stalls;
  j["total"] = t;
  j["modules"] = run.modules;
  j["verify"] = to_json(run.verify);
  return j;
}


void print_summary(std::ostream& os, const TimingRun& run) {
  os << "workload            " << run.workload << " (size " << run.size << ") on " << run.config << " (" << run.cores << " core"
     << (run.cores > 1 ? "s" : "") << ")\n";
  for (const auto& l : run.launches) {
    if (run.vgiw) {
      os << "launch              " << l.kernel << ": " << l.cycles << " cycles, " << l.block_runs << " block runs\n";
      continue;
    }
    os << "launch              " << l.kernel << ": " << l.cycles << " cycles, " << l.warp_instructions << " warp instructions\n";
    print_prediction_line(os, l.prediction, l.cycles, l.warp_instructions);
  }
  os << "cycles              " << run.cycles << "\n";
  if (!run.vgiw) os << "warp instructions   " << run.warp_instructions << "\n";
  os << "thread instructions " << run.thread_instructions << "\n";
  os << "IPC                 " << std::fixed << std::setprecision(2) << run.ipc() << " (thread instructions per cycle)\n";
  if (run.vgiw)
    print_vgiw_summary(os, run);
  else
    os << "idle cycles         " << std::setprecision(1) << 100.0 * run.idle_share() << "% of core cycles with no lane active\n";
  os << "host time           " << std::setprecision(2) << run.host_seconds << " s ("
     << std::setprecision(1) << (run.host_seconds > 0 ? run.thread_instructions / run.host_seconds / 1e6 : 0.0)
     << " M thread instructions/s)\n";
  for (const std::string& n : run.notes) os << "note                " << n << "\n";
  if (!run.stopped_by.empty())
    print_stopped(os, run.stopped_by);
  else if (run.replayed)
    os << "replayed            from a trace: no functional execution, no outputs to check\n";
  else
    print_verify(os, run.verify);
}

std::string to_csv(const TimingRun& run) {
  std::ostringstream os;
  os << "name,value\n";
  os << "total.cycles," << run.cycles << "\ntotal.warp_instructions," << run.warp_instructions << "\ntotal.thread_instructions,"
     << run.thread_instructions << "\ntotal.ipc," << run.ipc() << "\n";
  for (auto m = run.modules.begin(); m != run.modules.end(); ++m)
    for (auto s = m.value().begin(); s != m.value().end(); ++s) {
      if (s.value().is_array()) {
        for (size_t i = 0; i < s.value().size(); ++i) os << m.key() << "." << s.key() << "[" << i << "]," << s.value()[i] << "\n";
      } else {
        os << m.key() << "." << s.key() << "," << s.value() << "\n";
      }
    }
  return os.str();
}

}  // namespace gputlm::tb
