#include "tb/mem/memory_testbench.h"

#include <boost/program_options.hpp>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "app/sc_reports.h"
#include "app/vcd_file.h"
#include "models/common/error.h"
#include "models/common/stats.h"

namespace po = boost::program_options;

namespace gputlm::tb {

int run_memory_testbench(int argc, char** argv, const std::string& name, const std::string& purpose,
                         const BuildTestbench& build) {
  po::options_description opts(name + " options");
  opts.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                 "JSON config (see configs/mem/)")(
      "trace", po::value<std::string>(),
      "request trace: '<cycle>: read|write 0x<address> [core=N] [bytes=N] [hint]' per line")(
      "vcd", po::value<std::string>(), "write waves to this VCD (GTKWave save file next to it)")(
      "stats", po::value<std::string>(), "also write the statistics JSON to this file");
  app::route_systemc_reports();
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, opts), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << name
                << " --config <json> --trace <file> [--vcd <file>] [--stats <file>]\n"
                << purpose << "\n"
                << opts;
      return kExitOk;
    }
    if (!vm.count("config") || !vm.count("trace"))
      throw InputError(name + ": --config and --trace are required (see --help)");
    MemoryTestbenchArgs args;
    args.config_path = vm["config"].as<std::string>();
    args.trace_path = vm["trace"].as<std::string>();
    std::ifstream in(args.config_path);
    if (!in) throw InputError(args.config_path + ": cannot open config");
    try {
      args.config = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(args.config_path + ": invalid JSON: " + e.what());
    }
    TestbenchParts parts;
    build(args, parts);

    std::unique_ptr<app::VcdFile> vcd;
    std::vector<WaveGroup> groups;
    if (vm.count("vcd")) {
      vcd = std::make_unique<app::VcdFile>(vm["vcd"].as<std::string>());
      groups = app::trace_all(*vcd);
    }
    sc_core::sc_start();
    for (TracePlayer* p : parts.players)
      if (!p->error().empty()) throw InputError(p->error());
    for (TracePlayer* p : parts.players)
      if (!p->finished())
        throw std::runtime_error(std::string(p->name()) +
                                 ": simulation stopped before the trace was served");
    if (vcd) vcd->write_save_file(groups);

    nlohmann::json out;
    out["config"] = args.config_path;
    out["trace"] = args.trace_path;
    out["stats"] = collect_stats();
    std::cout << std::setw(2) << out << "\n";
    if (vm.count("stats"))
      std::ofstream(vm["stats"].as<std::string>()) << std::setw(2) << out << "\n";
    return kExitOk;
  } catch (const po::error& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return kExitInputError;
  } catch (const InputError& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << name << ": internal error: " << e.what() << "\n";
    return kExitKernelFault;
  }
}

}  // namespace gputlm::tb
