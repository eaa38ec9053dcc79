// gputlm: the command-line front end. Thin: parses the command line, builds what the command
// needs, runs it, reports. Exit codes: 0 ok (verified, or unchecked without a reference), 1 an
// output differs from the CPU reference, 2 bad input (command line, PTX, config, workload), 3 the
// kernel faulted; `gputlm cuda` returns the program's own exit status.
#include <unistd.h>
#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <systemc>

#include "app/cli_support.h"
#include "app/functional_run.h"
#include "app/huge_pages.h"
#include "app/interrupt.h"
#include "app/kernel_info.h"
#include "app/output_dump.h"
#include "app/predict_run.h"
#include "app/ptx_check.h"
#include "app/report.h"
#include "app/sc_reports.h"
#include "app/stat_table.h"
#include "app/timing_run.h"
#include "io/trace/trace_file.h"
#include "io/trace/trace_record.h"
#include "io/workload/catalog.h"
#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/common/text_file.h"
#include "models/func/kernel_fault.h"
#include "models/gpu/gpu_spec.h"
#include "sc_main/cuda_command.h"
#include "sc_main/git_version.h"
#include "sc_main/sweep_command.h"
#include "sc_main/validate_command.h"

namespace po = boost::program_options;
using namespace gputlm;

namespace {

const char* kUsage =
    "usage: gputlm <command> [options]\n"
    "commands:\n"
    "  run      run a workload and check its outputs against the CPU reference (if it has one)\n"
    "  predict  the MWP/CWP analytical model's prediction for a workload on a GPU config\n"
    "  list     list the workloads under traces/\n"
    "  trace    trace record: write a workload's dynamic trace (traces/FORMAT.md)\n"
    "  cuda     run an unmodified CUDA program (nvcc -cudart shared) on the simulator\n"
    "  ptx      ptx check FILE...: parse and bind every kernel of PTX files, per kernel ok or the "
    "error\n"
    "  sweep    run a sweep spec: configs x workloads x sizes x config keys varied, results in one "
    "CSV\n"
    "  validate build and run CUDA programs, compare their kernels' cycles and counters with "
    "measured ones\n"
    "Run 'gputlm <command> --help' for the options of a command; 'gputlm --version' for the "
    "commit.\n";

int cmd_list(const std::vector<std::string>& args, const char* argv0) {
  po::options_description opts("gputlm list options");
  opts.add_options()("help,h", "show this help")(
      "traces", po::value<std::string>()->default_value(""), "workload root (default: ./traces)")(
      "kernels",
      "also each kernel: instructions, basic blocks, and its VGIW mapping (segments, live values, "
      "replicas)");
  const po::variables_map vm = app::parse_options(args, opts, "list");
  if (vm.count("help")) {
    std::cout << "usage: gputlm list [--traces DIR] [--kernels]\n" << opts;
    return kExitOk;
  }
  const std::string root = workload::find_traces_root(vm["traces"].as<std::string>(), argv0);
  const size_t width = app::terminal_width();
  std::cout << app::wrap("workloads in " + root +
                             " (run with: gputlm run --functional --workload " + root + "/<name>)",
                         width, 0);
  for (const auto& e : workload::list_workloads(root)) {
    std::string sizes;
    for (const auto& s : e.sizes) sizes += (sizes.empty() ? "" : ", ") + s;  // wraps after a comma
    std::ostringstream head;
    head << std::left << std::setw(28) << e.name << " [" << sizes << "]"
         << (e.paper_class.empty() ? "" : "  " + e.paper_class);
    std::cout << app::wrap(head.str(), width, 2) << app::wrap(e.description, width, 6);
    if (!vm.count("kernels")) continue;
    for (const app::KernelInfo& k : app::kernel_info(e.dir)) {
      std::ostringstream line;
      line << "kernel " << k.name << ": " << k.instructions << " instructions, " << k.basic_blocks
           << " basic blocks; VGIW: ";
      if (!k.vgiw_error.empty())
        line << "not mapped (" << k.vgiw_error << ")";
      else {
        line << k.segments << " segments, " << k.live_values << " live values, "
             << k.static_instructions << " static instructions (parameters, coordinates), at least "
             << k.min_replicas << " replica(s) a segment, replicas bound by";
        for (const auto& [type, n] : k.replicas_bound_by) line << " " << type << " (" << n << ")";
        line << ", peak " << k.median_peak << " thread instructions a cycle (median segment)";
      }
      if (!k.sgmf_error.empty())
        line << "; SGMF: does not fit (" << k.sgmf_error << ")";
      else
        line << "; SGMF: fits, " << k.sgmf_units << " units a replica, " << k.sgmf_replicas
             << " replica(s)";
      std::cout << app::wrap(line.str(), width, 8);
    }
  }
  return kExitOk;
}

void write_file(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write " + what);
  out << text;
  std::cout << std::left << std::setw(20) << what << path << "\n";
}

// --rows-lead: a JSON object whose members lead every row of --csv and --jsonl.
// The option's value is the object itself when it starts with '{', else a file holding it.
app::StatRow read_rows_lead(const std::string& value) {
  const bool inline_object = !value.empty() && value[0] == '{';
  const std::string where = inline_object ? "--rows-lead" : value + ": --rows-lead";
  std::ifstream in;
  if (!inline_object && (in.open(value), !in))
    throw InputError(value + ": cannot read --rows-lead");
  const app::StatRow lead = inline_object ? app::StatRow::parse(value, nullptr, false)
                                          : app::StatRow::parse(in, nullptr, false);
  if (!lead.is_object()) throw InputError(where + " must be a JSON object (column -> value)");
  for (auto it = lead.begin(); it != lead.end(); ++it)
    if (it.value().is_structured())
      throw InputError(where + ": column '" + it.key() +
                       "' must be a number, string, bool or null");
  return lead;
}

// Every output file a run will write can be written: checked before the run, not after it.
void check_outputs(const po::variables_map& vm) {
  for (const char* key : {"stats", "csv", "jsonl", "dram-trace", "vcd", "sample-csv"})
    if (vm.count(key))
      app::check_writable(vm[key].as<std::string>(), std::string("--") + key,
                          std::string(key) == "vcd");
  if (vm.count("dump-outputs")) app::check_dump_dir(vm["dump-outputs"].as<std::string>());
}

// --dump-outputs of a complete workload run.
void dump_outputs(const po::variables_map& vm, const workload::Workload& w, const app::DumpRun& how,
                  const std::vector<workload::OutputBuffer>& outputs,
                  const workload::VerifyReport& verify, bool stopped) {
  if (!vm.count("dump-outputs")) return;
  if (stopped) {
    std::cout << "outputs             not dumped: the run was stopped\n";
    return;
  }
  const std::string index =
      app::write_output_dump(vm["dump-outputs"].as<std::string>(), w, how, outputs, verify);
  std::cout << "outputs             " << outputs.size() << " buffer(s), index " << index << "\n";
}

// A timing run of a workload or of a trace (`go`), with the options of `gputlm run`.
// `w`: the workload run (nullptr for a trace), for --dump-outputs.
int run_timed(
    const po::variables_map& vm,
    const std::function<app::TimingRun(const gpu::GpuSpec&, const app::TimingOptions&)>& go,
    const workload::Workload* w = nullptr) {
  check_outputs(vm);
  const gpu::GpuSpec spec = gpu::GpuSpec::from_file(vm["config"].as<std::string>());
  app::TimingOptions options;
  if (vm.count("vcd")) options.vcd_path = vm["vcd"].as<std::string>();
  options.vcd_scope = vm["vcd-scope"].as<std::string>();
  if (vm.count("vcd-window")) {
    app::parse_vcd_window(vm["vcd-window"].as<std::string>(), "run: --vcd-window", options.vcd_from,
                          options.vcd_to);
  }
  if (vm.count("dram-trace")) options.dram_trace_path = vm["dram-trace"].as<std::string>();
  options.progress = isatty(2);
  options.keep_outputs = w && vm.count("dump-outputs");
  if (vm.count("sample")) options.sample_every = vm["sample"].as<uint64_t>();
  if (vm.count("sample-csv") && !options.sample_every)
    throw InputError("run: --sample-csv needs --sample N (the interval in cycles)");
  if (vm.count("sample") && options.sample_every == 0)
    throw InputError("run: --sample must be at least 1 (cycles between samples)");
  const app::StatRow lead = vm.count("rows-lead")
                                ? read_rows_lead(vm["rows-lead"].as<std::string>())
                                : app::StatRow::object();
  const app::TimingRun run = go(spec, options);
  app::print_summary(std::cout, run);
  const bool tables = vm.count("csv") || vm.count("jsonl");
  const nlohmann::json stats = vm.count("stats") || tables ? app::to_json(run) : nlohmann::json();
  if (vm.count("stats"))
    write_file(vm["stats"].as<std::string>(), app::stats_text(stats), "statistics");
  const std::vector<app::StatRow> rows =
      tables ? app::lead_rows(lead, app::launch_rows(stats)) : std::vector<app::StatRow>();
  if (vm.count("csv")) write_file(vm["csv"].as<std::string>(), app::to_csv(rows), "csv");
  if (vm.count("jsonl"))
    write_file(vm["jsonl"].as<std::string>(), app::to_jsonl(rows), "json lines");
  if (vm.count("sample-csv"))
    write_file(vm["sample-csv"].as<std::string>(), app::to_csv(run.samples), "samples");
  if (!options.vcd_path.empty())
    std::cout << "waves               " << options.vcd_path << " (GTKWave save file next to it)\n";
  if (!options.dram_trace_path.empty())
    std::cout << "dram trace          " << options.dram_trace_path << " (one line per request)\n";
  if (w)
    dump_outputs(vm, *w, {"timing", {{"name", run.config}, {"hash", run.config_hash}}}, run.outputs,
                 run.verify, !run.stopped_by.empty());
  if (!run.stopped_by.empty()) return app::interrupted_exit_code(app::stop_signal());
  return run.replayed || !run.verify.failed() ? kExitOk : kExitVerifyFailed;
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description opts("gputlm run options");
  opts.add_options()("help,h", "show this help")(
      "functional", "run on the functional engine only (no timing model)")(
      "config", po::value<std::string>(),
      "GPU config for a timing run, e.g. configs/narasiman-baseline.json")(
      "workload", po::value<std::string>(), "workload directory, e.g. traces/micro/vecadd")(
      "trace", po::value<std::string>(),
      "timing runs: replay a recorded trace (traces/FORMAT.md) or an Accel-Sim trace directory "
      "(kernelslist.g) instead of a workload")(
      "size", po::value<std::string>()->default_value("test"),
      "workload size from its launch.json (test, study, ...)")(
      "stats", po::value<std::string>(), "write full statistics as JSON to this file")(
      "csv", po::value<std::string>(),
      "timing runs: also write the statistics as CSV to this file: a row per launch, a column per "
      "statistic (named by its path in --stats)")(
      "vcd", po::value<std::string>(),
      "write waves to this VCD file (and a GTKWave .gtkw next to it)")(
      "vcd-scope", po::value<std::string>()->default_value(""),
      "timing runs: trace only modules whose name starts with this, e.g. gpu.core0")(
      "vcd-window", po::value<std::string>(), "timing runs: keep only cycles FROM:TO in the VCD")(
      "dram-trace", po::value<std::string>(),
      "timing runs: write one CSV line per DRAM request to this file")(
      "jsonl", po::value<std::string>(),
      "timing runs: also write the --csv rows as JSON lines (one object per launch) to this file")(
      "rows-lead", po::value<std::string>(),
      "timing runs: a JSON object (or a file holding one) whose members lead every row of --csv "
      "and --jsonl (gputlm sweep gives each run its run_id, config label and axis values)")(
      "sample", po::value<uint64_t>(),
      "timing runs: record a time series row (IPC, active lanes, stall causes, cache hit rates, "
      "DRAM bandwidth and row hits) every N core cycles into the statistics (\"samples\")")(
      "sample-csv", po::value<std::string>(),
      "timing runs: also write the --sample rows as CSV to this file (scripts/plot_samples.py "
      "draws them)")("dump-outputs", po::value<std::string>(),
                     "workload runs: write each output buffer's final contents (<name>.bin, raw "
                     "little-endian) and an index outputs.json into this directory")(
      "max-warp-instructions", po::value<uint64_t>()->default_value(2'000'000'000ull),
      "watchdog: fault a launch that executes more warp instructions than this")(
      "reconvergence", po::value<std::string>()->default_value("stack"),
      "--functional: how a warp's diverged paths run, stack or its (independent thread "
      "scheduling); a timing run takes the config's core.reconvergence");
  const po::variables_map vm = app::parse_options(args, opts, "run");
  if (vm.count("help")) {
    std::cout << "usage: gputlm run (--functional | --config GPU.json) --workload DIR [options]\n"
                 "       gputlm run --config GPU.json --trace FILE [options]\n"
              << opts;
    return kExitOk;
  }
  if (vm.count("trace")) {
    if (!vm.count("config") || vm.count("workload") || vm.count("functional"))
      throw InputError(
          "run: --trace replays on a timing model: give --config <gpu config> and no --workload or "
          "--functional");
    if (vm.count("dump-outputs"))
      throw InputError(
          "run: --dump-outputs needs a workload run (a replayed trace has no outputs)");
    const std::string path = vm["trace"].as<std::string>();
    return run_timed(vm, [&](const gpu::GpuSpec& spec, const app::TimingOptions& o) {
      return app::run_timing_trace_path(path, spec, o);
    });
  }
  if (!vm.count("workload"))
    throw InputError("run: --workload is required (see gputlm run --help)");
  if (vm.count("functional") == vm.count("config"))
    throw InputError(
        "run: give either --functional or --config <gpu config> (see gputlm run --help)");
  for (const char* timing_only : {"dram-trace", "csv", "jsonl", "rows-lead", "vcd-scope",
                                  "vcd-window", "sample", "sample-csv"})
    if (vm.count("functional") && !vm[timing_only].defaulted() && vm.count(timing_only))
      throw InputError(
          std::string("run: --") + timing_only +
          " needs a timing run (--config <gpu config>); a functional run writes --stats and --vcd");
  check_outputs(vm);
  workload::Workload w(vm["workload"].as<std::string>(), vm["size"].as<std::string>());
  if (vm.count("config"))
    return run_timed(
        vm,
        [&](const gpu::GpuSpec& spec, const app::TimingOptions& o) {
          return app::run_timing(w, spec, o);
        },
        &w);
  app::FunctionalOptions options;
  options.reference.max_warp_instructions = vm["max-warp-instructions"].as<uint64_t>();
  const std::string reconvergence = vm["reconvergence"].as<std::string>();
  if (reconvergence != "stack" && reconvergence != "its")
    throw InputError("run: --reconvergence must be stack or its (is '" + reconvergence + "')");
  options.reference.reconvergence =
      reconvergence == "its" ? func::Reconvergence::Its : func::Reconvergence::Stack;
  if (vm.count("vcd")) options.vcd_path = vm["vcd"].as<std::string>();
  options.keep_outputs = vm.count("dump-outputs");
  const app::FunctionalRun run = app::run_functional(w, options);
  app::print_summary(std::cout, run);
  if (vm.count("stats"))
    write_file(vm["stats"].as<std::string>(), app::stats_text(app::to_json(run)), "statistics");
  if (!options.vcd_path.empty())
    std::cout << "waves               " << options.vcd_path << " (GTKWave save file next to it)\n";
  dump_outputs(vm, w, {"functional", nullptr}, run.outputs, run.verify, !run.stopped_by.empty());
  if (!run.stopped_by.empty()) return app::interrupted_exit_code(app::stop_signal());
  return run.verify.failed() ? kExitVerifyFailed : kExitOk;
}

int cmd_predict(const std::vector<std::string>& args) {
  po::options_description opts("gputlm predict options");
  opts.add_options()("help,h", "show this help")(
      "config", po::value<std::string>(),
      "GPU config whose constants the model uses (its \"analytical\" section or derived)")(
      "workload", po::value<std::string>(), "workload directory, e.g. traces/hongkim/mb2_c")(
      "size", po::value<std::string>()->default_value("test"),
      "workload size from its launch.json")("stats", po::value<std::string>(),
                                            "also write the predictions as JSON to this file");
  const po::variables_map vm = app::parse_options(args, opts, "predict");
  if (vm.count("help")) {
    std::cout << "usage: gputlm predict --config GPU.json --workload DIR [options]\n" << opts;
    return kExitOk;
  }
  if (!vm.count("config") || !vm.count("workload"))
    throw InputError("predict: --config and --workload are required (see gputlm predict --help)");
  if (vm.count("stats")) app::check_writable(vm["stats"].as<std::string>(), "--stats");
  const gpu::GpuSpec spec = gpu::GpuSpec::from_file(vm["config"].as<std::string>());
  workload::Workload w(vm["workload"].as<std::string>(), vm["size"].as<std::string>());
  const app::PredictRun run = app::predict_workload(w, spec);
  app::print_predict(std::cout, run);
  if (vm.count("stats"))
    write_file(vm["stats"].as<std::string>(), app::stats_text(app::to_json(run)), "statistics");
  return run.verify.failed() ? kExitVerifyFailed : kExitOk;
}

std::string read_text(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) throw InputError(path + ": cannot read");
  return text;
}

// gputlm trace record: the workload's launches on the functional engine, written as a trace. The
// trace goes to <out>.part first and takes its name only when complete.
int cmd_trace(const std::vector<std::string>& args) {
  po::options_description opts("gputlm trace record options");
  opts.add_options()("help,h", "show this help")(
      "config", po::value<std::string>(), "GPU config (checked; a trace does not depend on it)")(
      "workload", po::value<std::string>(), "workload directory, e.g. traces/micro/vecadd")(
      "size", po::value<std::string>()->default_value("test"),
      "workload size from its launch.json")("out", po::value<std::string>(),
                                            "the trace file to write")(
      "compress", po::value<std::string>(),
      "none or gzip (default: gzip when --out ends in .gz); readers detect it")(
      "max-warp-instructions", po::value<uint64_t>()->default_value(2'000'000'000ull),
      "watchdog: fault a workload that executes more warp instructions than this");
  auto usage = [&](int code) {
    std::cout << "usage: gputlm trace record --workload DIR --out FILE [options]\n" << opts;
    return code;
  };
  if (args.empty()) return usage(kExitInputError);
  if (args[0] == "--help" || args[0] == "-h") return usage(kExitOk);
  if (args[0] != "record")
    throw InputError("trace: unknown action '" + args[0] + "'" + did_you_mean(args[0], {"record"}) +
                     " (record)");
  const po::variables_map v = app::parse_options(
      std::vector<std::string>(args.begin() + 1, args.end()), opts, "trace record");
  if (v.count("help")) return usage(kExitOk);
  if (!v.count("workload") || !v.count("out"))
    throw InputError("trace record: --workload and --out are required (see gputlm trace --help)");
  app::check_writable(v["out"].as<std::string>(), "the trace");
  if (v.count("config")) gpu::GpuSpec::from_file(v["config"].as<std::string>());
  workload::Workload w(v["workload"].as<std::string>(), v["size"].as<std::string>());
  const std::string out = v["out"].as<std::string>(), part = out + ".part";
  const bool gz_name = out.size() > 3 && out.compare(out.size() - 3, 3, ".gz") == 0;
  const std::string compress = v.count("compress") ? v["compress"].as<std::string>()
                               : gz_name           ? "gzip"
                                                   : "none";
  if (compress != "none" && compress != "gzip")
    throw InputError("trace record: --compress must be none or gzip (is '" + compress + "')");
  trace::RecordSummary summary;
  try {
    auto file = trace::create_trace(
        part, compress == "gzip" ? trace::Compression::Gzip : trace::Compression::None);
    summary = trace::record(w, read_text(v["workload"].as<std::string>() + "/kernel.ptx"), *file,
                            v["max-warp-instructions"].as<uint64_t>(), app::stop_requested);
    trace::finish_trace(std::move(file), out);
  } catch (...) {
    std::remove(part.c_str());
    throw;
  }
  if (summary.stopped) {
    std::remove(part.c_str());
    std::cout << "STOPPED by " << app::signal_name(app::stop_signal()) << ": no trace written ("
              << summary.warp_instructions << " warp instructions recorded before the stop)\n";
    return app::interrupted_exit_code(app::stop_signal());
  }
  if (std::rename(part.c_str(), out.c_str()) != 0)
    throw InputError(out + ": cannot write the trace");
  std::cout << "trace               " << out << ": " << summary.launches << " launch(es), "
            << summary.warp_instructions << " warp instructions\n";
  app::print_verify(std::cout, summary.verify);
  return summary.verify.failed() ? kExitVerifyFailed : kExitOk;
}

// gputlm ptx check FILE...: per kernel ok or its error, and the counts; exit 0 when every kernel
// found was bound, 2 otherwise.
int cmd_ptx(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] != "check" ||
      args.size() < 2) {
    std::cout
        << "usage: gputlm ptx check FILE...\n"
           "  parses every kernel (.entry) of each PTX file with the device functions it calls, "
           "binds it\n"
           "  to the functional engine, and prints per kernel ok or the error, then the counts\n";
    return !args.empty() && (args[0] == "--help" || args[0] == "-h") ? kExitOk : kExitInputError;
  }
  const app::PtxCheckCounts n =
      app::check_ptx_files(std::vector<std::string>(args.begin() + 1, args.end()), std::cout);
  std::cout << "kernels: found " << n.found << ", parsed " << n.parsed << ", bound " << n.bound
            << "\n";
  return n.bound == n.found ? kExitOk : kExitInputError;
}

}  // namespace

int sc_main(int argc, char** argv) {
  app::prefer_huge_pages();
  app::install_stop_handlers();
  app::route_systemc_reports();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? kExitInputError : kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "gputlm " << git_version() << "\n";
    return kExitOk;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "run") return cmd_run(args);
    if (command == "list") return cmd_list(args, argv[0]);
    if (command == "predict") return cmd_predict(args);
    if (command == "trace") return cmd_trace(args);
    if (command == "cuda") return cmd_cuda(args, argv[0]);
    if (command == "ptx") return cmd_ptx(args);
    if (command == "sweep") return cmd_sweep(args, git_version());
    if (command == "validate") return cmd_validate(args, argv[0], git_version());
    std::cerr << "gputlm: unknown command '" << command << "'"
              << did_you_mean(command, {"run", "predict", "list", "trace", "cuda", "ptx", "sweep",
                                        "validate"})
              << "\n"
              << kUsage;
    return kExitInputError;
  } catch (const func::KernelFault& e) {
    std::cerr << "gputlm: " << e.what() << "\n";
    return kExitKernelFault;
  } catch (const po::error& e) {
    std::cerr << "gputlm " << command << ": " << e.what() << "\n";
    return kExitInputError;
  } catch (const InputError& e) {
    std::cerr << "gputlm: " << e.what() << "\n";
    return kExitInputError;
  } catch (const std::runtime_error& e) {  // a timing run that stopped making progress
    std::cerr << "gputlm: " << e.what() << "\n";
    return kExitKernelFault;
  }
}

// SystemC prints its banner when its kernel starts, before sc_main; gputlm keeps its output clean
// by providing main() itself (instead of libsystemc's) and quieting the banner first.
int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
