// bench_functional: speed of the functional engine on fixed workloads. Runs each workload
// several times and reports the median host time and warp/thread instructions per host second
// (medians, because these machines are noisy). Not a test: nothing here asserts a speed.
//   build/bin/bench_functional [--size study] [--repeat 5] [--json out.json] [workload dirs...]
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <systemc>

#include "models/common/error.h"
#include "tb/functional_run.h"
#include "tb/workload/catalog.h"

namespace po = boost::program_options;
using namespace gputlm;

int sc_main(int argc, char** argv) {
  po::options_description opts("bench_functional options");
  opts.add_options()("help,h", "show this help")
      ("size", po::value<std::string>()->default_value("study"), "workload size")
      ("repeat", po::value<int>()->default_value(5), "runs per workload (the median is reported)")
      ("json", po::value<std::string>(), "also write the results as JSON")
      ("workloads", po::value<std::vector<std::string>>(), "workload directories (default: all under traces/)");
  po::positional_options_description pos;
  pos.add("workloads", -1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << opts;
      return kExitOk;
    }
    std::vector<std::string> dirs;
    if (vm.count("workloads")) dirs = vm["workloads"].as<std::vector<std::string>>();
    else
      for (const auto& e : workload::list_workloads(workload::find_traces_root("", argv[0]))) dirs.push_back(e.dir);
    const int repeat = std::max(1, vm["repeat"].as<int>());
    nlohmann::json out = nlohmann::json::array();
    std::cout << std::left << std::setw(26) << "workload" << std::right << std::setw(12) << "warp instr"
              << std::setw(12) << "median s" << std::setw(16) << "M warp instr/s" << std::setw(18) << "M thread instr/s\n";
    for (const auto& dir : dirs) {
      std::vector<double> secs;
      tb::FunctionalRun run;
      for (int i = 0; i < repeat; ++i) {
        workload::Workload w(dir, vm["size"].as<std::string>());
        run = tb::run_functional(w, {});
        if (!run.verify.ok()) throw InputError(dir + ": outputs do not match the reference");
        secs.push_back(run.host_seconds);
      }
      std::sort(secs.begin(), secs.end());
      const double median = secs[secs.size() / 2];
      const double wips = run.total.warp_instructions / median / 1e6, tips = run.total.thread_instructions / median / 1e6;
      std::cout << std::left << std::setw(26) << run.workload << std::right << std::setw(12) << run.total.warp_instructions
                << std::setw(12) << std::fixed << std::setprecision(4) << median << std::setw(16) << std::setprecision(2)
                << wips << std::setw(17) << tips << "\n";
      out.push_back({{"workload", run.workload}, {"size", run.size}, {"runs", repeat}, {"median_seconds", median},
                     {"warp_instructions", run.total.warp_instructions},
                     {"thread_instructions", run.total.thread_instructions},
                     {"warp_instructions_per_second", wips * 1e6}, {"thread_instructions_per_second", tips * 1e6}});
    }
    if (vm.count("json")) std::ofstream(vm["json"].as<std::string>()) << std::setw(2) << out << "\n";
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "bench_functional: " << e.what() << "\n";
    return kExitInputError;
  }
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
