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
//   build/bin/bench_sim [--config configs/narasiman-baseline.json] [--size test] [--repeat 3]
//                       [--json out.json] [workload dirs...]
#include <algorithm>
#include <chrono>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <systemc>

#include "models/common/error.h"
#include "tb/functional_run.h"
#include "tb/sc_kernel.h"
#include "tb/timing_run.h"

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
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One SC_METHOD woken by its own timer every cycle, as Core::tick is while the core is busy.
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
    tb::fresh_sc_kernel();
    KernelFloor floor("floor", kCycles);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    rates.push_back(kCycles / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(rates);
}

}  // namespace

int sc_main(int argc, char** argv) {
  po::options_description opts("bench_sim options");
  opts.add_options()("help,h", "show this help")
      ("config", po::value<std::string>()->default_value("configs/narasiman-baseline.json"), "GPU config of the timed modes")
      ("size", po::value<std::string>()->default_value("test"), "workload size")
      ("repeat", po::value<int>()->default_value(3), "runs per workload and mode (the median is reported)")
      ("json", po::value<std::string>(), "also write the results as JSON")
      ("workloads", po::value<std::vector<std::string>>(), "workload directories");
  po::positional_options_description pos;
  pos.add("workloads", -1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << opts;
      return kExitOk;
    }
    std::vector<std::string> dirs = {"traces/micro/divergence", "traces/narasiman/blackjack", "traces/narasiman/matrix_mult",
                                     "traces/narasiman/reduction", "traces/narasiman/bfs"};
    if (vm.count("workloads")) dirs = vm["workloads"].as<std::vector<std::string>>();
    const gpu::GpuSpec spec = gpu::GpuSpec::from_file(vm["config"].as<std::string>());
    const int repeat = std::max(1, vm["repeat"].as<int>());
    const std::string vcd = (std::filesystem::temp_directory_path() / "bench_sim.vcd").string();
    nlohmann::json out = nlohmann::json::array();
    const double floor_cps = kernel_floor_cycles_per_second(repeat);
    std::cout << "SystemC kernel floor: " << std::fixed << std::setprecision(2) << floor_cps / 1e6
              << " M cycles/s (one clocked process, one activation a cycle)\n";
    std::cout << std::left << std::setw(26) << "workload" << std::setw(12) << "mode" << std::right << std::setw(14)
              << "M thread/s" << std::setw(14) << "M cycles/s" << std::setw(12) << "median s" << std::setw(14)
              << "/ functional" << std::setw(14) << "kernel bound" << std::setw(10) << "peak MB" << "\n";
    const std::vector<std::string> modes = {"functional", "timed", "timed+waves"};
    for (const auto& dir : dirs) {
      // The modes take turns within each repeat, so that the machine's load varies alike for all.
      std::vector<std::vector<double>> secs(modes.size());
      std::vector<Sample> last(modes.size());
      std::vector<uint64_t> peak(modes.size(), 0);
      for (int i = 0; i < repeat; ++i) {
        for (size_t m = 0; m < modes.size(); ++m) {
          const bool peak_known = reset_peak_rss();
          workload::Workload w(dir, vm["size"].as<std::string>());
          if (modes[m] == "functional") {
            const tb::FunctionalRun r = tb::run_functional(w, {});
            last[m] = {r.host_seconds, r.total.thread_instructions, 0};
          } else {
            tb::fresh_sc_kernel();
            tb::TimingOptions o;
            if (modes[m] == "timed+waves") o.vcd_path = vcd;
            const tb::TimingRun r = tb::run_timing(w, spec, o);
            if (!r.verify.ok()) throw InputError(dir + ": outputs do not match the reference");
            last[m] = {r.host_seconds, r.thread_instructions, r.cycles};
          }
          secs[m].push_back(last[m].seconds);
          if (peak_known) peak[m] = std::max(peak[m], peak_rss_bytes());
        }
      }
      for (size_t m = 0; m < modes.size(); ++m) {
        const Sample& s = last[m];
        const double med = median(secs[m]);
        const double tips = s.thread_instructions / med / 1e6, cps = s.cycles / med / 1e6;
        // Rate relative to functional-only: the median over repeats of functional time / this time.
        std::vector<double> ratios;
        for (int i = 0; i < repeat; ++i) ratios.push_back(secs[0][i] / secs[m][i]);
        const double ratio = median(ratios);
        const double functional_tips = last[0].thread_instructions / median(secs[0]);
        const double bound = s.cycles ? double(s.thread_instructions) / double(s.cycles) * floor_cps / functional_tips : 0.0;
        std::cout << std::left << std::setw(26) << dir.substr(dir.find('/') + 1) << std::setw(12) << modes[m] << std::right
                  << std::fixed << std::setprecision(2) << std::setw(14) << tips << std::setw(14) << cps << std::setw(12)
                  << std::setprecision(4) << med << std::setw(14) << std::setprecision(3) << ratio;
        std::cout << std::setw(14);
        if (s.cycles) std::cout << bound;
        else std::cout << "-";
        std::cout << std::setw(10) << std::setprecision(1) << double(peak[m]) / (1 << 20) << "\n";
        out.push_back({{"workload", dir}, {"mode", modes[m]}, {"median_seconds", med}, {"thread_instructions", s.thread_instructions},
                       {"cycles", s.cycles}, {"thread_instructions_per_second", tips * 1e6}, {"cycles_per_second", cps * 1e6},
                       {"rate_relative_to_functional", ratio}, {"kernel_bound_relative_to_functional", bound},
                       {"peak_rss_bytes", peak[m]}});
      }
    }
    std::filesystem::remove(vcd);
    out.push_back({{"mode", "systemc_kernel_floor"}, {"cycles_per_second", floor_cps}});
    if (vm.count("json")) std::ofstream(vm["json"].as<std::string>()) << std::setw(2) << out << "\n";
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "bench_sim: " << e.what() << "\n";
    return kExitInputError;
  }
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
