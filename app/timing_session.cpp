#include "app/timing_session.h"

#include <chrono>
#include <fstream>
#include <iterator>

#include "app/energy_report.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/sampler.h"
#include "app/timing_waves.h"
#include "models/common/stat_window.h"
#include "models/gpu/gpu.h"

namespace gputlm::app {

struct TimingSession::State {
  // Copies: the waves keep references to both for the life of the session.
  gpu::GpuSpec spec;
  TimingOptions options;
  TimingRun run;
  gpu::Gpu gpu;
  std::unique_ptr<TimingWaves> waves;
  std::ofstream dram_trace;
  std::unique_ptr<mem::DramRequestLog> dram_log;
  std::unique_ptr<ProgressReporter> progress;
  std::unique_ptr<Sampler> sampler;
  int stopped = 0;
  uint64_t end_cycle = 0;  // the last launch's last cycle
  std::chrono::steady_clock::time_point start;
  double launch_seconds = 0;

  State(const gpu::GpuSpec& s, const TimingOptions& o) : spec(s), options(o), gpu("gpu", spec) {}
};

TimingSession::TimingSession(const gpu::GpuSpec& spec, const TimingOptions& options,
                             const std::string& workload, const std::string& size)
    : m(std::make_unique<State>(spec, options)) {
  TimingRun& run = m->run;
  run.workload = workload;
  run.size = size;
  run.config = spec.name;
  run.config_hash = spec.hash;
  run.cores = spec.cores;
  run.vgiw = spec.fabric_core();
  run.core_type = spec.core_type_name();
  if (!m->options.vcd_path.empty()) m->waves = std::make_unique<TimingWaves>(m->options, m->spec);
  if (!m->options.dram_trace_path.empty()) {
    m->dram_trace.open(m->options.dram_trace_path);
    if (!m->dram_trace)
      throw InputError(m->options.dram_trace_path + ": cannot write the DRAM trace");
    m->dram_log = std::make_unique<mem::DramRequestLog>(m->dram_trace);
    m->gpu.set_dram_log(m->dram_log.get());
  }
  if (m->options.progress) m->progress = std::make_unique<ProgressReporter>("progress", m->gpu);
  if (m->options.sample_every)
    m->sampler = std::make_unique<Sampler>(m->gpu, m->options.sample_every);
  if (m->options.stop_signal)
    m->gpu.set_stop_check([this] { return (m->stopped = m->options.stop_signal()) != 0; });
  m->start = std::chrono::steady_clock::now();
}

TimingSession::~TimingSession() = default;

void TimingSession::flush_caches() { m->gpu.flush_caches(); }

int TimingSession::stopped() const { return m->stopped; }
const std::vector<TimedLaunch>& TimingSession::launches() const { return m->run.launches; }
double TimingSession::launch_seconds() const { return m->launch_seconds; }

void TimingSession::run_launch(const func::BoundKernel& bk, const func::Launch& launch) {
  if (m->stopped) return;  // the GPU holds the stopped launch's CTAs
  gpu::Gpu& gpu = m->gpu;
  const auto begin = std::chrono::steady_clock::now();
  using C = core::CoreCounters;
  using Read = uint64_t (*)(const C&);
  // The counters a launch record takes, as differences over the launch (kCounted's order).
  enum {
    kWarps,
    kThreads,
    kCoalesced,
    kUncoalesced,
    kUncoalescedLines,
    kBarriers,
    kRegisterFile,
    kRegisterFileThreads,
    kLiveValues,
    kReconfiguration,
    kActive,
    kBlockRuns,
    kBlockRunThreads
  };
  constexpr Read kCounted[] = {[](const C& c) { return c.warp_instructions; },
                               [](const C& c) { return c.thread_instructions; },
                               [](const C& c) { return c.simt.coalesced_memory_instructions; },
                               [](const C& c) { return c.simt.uncoalesced_memory_instructions; },
                               [](const C& c) { return c.simt.uncoalesced_line_requests; },
                               [](const C& c) { return c.simt.barrier_instructions; },
                               [](const C& c) { return c.simt.register_file_accesses; },
                               [](const C& c) { return c.simt.register_file_thread_accesses; },
                               [](const C& c) { return c.fabric.live_value_accesses; },
                               [](const C& c) { return c.fabric.reconfiguration_cycles; },
                               [](const C& c) { return c.active_cycles; },
                               [](const C& c) { return c.fabric.block_runs; },
                               [](const C& c) { return c.fabric.block_run_threads; }};
  auto retired = [&gpu](Read field) {
    uint64_t n = 0;
    for (const auto& c : gpu.cores()) n += field(c->counters());
    return n;
  };
  uint64_t before[std::size(kCounted)];
  for (size_t i = 0; i < std::size(kCounted); ++i) before[i] = retired(kCounted[i]);
  auto delta = [&](size_t i) { return retired(kCounted[i]) - before[i]; };
  auto phases = [&gpu] {
    std::vector<uint64_t> n(core::kFabricPhases, 0);
    for (const auto& c : gpu.cores())
      for (size_t i = 0; i < n.size(); ++i) n[i] += c->counters().fabric.fabric_cycles[i];
    return n;
  };
  std::vector<uint64_t> fabric = phases();
  if (m->progress) m->progress->rearm();
  if (m->sampler) m->sampler->begin_launch(m->run.launches.size());
  StatWindow window;  // every module's statistics over this launch alone
  const gpu::LaunchTiming t = gpu.run(bk, launch);
  m->end_cycle = t.start + t.cycles;
  if (m->sampler) m->sampler->end_launch(m->end_cycle);
  analytical::LaunchCounts counts = launch_shape(m->spec, launch);
  counts.warp_instructions = delta(kWarps);
  counts.coalesced_memory_instructions = delta(kCoalesced);
  counts.uncoalesced_memory_instructions = delta(kUncoalesced);
  counts.uncoalesced_line_requests = delta(kUncoalescedLines);
  counts.barrier_instructions = delta(kBarriers);
  m->run.launches.push_back({launch.kernel->name,
                             t.cycles,
                             delta(kWarps),
                             delta(kThreads),
                             counts,
                             predict_launch(m->spec, counts),
                             delta(kRegisterFile),
                             delta(kRegisterFileThreads),
                             delta(kLiveValues),
                             delta(kReconfiguration),
                             delta(kActive),
                             delta(kBlockRuns),
                             delta(kBlockRunThreads),
                             {},
                             window.close(),
                             std::nullopt});
  m->run.launches.back().energy = launch_energy(m->spec, m->run.launches.back().modules, t.cycles);
  m->run.launches.back().start_cycle = t.start;
  m->run.launches.back().end_cycle = t.end;
  const std::vector<uint64_t> after = phases();
  for (size_t i = 0; i < fabric.size(); ++i) fabric[i] = after[i] - fabric[i];
  m->run.launches.back().fabric_cycles = std::move(fabric);
  m->launch_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

TimingRun TimingSession::finish() {
  TimingRun& run = m->run;
  run.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m->start).count();
  if (m->progress) m->progress->finish();
  run.simd_cycles.assign(kWarpSize + 1, 0);
  run.stall_cycles.assign(static_cast<size_t>(core::StallCause::kCount), 0);
  for (const auto& l : run.launches) run.cycles += l.cycles;
  uint64_t issued = 0, first_issue_ns = ~0ull;
  for (const auto& c : m->gpu.cores()) {
    const core::CoreCounters& k = c->counters();
    first_issue_ns = std::min(first_issue_ns, k.first_issue_ns);
    run.warp_instructions += k.warp_instructions;
    run.thread_instructions += k.thread_instructions;
    issued += k.simt.issue_cycles;
    for (size_t i = 1; i <= kWarpSize; ++i) run.simd_cycles[i] += k.simt.simd_histogram[i];
    for (size_t i = 0; i < run.stall_cycles.size(); ++i)
      run.stall_cycles[i] += k.simt.stall_cycles[i];
  }
  const uint64_t core_cycles = run.cycles * m->spec.cores;
  run.simd_cycles[0] = core_cycles > issued ? core_cycles - issued : 0;
  run.modules = collect_stats();
  if (m->spec.energy) {
    run.energy_table = m->spec.energy->name;
    run.energy = energy::EnergyBreakdown{};
    for (const auto& l : run.launches)
      if (l.energy) run.energy->add(*l.energy);
  }
  if (m->sampler) {
    run.sample_every = m->options.sample_every;
    run.samples = m->sampler->rows();
  }
  if (m->waves) m->waves->finish(first_issue_ns, m->end_cycle);
  if (m->stopped) run.stopped_by = signal_name(m->stopped);
  return run;
}

}  // namespace gputlm::app
