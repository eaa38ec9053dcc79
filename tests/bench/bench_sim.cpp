// bench_sim: simulation speed on fixed workloads, functional-only, timed, and timed with waves.
// Each mode runs each workload several times; the median host time gives simulated thread
// instructions and simulated cycles per host second, and the median ratio of functional to this
// mode's host time its rate relative to functional-only. Not a test: nothing asserts a speed.
// It also measures the SystemC kernel's floor, one clocked process that does nothing but wake
// each cycle, the way a busy core does: a timed run whose core is busy in every cycle cannot
// simulate more cycles per second than that, whatever its model costs; "kernel bound" is the
// rate relative to functional-only such a run would reach at that floor (thread instructions per
// cycle x floor cycles/s / functional thread instructions/s). "peak MB" is the process's peak
// resident memory during one run of the mode (Linux: the peak is reset before each run by writing
// 5 to /proc/self/clear_refs and read from VmHWM in /proc/self/status afterwards; the largest over
// the repeats), so it includes what the process holds between runs (the binary, SystemC).
// Modes: functional only; on the first config timed, timed with waves of one core over a
// 10,000-cycle window from the middle of the run (the cost of looking at a window: "x timed" is
// its host time over the timed run's), timed with waves of every module over the whole run; on
// each further config (by default the 15-core fermi-gtx480) timed alone.
//   build/bin/bench_sim [--config configs/narasiman-baseline.json --config
//   configs/fermi-gtx480.json]
//                       [--size test] [--repeat 3] [--timed-only] [--json out.json]
//                       [workload dirs...]
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <systemc>

#include "app/functional_run.h"
#include "app/huge_pages.h"
#include "app/timing_run.h"
#include "models/common/error.h"
#include "support/sc_kernel.h"

namespace po = boost::program_options;
using namespace gputlm;

namespace {

struct Sample {
  double seconds = 0;
  uint64_t thread_instructions = 0;
  uint64_t cycles = 0;
};

// Resets the process's peak resident memory (Linux 4.0+); false where that is not possible.
bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  return static_cast<bool>(f << "5" << std::flush);
}

// The process's peak resident memory in bytes since the last reset (VmHWM); 0 when unknown.
uint64_t peak_rss_bytes() {
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmHWM:", 0) == 0)
      return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One SC_METHOD woken by its own timer every cycle, as Core::activate is while the core is busy.
class KernelFloor : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(KernelFloor);
  KernelFloor(sc_core::sc_module_name n, uint64_t cycles) : sc_module(n), m_left(cycles) {
    SC_METHOD(tick);
    sensitive << m_timer;
  }

 private:
  void tick() {
    if (m_left-- > 0) m_timer.notify(sc_core::sc_time(1, sc_core::SC_NS));
  }
  uint64_t m_left;
  sc_core::sc_event m_timer;
};

// Cycles per host second of KernelFloor (the median of `repeat` runs).
double kernel_floor_cycles_per_second(int repeat) {
  constexpr uint64_t kCycles = 4'000'000;
  std::vector<double> rates;
  for (int i = 0; i < repeat; ++i) {
    test::fresh_sc_kernel();
    KernelFloor floor("floor", kCycles);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    rates.push_back(kCycles /
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(rates);
}

}  // namespace

// A mode of the benchmark: functional only, or a timed run on one of the configs, with or
// without waves.
struct Mode {
  std::string name;
  int config = -1;  // index into the configs; -1: functional only
  enum class Waves { None, Window, All } waves = Waves::None;
};

// The modes: functional; then timed, timed with waves of one core over a 10,000-cycle window and
// timed with waves of every module over the whole run, on the first config; timed alone on each
// further config. `timed_only`: functional, then timed alone on every config (a GPU of 132 SMs
// filled by a study-size workload writes gigabytes of waves).
std::vector<Mode> modes_for(const std::vector<gpu::GpuSpec>& specs, bool timed_only) {
  std::vector<Mode> m = {{"functional"}, {"timed", 0}};
  if (timed_only) m.back().name = "timed@" + specs[0].name;
  if (!timed_only) {
    m.push_back({"timed+window", 0, Mode::Waves::Window});
    m.push_back({"timed+waves", 0, Mode::Waves::All});
  }
  for (size_t i = 1; i < specs.size(); ++i)
    m.push_back({"timed@" + specs[i].name, static_cast<int>(i)});
  return m;
}

constexpr uint64_t kWindowCycles = 10'000;

int sc_main(int argc, char** argv) {
  po::options_description opts("bench_sim options");
  opts.add_options()("help,h", "show this help")(
      "config",
      po::value<std::vector<std::string>>()->default_value(
          {"configs/narasiman-baseline.json", "configs/fermi-gtx480.json"},
          "configs/narasiman-baseline.json configs/fermi-gtx480.json"),
      "GPU configs (repeatable): the first runs every timed mode, each further one the timed mode "
      "alone")("size", po::value<std::string>()->default_value("test"), "workload size")(
      "repeat", po::value<int>()->default_value(3),
      "runs per workload and mode (the median is reported)")(
      "timed-only", "no waves modes: functional, then each config timed alone")(
      "json", po::value<std::string>(), "also write the results as JSON")(
      "workloads", po::value<std::vector<std::string>>(), "workload directories");
  po::positional_options_description pos;
  pos.add("workloads", -1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << opts;
      return kExitOk;
    }
    std::vector<std::string> dirs = {"traces/micro/divergence", "traces/narasiman/blackjack",
                                     "traces/narasiman/matrix_mult", "traces/narasiman/reduction",
                                     "traces/narasiman/bfs"};
    if (vm.count("workloads")) dirs = vm["workloads"].as<std::vector<std::string>>();
    std::vector<gpu::GpuSpec> specs;
    for (const std::string& c : vm["config"].as<std::vector<std::string>>())
      specs.push_back(gpu::GpuSpec::from_file(c));
    const std::vector<Mode> modes = modes_for(specs, vm.count("timed-only") > 0);
    const int repeat = std::max(1, vm["repeat"].as<int>());
    const std::string vcd = (std::filesystem::temp_directory_path() / "bench_sim.vcd").string();
    nlohmann::json out = nlohmann::json::array();
    const double floor_cps = kernel_floor_cycles_per_second(repeat);
    std::cout << "SystemC kernel floor: " << std::fixed << std::setprecision(2) << floor_cps / 1e6
              << " M cycles/s (one clocked process, one activation a cycle)\n";
    std::cout << "timed modes on " << specs[0].name << "; timed+window: waves of gpu.core0 over "
              << kWindowCycles
              << " cycles from the middle of the run; x timed: host time / the timed run's\n";
    std::cout << std::left << std::setw(26) << "workload" << std::setw(26) << "mode" << std::right
              << std::setw(12) << "M thread/s" << std::setw(12) << "M cycles/s" << std::setw(12)
              << "K SM-cyc/s" << std::setw(11) << "median s" << std::setw(13) << "/ functional"
              << std::setw(9) << "x timed" << std::setw(13) << "kernel bound" << std::setw(9)
              << "peak MB"
              << "\n";
    for (const auto& dir : dirs) {
      // The modes take turns within each repeat, so that the machine's load varies alike for all.
      std::vector<std::vector<double>> secs(modes.size());
      std::vector<Sample> last(modes.size());
      std::vector<uint64_t> peak(modes.size(), 0);
      for (int i = 0; i < repeat; ++i) {
        for (size_t m = 0; m < modes.size(); ++m) {
          const Mode& mode = modes[m];
          const bool peak_known = reset_peak_rss();
          workload::Workload w(dir, vm["size"].as<std::string>());
          if (mode.config < 0) {
            const app::FunctionalRun r = app::run_functional(w, {});
            last[m] = {r.host_seconds, r.total.thread_instructions, 0};
          } else {
            test::fresh_sc_kernel();
            app::TimingOptions o;
            if (mode.waves != Mode::Waves::None) o.vcd_path = vcd;
            if (mode.waves ==
                Mode::Waves::Window) {  // the timed run (mode 1) ran before in this repeat
              o.vcd_scope = "gpu.core0";
              o.vcd_from = last[1].cycles / 2;
              o.vcd_to = o.vcd_from + kWindowCycles - 1;
            }
            const app::TimingRun r = app::run_timing(w, specs[static_cast<size_t>(mode.config)], o);
            if (!r.verify.ok()) throw InputError(dir + ": outputs do not match the reference");
            last[m] = {r.host_seconds, r.thread_instructions, r.cycles};
          }
          secs[m].push_back(last[m].seconds);
          if (peak_known) peak[m] = std::max(peak[m], peak_rss_bytes());
        }
      }
      // Ratios of host times within each repeat, their median over the repeats.
      auto median_ratio = [&](size_t a, size_t b) {
        std::vector<double> r;
        for (int i = 0; i < repeat; ++i) r.push_back(secs[a][i] / secs[b][i]);
        return median(r);
      };
      for (size_t m = 0; m < modes.size(); ++m) {
        const Sample& s = last[m];
        const double med = median(secs[m]);
        const double tips = s.thread_instructions / med / 1e6, cps = s.cycles / med / 1e6;
        // Simulated SM-cycles a host second (cycles x the config's cores), as simulators of many
        // cores are compared (Accel-Sim and FlashGPU-Sim report theirs so).
        const uint32_t cores =
            modes[m].config >= 0 ? specs[static_cast<size_t>(modes[m].config)].cores : 0;
        const double sm_cps = s.cycles * double(cores) / med;
        const double ratio = median_ratio(0, m);  // rate relative to functional-only
        const double x_timed = modes[m].config == 0 ? median_ratio(m, 1) : 0.0;
        const double functional_tips = last[0].thread_instructions / median(secs[0]);
        const double bound = s.cycles ? double(s.thread_instructions) / double(s.cycles) *
                                            floor_cps / functional_tips
                                      : 0.0;
        std::cout << std::left << std::setw(26) << dir.substr(dir.find('/') + 1) << std::setw(26)
                  << modes[m].name << std::right << std::fixed << std::setprecision(2)
                  << std::setw(12) << tips << std::setw(12) << cps << std::setw(12);
        if (cores)
          std::cout << sm_cps / 1e3;
        else
          std::cout << "-";
        std::cout << std::setw(11) << std::setprecision(4) << med << std::setw(13)
                  << std::setprecision(3) << ratio << std::setw(9);
        if (x_timed > 0)
          std::cout << std::setprecision(2) << x_timed;
        else
          std::cout << "-";
        std::cout << std::setw(13) << std::setprecision(3);
        if (s.cycles)
          std::cout << bound;
        else
          std::cout << "-";
        std::cout << std::setw(9) << std::setprecision(1) << double(peak[m]) / (1 << 20) << "\n";
        nlohmann::json row = {{"workload", dir},
                              {"mode", modes[m].name},
                              {"median_seconds", med},
                              {"thread_instructions", s.thread_instructions},
                              {"cycles", s.cycles},
                              {"thread_instructions_per_second", tips * 1e6},
                              {"cycles_per_second", cps * 1e6},
                              {"sm_cycles_per_second", sm_cps},
                              {"rate_relative_to_functional", ratio},
                              {"kernel_bound_relative_to_functional", bound},
                              {"peak_rss_bytes", peak[m]}};
        if (modes[m].config >= 0) row["config"] = specs[static_cast<size_t>(modes[m].config)].name;
        if (x_timed > 0) row["host_time_relative_to_timed"] = x_timed;
        out.push_back(row);
      }
    }
    std::filesystem::remove(vcd);
    out.push_back({{"mode", "systemc_kernel_floor"}, {"cycles_per_second", floor_cps}});
    if (vm.count("json"))
      std::ofstream(vm["json"].as<std::string>()) << std::setw(2) << out << "\n";
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "bench_sim: " << e.what() << "\n";
    return kExitInputError;
  }
}

int main(int argc, char** argv) {
  app::prefer_huge_pages();
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
