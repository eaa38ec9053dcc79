#include "sc_main/validate_command.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/cli_support.h"
#include "app/hw_counters.h"
#include "app/scatter_svg.h"
#include "app/validate_manifest.h"
#include "app/validate_report.h"
#include "app/validate_stats.h"
#include "models/common/error.h"
#include "models/gpu/gpu_spec.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace gputlm {

namespace {

// Runs `argv` in `dir` with stdout and stderr into `log`; its exit status (128 + the signal when
// a signal ended it, 127 when it could not start).
int run_logged(const std::vector<std::string>& argv, const fs::path& dir, const fs::path& log) {
  std::vector<char*> c_argv;
  for (const std::string& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  std::cout.flush();
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0)
    throw InputError(std::string("validate: cannot start a process: ") + strerror(errno));
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // ends with gputlm
    if (getppid() != parent) _exit(127);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0) _exit(127);
    dup2(null, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    if (chdir(dir.c_str()) != 0) {
      dprintf(2, "gputlm validate: cannot enter %s: %s\n", dir.c_str(), strerror(errno));
      _exit(127);
    }
    execv(c_argv[0], c_argv.data());
    dprintf(2, "gputlm validate: cannot run %s: %s\n", c_argv[0], strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw InputError(std::string("validate: waiting: ") + strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The first line of `log` that says "error" (any case), else its last non-empty line.
std::string first_error_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    std::string lower = line;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("error") != std::string::npos) return line;
    if (line.find_first_not_of(" \t") != std::string::npos) last = line;
  }
  return last;
}

// nvcc: /usr/local/cuda/bin/nvcc, else the first on PATH; empty when there is none.
std::string find_nvcc() {
  std::error_code ec;
  if (fs::exists("/usr/local/cuda/bin/nvcc", ec)) return "/usr/local/cuda/bin/nvcc";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((fs::path(dir) / "nvcc").c_str(), X_OK) == 0)
      return (fs::path(dir) / "nvcc").string();
  return "";
}

app::SectorScale sector_scale(const gpu::GpuSpec& spec) {
  app::SectorScale s;
  s.l1d = spec.core.l1d.line_bytes / 32.0;
  if (spec.core.l1d.sectored()) s.l1d_sector = spec.core.l1d.sector_bytes / 32.0;
  if (spec.l2) s.l2 = spec.l2->line_bytes / 32.0;
  if (spec.l2 && spec.l2->sectored()) s.l2_sector = spec.l2->sector_bytes / 32.0;
  // DRAM requests are the fills and write-backs of the level above: a line, or a sector of a
  // sectored level (which fetches and writes back sectors one request each).
  s.dram = spec.l2 ? (s.l2_sector ? s.l2_sector : s.l2) : (s.l1d_sector ? s.l1d_sector : s.l1d);
  return s;
}

std::string quoted(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t'\"\\$`*?") == std::string::npos) return arg;
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

nlohmann::json read_stats(const fs::path& stats) {
  std::ifstream in(stats);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(stats.string() + ": not JSON: " + e.what());
  }
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  if (!(out << text)) throw InputError(path.string() + ": cannot write");
}

}  // namespace

int cmd_validate(const std::vector<std::string>& args, const char* argv0,
                 const std::string& commit) {
  po::options_description opts("gputlm validate options");
  opts.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                 "GPU config the programs run on")(
      "hw", po::value<std::string>(),
      "hardware CSV: Benchmark, Kernel, Elapsed_Cycles and counters per kernel (AccelWattch's "
      "hw_perf.csv layout)")("programs", po::value<std::string>(),
                             "manifest: a JSON list of programs (name, sources, nvcc_flags, "
                             "args, workdir)")(
      "root", po::value<std::string>(),
      "folder the manifest's paths are relative to and nvcc runs in (default: the manifest's)")(
      "out", po::value<std::string>(),
      "output folder: validate.csv, validate.md, scatter.svg; build/, stats/, logs/")(
      "time-limit", po::value<double>(),
      "gputlm cuda --time-limit for each program (seconds); a program it stops is a failure, "
      "and its kernels with a complete launch are still compared")(
      "timed-launches", po::value<uint64_t>(),
      "gputlm cuda --timed-launches for each program: time the first N launches of each kernel, "
      "run the rest on the functional engine (the tables count them apart)")(
      "cache-control", po::value<std::string>(),
      "gputlm cuda --cache-control for each program: 'all' empties the caches before each timed "
      "launch, as Nsight Compute does by default before each kernel it measures (give it when "
      "the CSV was measured so); 'none' (the default) keeps them")(
      "reuse-stats",
      "a program whose stats/<name>.json is in --out already (of this config) is not built or "
      "run again: its statistics are compared as they are (to resume a long validation, or join "
      "parts run apart)");
  const po::variables_map vm = app::parse_options(args, opts, "validate");
  if (vm.count("help")) {
    std::cout << "usage: gputlm validate --config GPU.json --hw HW.csv --programs MANIFEST.json "
                 "[--root DIR] --out DIR\n"
              << opts;
    return kExitOk;
  }
  for (const char* key : {"config", "hw", "programs", "out"})
    if (!vm.count(key))
      throw InputError(std::string("validate: --") + key +
                       " is required (see gputlm validate --help)");
  if (vm.count("cache-control"))
    app::cache_control_flushes(vm["cache-control"].as<std::string>(), "validate: --cache-control");
  const fs::path config = fs::absolute(vm["config"].as<std::string>());
  const gpu::GpuSpec spec = gpu::GpuSpec::from_file(config.string());
  const app::SectorScale scale = sector_scale(spec);
  const std::vector<app::HwKernel> hw = app::read_hw_csv(vm["hw"].as<std::string>());
  const std::string manifest = vm["programs"].as<std::string>();
  const std::vector<app::ValidateProgram> programs = app::read_manifest(manifest);
  const fs::path root = fs::absolute(vm.count("root") ? fs::path(vm["root"].as<std::string>())
                                                      : fs::path(manifest).parent_path())
                            .lexically_normal();
  if (!fs::is_directory(root))
    throw InputError("validate: --root " + root.string() + " is not a folder");
  const fs::path out = fs::absolute(vm["out"].as<std::string>());
  std::error_code ec;
  for (const char* sub : {"build", "stats", "logs"}) fs::create_directories(out / sub, ec);
  if (ec) throw InputError(out.string() + ": cannot make the output folder (" + ec.message() + ")");
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw InputError("validate: cannot find gputlm's own executable (/proc/self/exe)");
  const std::string nvcc = find_nvcc();

  app::ValidateReport report;
  report.commit = commit;
  report.command = argv0 + std::string(" validate");
  for (const std::string& a : args) report.command += " " + quoted(a);
  for (const app::ValidateProgram& p : programs) {
    app::ProgramOutcome o;
    o.name = p.name;
    const fs::path exe = out / "build" / p.name, stats = out / "stats" / (p.name + ".json");
    std::optional<nlohmann::json> j;  // the program's statistics, read once
    // Its kernels are compared when it ran to the end or to its time limit.
    auto compare = [&] {
      if (j && (o.status == "ok" || o.status == app::kTimeLimit))
        o.matching =
            app::match_kernels(p.name, app::average_launches(*j, scale, stats.string()), hw);
      report.programs.push_back(std::move(o));
    };
    if (vm.count("reuse-stats") && fs::exists(stats, ec)) {
      j = read_stats(stats);
      const std::string hash = j->contains("config") ? (*j)["config"].value("hash", "") : "";
      if (hash != spec.hash)
        throw InputError(stats.string() + ": made with config hash '" + hash + "', not --config " +
                         config.filename().string() + "'s " + spec.hash +
                         " (run it again: leave out --reuse-stats or remove the file)");
      o.log = "logs/" + p.name + ".run.log";
      if (!j->value("complete", true)) {
        o.status = app::kTimeLimit;
        o.first_error = j->value("stopped_by", "");
      }
      std::cout << "program             " << p.name << ": statistics reused" << std::endl;
      compare();
      continue;
    }
    o.log = "logs/" + p.name + ".build.log";
    std::vector<std::string> build = {nvcc, "-cudart", "shared", "-arch=sm_75"};
    build.insert(build.end(), p.nvcc_flags.begin(), p.nvcc_flags.end());
    build.insert(build.end(), p.sources.begin(), p.sources.end());
    build.insert(build.end(), {"-o", exe.string()});
    fs::remove(exe, ec);
    fs::remove(stats, ec);
    std::cout << "program             " << p.name << ": building" << std::endl;
    if (nvcc.empty()) {
      write_text(out / o.log, "nvcc not found (/usr/local/cuda/bin/nvcc or PATH)\n");
      o.status = "build failed";
    } else if (const int rc = run_logged(build, root, out / o.log); rc != 0) {
      o.status = "build failed";
    } else {
      o.log = "logs/" + p.name + ".run.log";
      std::vector<std::string> run = {self.string(),   "cuda",    "--config",
                                      config.string(), "--stats", stats.string()};
      if (vm.count("time-limit"))
        run.insert(run.end(), {"--time-limit", std::to_string(vm["time-limit"].as<double>())});
      if (vm.count("timed-launches"))
        run.insert(run.end(),
                   {"--timed-launches", std::to_string(vm["timed-launches"].as<uint64_t>())});
      if (vm.count("cache-control"))
        run.insert(run.end(), {"--cache-control", vm["cache-control"].as<std::string>()});
      run.insert(run.end(), {"--", exe.string()});
      run.insert(run.end(), p.args.begin(), p.args.end());
      std::cout << "program             " << p.name << ": running" << std::endl;
      const int run_rc = run_logged(run, root / p.workdir, out / o.log);
      if (fs::exists(stats, ec)) j = read_stats(stats);
      if (run_rc != 0 || !j) {
        o.status =
            run_rc == kExitInputError && j && !j->value("complete", true) && vm.count("time-limit")
                ? app::kTimeLimit
                : "run failed";
        o.first_error = " (exit status " + std::to_string(run_rc) + ")";
      }
    }
    if (o.status != "ok") {
      o.first_error = first_error_line(out / o.log) + o.first_error;
      std::cout << "program             " << p.name << ": " << o.status << ": " << o.first_error
                << std::endl;
    }
    compare();
  }

  write_text(out / "validate.csv", app::validate_csv(report));
  write_text(out / "validate.md", app::validate_markdown(report));
  app::ScatterPlot plot;
  const std::vector<app::Comparison> all = report.compared();
  plot.title = "simulated vs measured cycles: " + std::to_string(all.size()) + " kernels, " +
               app::agreement_text(app::cycles_agreement(all));
  plot.x_label = "measured cycles (hardware)";
  plot.y_label = "simulated cycles (" + config.stem().string() + ")";
  for (const app::Comparison& c : all)
    plot.points.push_back({c.hw_cycles, c.sim_cycles, c.program + ": " + c.demangled});
  write_text(out / "scatter.svg", app::scatter_svg(plot));
  const fs::path shown = vm["out"].as<std::string>();  // as given
  std::cout << app::validate_summary(report) << "results             "
            << (shown / "validate.md").string() << ", validate.csv, scatter.svg\n";
  return report.failures() ? 1 : kExitOk;
}

}  // namespace gputlm
