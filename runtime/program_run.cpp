#include "runtime/program_run.h"

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli_support.h"
#include "app/func_stepper.h"
#include "app/functional_run.h"
#include "app/interrupt.h"
#include "app/report.h"
#include "app/timing_session.h"
#include "models/common/error.h"

namespace gputlm::runtime {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// gputlm cuda passes absolute paths (the program may change directory); the summary shows a path
// under the current directory relative to it, as the user likely gave it.
std::string shown(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path relative =
      std::filesystem::path(path).lexically_relative(std::filesystem::current_path(ec));
  return ec || relative.empty() || *relative.begin() == ".." ? path : relative.string();
}

// A CUDA block has at most 1024 threads: the functional stepper's waves get a slot per warp.
constexpr uint32_t kMaxWarpsPerCta = 32;

}  // namespace

ProgramOptions ProgramOptions::from_env() {
  ProgramOptions o;
  o.config = env(kEnvConfig);
  if (o.config.empty())
    throw InputError(
        std::string(kEnvConfig) +
        " is not set: run the program under gputlm (gputlm cuda --config C -- ./program)");
  o.stats = env(kEnvStats);
  o.vcd = env(kEnvVcd);
  o.vcd_scope = env(kEnvVcdScope);
  o.functional = env(kEnvFunctional) == "1";
  o.memcheck = env(kEnvMemcheck) == "1";
  o.program = env(kEnvProgram);
  if (o.program.empty()) o.program = "program";
  if (const std::string limit = env(kEnvTimeLimit); !limit.empty()) {
    char* end = nullptr;
    o.time_limit = std::strtod(limit.c_str(), &end);
    if (*end != '\0' || !(o.time_limit > 0))
      throw InputError(std::string(kEnvTimeLimit) +
                       " is not a positive number of seconds: " + limit);
  }
  if (const std::string n = env(kEnvTimedLaunches); !n.empty()) {
    char* end = nullptr;
    o.timed_launches = std::strtoull(n.c_str(), &end, 10);
    if (*end != '\0' || n[0] == '-' || o.timed_launches == 0)
      throw InputError(std::string(kEnvTimedLaunches) + " is not a positive count: " + n);
  }
  if (const std::string c = env(kEnvCacheControl); !c.empty())
    o.flush_caches = app::cache_control_flushes(c, kEnvCacheControl);
  const std::string window = env(kEnvVcdWindow);
  if (!window.empty()) app::parse_vcd_window(window, kEnvVcdWindow, o.vcd_from, o.vcd_to);
  return o;
}

// The engine the launches run on: a timing session, or the functional engine (stepped inside a
// SystemC testbench when waves are asked for).
struct ProgramRun::Engine {
  std::unique_ptr<app::TimingSession> timing;
  app::FunctionalRun functional;
  func::ReferenceOptions reference;
  std::unique_ptr<app::FuncStepper> stepper;
  std::unique_ptr<app::VcdFile> vcd;
  int stopped = 0;         // the signal that stopped the run
  bool timed_out = false;  // the time limit stopped it
};

// What the timing model is told stopped a launch at the time limit (it only names it; the
// runtime reports the limit itself).
constexpr int kTimeLimitStop = SIGXCPU;

bool ProgramRun::past_time_limit() const {
  return m_options.time_limit > 0 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count() >=
             m_options.time_limit;
}

void ProgramRun::stop_at_time_limit() {
  const size_t index = launches() - 1;  // the stopped launch is recorded, with what of it ran
  uint64_t warps = 0, total = 0;
  double seconds;
  if (m_engine->timing && untimed(m_running)) {  // stopped in a launch the timing model skips
    total = m_engine->functional.total.warp_instructions;
    seconds = m_engine->functional.host_seconds;
  } else if (m_engine->timing) {
    for (const app::TimedLaunch& l : m_engine->timing->launches()) total += l.warp_instructions;
    warps = m_engine->timing->launches().back().warp_instructions;
    seconds = m_engine->timing->launch_seconds();
  } else {
    total = m_engine->functional.total.warp_instructions;
    warps = m_engine->functional.launches.back().stats.warp_instructions;
    seconds = m_engine->functional.host_seconds;
  }
  std::ostringstream line;
  line << "the time limit (--time-limit " << m_options.time_limit << " s) stopped launch " << index
       << " (" << m_running << ") after " << warps << " of its warp instructions, at " << std::fixed
       << std::setprecision(1) << (seconds > 0 ? total / seconds / 1e6 : 0.0)
       << " M warp instructions/s: the program needs more simulation time";
  std::fflush(nullptr);  // the program's own buffered output first
  std::cout.flush();
  std::cerr << "gputlm cuda: " << line.str() << std::endl;
  finish("the time limit (exit 2) in launch " + std::to_string(index) + " (" + m_running + ")");
  std::_Exit(kExitInputError);
}

ProgramRun::ProgramRun(const ProgramOptions& options)
    : m_options(options), m_spec(gpu::GpuSpec::from_file(options.config)) {}

ProgramRun::~ProgramRun() = default;

size_t ProgramRun::launches() const {
  if (!m_engine) return 0;
  return m_engine->timing ? m_engine->timing->launches().size() + m_untimed.size()
                          : m_engine->functional.launches.size();
}

bool ProgramRun::untimed(const std::string& kernel) const {
  if (!m_options.timed_launches || !m_engine || !m_engine->timing) return false;
  auto it = m_timed.find(kernel);
  return it != m_timed.end() && it->second.first >= m_options.timed_launches;
}

func::FuncStats ProgramRun::run_functionally(const func::BoundKernel& kernel,
                                             const func::Launch& launch) {
  Engine& e = *m_engine;
  const auto start = std::chrono::steady_clock::now();
  const func::FuncStats stats =
      e.stepper ? e.stepper->run(kernel, launch) : func::run_reference(kernel, launch, e.reference);
  e.functional.total.add(stats);
  e.functional.host_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

void ProgramRun::run_untimed(const func::BoundKernel& kernel, const func::Launch& launch) {
  const func::FuncStats stats = run_functionally(kernel, launch);
  const auto& [count, cycles] = m_timed.at(launch.kernel->name);
  m_untimed.push_back({launches(), launch.kernel->name, stats.warp_instructions, cycles / count});
  m_cycles += m_untimed.back().cycles;
}

void ProgramRun::launch(const func::BoundKernel& kernel, const func::Launch& launch) {
  if (!m_engine) {
    m_engine = std::make_unique<Engine>();
    Engine& e = *m_engine;
    e.reference.stop = [this, &e] {
      return (e.stopped = app::stop_signal()) != 0 || (e.timed_out = past_time_limit());
    };
    e.reference.max_warp_instructions = m_spec.max_warp_instructions;
    e.reference.reconvergence = m_spec.core.reconvergence;
    if (m_options.functional) {
      e.functional.workload = m_options.program;
      e.functional.size = "program";
      e.functional.self_checked = true;
      if (!m_options.vcd.empty()) {
        e.stepper = std::make_unique<app::FuncStepper>("func", kMaxWarpsPerCta, e.reference);
        e.vcd = std::make_unique<app::VcdFile>(m_options.vcd);
        e.stepper->start_waves(e.vcd->file());
      }
    } else {
      app::TimingOptions t;
      t.vcd_path = m_options.vcd;
      t.vcd_scope = m_options.vcd_scope;
      t.vcd_from = m_options.vcd_from;
      t.vcd_to = m_options.vcd_to;
      t.progress = isatty(2);
      t.stop_signal = [this, &e] {
        if (const int signal = app::stop_signal()) return signal;
        return (e.timed_out = past_time_limit()) ? kTimeLimitStop : 0;
      };
      e.timing = std::make_unique<app::TimingSession>(m_spec, t, m_options.program, "program");
    }
  }
  Engine& e = *m_engine;
  m_running = launch.kernel->name;
  if (untimed(m_running)) {
    run_untimed(kernel, launch);
  } else if (e.timing) {
    const size_t before = e.timing->launches().size();
    if (m_options.flush_caches) e.timing->flush_caches();
    e.timing->run_launch(kernel, launch);
    e.stopped = e.timing->stopped();
    if (e.timing->launches().size() > before) {
      const uint64_t cycles = e.timing->launches().back().cycles;
      m_cycles += cycles;
      auto& [count, sum] = m_timed[m_running];  // a stopped launch ends the program
      ++count;
      sum += cycles;
    }
  } else {
    app::LaunchRecord rec{launch.kernel->name, launch.grid, launch.block,
                          run_functionally(kernel, launch)};
    const uint64_t cores = std::max<uint64_t>(m_spec.cores, 1);
    m_cycles += (rec.stats.warp_instructions + cores - 1) / cores;
    e.functional.launches.push_back(rec);
  }
  if (e.timed_out) stop_at_time_limit();
  m_running.clear();
  if (e.stopped) {
    finish();
    std::fflush(nullptr);  // the program's own buffered output first
    std::cout.flush();
    std::_Exit(app::interrupted_exit_code(e.stopped));
  }
}

void ProgramRun::profiler_start() {
  if (m_profiling) return;
  m_profiling = true;
  m_profiler_ranges.push_back({launches(), launches()});
}

void ProgramRun::profiler_stop() {
  if (!m_profiling) return;
  m_profiling = false;
  m_profiler_ranges.back().second = launches();
}

std::string ProgramRun::position() const {
  const size_t n = launches();
  if (!m_running.empty()) return "in launch " + std::to_string(n) + " (" + m_running + ")";
  return n ? "after launch " + std::to_string(n - 1) : "before any launch";
}

void ProgramRun::finish(const std::string& stopped_by) {
  if (m_finished) return;
  m_finished = true;
  profiler_stop();
  nlohmann::json stats;
  if (!m_engine || m_engine->timing) {
    app::TimingRun run;
    if (m_engine) {
      run = m_engine->timing->finish();
      run.host_seconds = m_engine->timing->launch_seconds();
    } else {  // no launch: nothing was elaborated
      run.workload = m_options.program;
      run.size = "program";
      run.config = m_spec.name;
      run.config_hash = m_spec.hash;
      run.cores = m_spec.cores;
    }
    run.self_checked = true;
    if (run.stopped_by.empty() || (m_engine && m_engine->timed_out)) run.stopped_by = stopped_by;
    app::print_summary(std::cerr, run);
    stats = app::to_json(run);
  } else {
    Engine& e = *m_engine;
    if (e.stopped) e.functional.stopped_by = app::signal_name(e.stopped);
    if (e.functional.stopped_by.empty()) e.functional.stopped_by = stopped_by;
    if (e.vcd) e.vcd->write_save_file(e.stepper->save_file_groups());
    app::print_summary(std::cerr, e.functional);
    stats = app::to_json(e.functional);
  }
  if (!m_untimed.empty()) {
    stats["untimed_launches"] = nlohmann::json::array();
    for (const Untimed& u : m_untimed)
      stats["untimed_launches"].push_back({{"launch", u.index},
                                           {"kernel", u.kernel},
                                           {"warp_instructions", u.warp_instructions},
                                           {"clock_cycles", u.cycles}});
    std::cerr << "untimed launches    " << m_untimed.size() << " (--timed-launches "
              << m_options.timed_launches
              << ": later launches of a kernel ran on the functional engine alone; the statistics"
                 " are of the timed ones)\n";
  }
  if (!m_profiler_ranges.empty()) {
    stats["profiler_ranges"] = nlohmann::json::array();
    std::string shown_ranges;
    for (const auto& [from, to] : m_profiler_ranges) {
      stats["profiler_ranges"].push_back({{"from_launch", from}, {"to_launch", to}});
      shown_ranges += (shown_ranges.empty() ? "" : ", ") +
                      (to > from ? std::to_string(from) + "-" + std::to_string(to - 1) : "none");
    }
    std::cerr << "profiler ranges     launches " << shown_ranges << " (cudaProfilerStart/Stop)\n";
  }
  if (!m_options.stats.empty()) {
    std::ofstream out(m_options.stats);
    if (!out) throw InputError(m_options.stats + ": cannot write the statistics");
    out << app::stats_text(stats);
    std::cerr << "statistics          " << shown(m_options.stats) << "\n";
  }
  if (!m_options.vcd.empty() && m_engine)
    std::cerr << "waves               " << shown(m_options.vcd)
              << " (GTKWave save file next to it)\n";
}

}  // namespace gputlm::runtime
