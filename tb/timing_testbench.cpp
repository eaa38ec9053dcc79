#include "tb/timing_testbench.h"

#include <boost/program_options.hpp>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <systemc>

#include "app/cli_support.h"
#include "app/interrupt.h"
#include "app/report.h"
#include "app/sc_reports.h"
#include "app/timing_run.h"
#include "models/common/error.h"
#include "models/func/kernel_fault.h"

namespace po = boost::program_options;

namespace gputlm::tb {

int run_timing_testbench(int argc, char** argv, const std::string& name, bool one_core) {
  po::options_description opts(name + " options");
  opts.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                 "GPU config (configs/*.json)")(
      "workload", po::value<std::string>(), "workload directory")(
      "trace", po::value<std::string>(),
      "replay a recorded trace (traces/FORMAT.md) or an Accel-Sim trace directory instead of a "
      "workload")("size", po::value<std::string>()->default_value("test"), "workload size")(
      "vcd", po::value<std::string>(), "write waves to this VCD (GTKWave save file next to it)")(
      "stats", po::value<std::string>(), "also write the statistics JSON to this file");
  app::route_systemc_reports();
  app::install_stop_handlers();
  try {
    const po::variables_map vm =
        app::parse_options(std::vector<std::string>(argv + 1, argv + argc), opts, "");
    if (vm.count("help")) {
      std::cout << "usage: " << name
                << " --config <json> (--workload <dir> [--size S] | --trace <file>) [--vcd F] "
                   "[--stats F]\n"
                << opts;
      return kExitOk;
    }
    if (!vm.count("config") || vm.count("workload") == vm.count("trace"))
      throw InputError(name + ": --config and one of --workload or --trace are required");
    if (vm.count("stats")) app::check_writable(vm["stats"].as<std::string>(), "--stats");
    if (vm.count("vcd")) app::check_writable(vm["vcd"].as<std::string>(), "--vcd", true);
    gpu::GpuSpec spec = gpu::GpuSpec::from_file(vm["config"].as<std::string>());
    if (one_core) spec.cores = 1;
    app::TimingOptions options;
    if (vm.count("vcd")) options.vcd_path = vm["vcd"].as<std::string>();
    app::TimingRun run;
    if (vm.count("trace")) {
      run = app::run_timing_trace_path(vm["trace"].as<std::string>(), spec, options);
    } else {
      workload::Workload w(vm["workload"].as<std::string>(), vm["size"].as<std::string>());
      run = app::run_timing(w, spec, options);
    }
    const std::string json = app::stats_text(app::to_json(run));
    std::cout << json;
    if (vm.count("stats")) std::ofstream(vm["stats"].as<std::string>()) << json;
    if (!run.stopped_by.empty()) return app::interrupted_exit_code(app::stop_signal());
    return run.replayed || !run.verify.failed() ? kExitOk : kExitVerifyFailed;
  } catch (const po::error& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return kExitInputError;
  } catch (const func::KernelFault& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return kExitKernelFault;
  } catch (const InputError& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return kExitKernelFault;
  }
}

}  // namespace gputlm::tb
