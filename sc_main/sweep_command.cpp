#include "sc_main/sweep_command.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include <boost/program_options.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "app/cli_support.h"
#include "app/interrupt.h"
#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/common/text_file.h"
#include "sc_main/sweep_report.h"
#include "sc_main/sweep_slurm.h"
#include "sweep/collect.h"
#include "sweep/local_pool.h"
#include "sweep/run_identity.h"
#include "sweep/run_launcher.h"
#include "sweep/slurm_backend.h"
#include "sweep/subprocess.h"
#include "sweep/sweep_plan.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace gputlm::sweep;

namespace gputlm {

namespace {

std::string absolute(const std::string& p) { return fs::absolute(p).lexically_normal().string(); }

// One run in this process's care: spawned, waited for (a stop signal is passed on), recorded;
// nothing to do when it is done already.
bool run_single(const RunStore& store, const std::string& id, const std::string& exe,
                const std::string& version) {
  if (store.done(id)) {  // a resubmitted array task, or a run done meanwhile: never run twice
    std::cout << "run " << id << ": ok (done before)\n";
    return true;
  }
  const RunningRun run = start_run(store, id, exe);
  int status = 0;
  bool signalled = false;
  while (waitpid(run.pid, &status, 0) < 0) {
    if (errno != EINTR)
      throw InputError("sweep: waiting for run " + id + " failed (" + std::strerror(errno) + ")");
    if (app::stop_requested() && !signalled) kill(run.pid, app::stop_signal()), signalled = true;
  }
  const nlohmann::ordered_json r = finish_run(store, run, status, version);
  std::cout << "run " << id << ": " << r["status"].get<std::string>() << " (" << outcome(r) << ", "
            << std::fixed << std::setprecision(1) << r["host_seconds"].get<double>() << " s)\n";
  return r["status"] == "ok";
}

// --task-file FILE --task I: the run ids on line I (0-based) of FILE, one after another.
std::vector<std::string> task_ids(const std::string& file, size_t task) {
  std::ifstream in(file);
  if (!in) throw InputError(file + ": cannot read the task file");
  std::string line;
  for (size_t i = 0; i <= task; ++i)
    if (!std::getline(in, line))
      throw InputError(file + ": no line " + std::to_string(task) + " (tasks count from 0)");
  std::istringstream words(line);
  std::vector<std::string> ids;
  for (std::string id; words >> id;) ids.push_back(id);
  return ids;
}

nlohmann::ordered_json read_manifest(const RunStore& store) {
  std::string text;
  if (!read_text_file(store.out() + "/manifest.json", text))
    throw InputError(store.out() +
                     "/manifest.json: cannot read (run the sweep, or --dry-run, first)");
  const nlohmann::ordered_json m = nlohmann::ordered_json::parse(text, nullptr, false);
  if (!m.is_object() || !m.contains("runs"))
    throw InputError(store.out() + "/manifest.json: not a sweep manifest");
  return m;
}

// One local sweep at a time in a directory (a second would run the same runs): an exclusive lock
// on DIR/.lock, held until this process ends (the descriptor is not passed to the runs).
void lock_output(const RunStore& store) {
  const std::string path = store.out() + "/.lock";
  const int fd = open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0)
    throw InputError(store.out() + ": another gputlm sweep is running in this directory (" + path +
                     " is locked)");
}

// --dry-run: each run with done or missing, then the counts.
int dry_run(const SweepSpec& spec, const RunStore& store, const nlohmann::ordered_json& runs) {
  size_t done = 0;
  for (const auto& run : runs) {
    const bool ok = store.done(run["id"]);
    done += ok;
    std::cout << run["id"].get<std::string>().substr(0, 12) << "  " << (ok ? "done   " : "missing")
              << "  " << run_label(run) << "\n";
  }
  std::cout << "sweep " << spec.name << ": " << runs.size() << " runs, " << done << " done, "
            << runs.size() - done << " to run (output " << store.out() << ")\n";
  return kExitOk;
}

void write_manifest(const SweepSpec& spec, const std::string& spec_path, const std::string& version,
                    const RunStore& store, const nlohmann::ordered_json& runs) {
  nlohmann::ordered_json manifest;
  manifest["name"] = spec.name;
  manifest["spec"] = absolute(spec_path);
  manifest["gputlm_version"] = version;
  manifest["axis_keys"] = spec.axis_keys();
  manifest["runs"] = runs;
  write_atomically(store.out() + "/manifest.json", manifest.dump(1) + "\n");
}

// The local backend: the missing runs in a pool, then the tables, the failures and the summary.
int run_locally(const SweepSpec& spec, const RunStore& store, const nlohmann::ordered_json& runs,
                const std::vector<std::string>& missing, const PoolOptions& options, double start) {
  const size_t cached = runs.size() - missing.size();
  std::cout << "sweep " << spec.name << ": " << runs.size() << " runs, " << cached << " cached, "
            << missing.size() << " to run on " << options.jobs << " job(s)\n"
            << std::flush;
  const PoolSummary s =
      run_pool(store, missing, options, options.terminal ? std::cerr : std::cout, run_labels(runs));
  const CollectCounts c = collect(store, runs, spec.axis_keys());
  print_failures(store, runs);
  std::cout << "sweep " << spec.name << ": " << runs.size() << " runs, " << cached << " cached, "
            << s.ran << " ran, " << c.failed << " failed"
            << (c.missing ? ", " + std::to_string(c.missing) + " not run" : "") << "; wall "
            << std::fixed << std::setprecision(1) << now_seconds() - start << " s, runs' host time "
            << s.run_seconds << " s on " << options.jobs << " job(s)\n";
  print_collected(store, c);
  if (s.stopped_by) {
    std::cout << "STOPPED by " << app::signal_name(s.stopped_by)
              << ": finished results kept; run the sweep again to do the rest\n";
    return app::interrupted_exit_code(s.stopped_by);
  }
  return c.failed || c.missing ? kExitVerifyFailed : kExitOk;
}

// The flags of --backend slurm (docs/user-guide/sweeps-and-slurm.md "Sweeps on Slurm").
constexpr const char* kSlurmFlags[] = {"partition",     "time",       "mem",     "throttle",
                                       "runs-per-task", "sbatch-arg", "no-wait", "poll-seconds"};

// The spec's "slurm" object with the command line's flags over it.
SlurmOptions slurm_options(const po::variables_map& vm, SlurmOptions o) {
  if (vm.count("partition")) o.partition = vm["partition"].as<std::string>();
  if (vm.count("time")) o.time = vm["time"].as<std::string>();
  if (vm.count("mem")) o.mem = vm["mem"].as<std::string>();
  if (vm.count("throttle")) o.throttle = vm["throttle"].as<size_t>();
  if (vm.count("runs-per-task")) o.runs_per_task = vm["runs-per-task"].as<size_t>();
  if (vm.count("sbatch-arg")) o.sbatch_args = vm["sbatch-arg"].as<std::vector<std::string>>();
  if (vm.count("poll-seconds")) o.poll_seconds = vm["poll-seconds"].as<double>();
  if (o.runs_per_task == 0) throw InputError("sweep: --runs-per-task must be at least 1");
  if (!(o.poll_seconds > 0)) throw InputError("sweep: --poll-seconds must be more than 0");
  return o;
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args, const std::string& version) {
  po::options_description opts("gputlm sweep options");
  opts.add_options()("help,h", "show this help")("spec", po::value<std::string>(),
                                                 "the sweep spec (JSON; README, \"Sweeps\")")(
      "out", po::value<std::string>(), "output directory (default: sweeps/<spec name>)")(
      "jobs", po::value<size_t>(), "runs at once (default: the machine's cores)")(
      "size", po::value<std::string>(),
      "run every workload at this size instead of the spec's \"sizes\" (e.g. test: a quick check "
      "of a study's spec)")("backend", po::value<std::string>()->default_value("local"),
                            "where the runs go: local, or slurm (one job array)")(
      "dry-run", "list the runs (done or missing) and the counts; run nothing")(
      "print-jobs", "print one shell command per missing run (for GNU parallel); run nothing")(
      "collect",
      "only rewrite sweep.csv, sweep.jsonl and failures.csv from the results in the output "
      "directory")("fresh", "run every run again, ignoring earlier results")(
      "run", po::value<std::string>(),
      "internal: do the one prepared run ID and record its result")(
      "task-file", po::value<std::string>(),
      "internal: with --task I, do the run ids on line I of this file")(
      "task", po::value<size_t>(), "internal: the 0-based line of --task-file")(
      "partition", po::value<std::string>(), "slurm: the partition (spec: slurm.partition)")(
      "time", po::value<std::string>(),
      "slurm: time limit of an array task, Slurm's format (slurm.time)")(
      "mem", po::value<std::string>(), "slurm: memory of an array task, e.g. 2G (slurm.mem)")(
      "throttle", po::value<size_t>(),
      "slurm: at most N array tasks at once, the array's %N (slurm.throttle)")(
      "runs-per-task", po::value<size_t>(),
      "slurm: runs an array task does in turn, default 1 (slurm.runs_per_task)")(
      "sbatch-arg", po::value<std::vector<std::string>>()->composing(),
      "slurm: one more sbatch option, as --sbatch-arg=--account=x; repeatable (slurm.sbatch_args)")(
      "no-wait", "slurm: submit, print the job and how to collect, and exit")(
      "poll-seconds", po::value<double>(),
      "slurm: how often to ask squeue while waiting, default 5 (slurm.poll_seconds)");
  po::positional_options_description positional;
  positional.add("spec", 1);
  const po::variables_map vm = app::parse_options(args, opts, "sweep", &positional);
  if (vm.count("help")) {
    std::cout << "usage: gputlm sweep SPEC.json [--out DIR] [--size S] [--jobs N] [--dry-run | "
                 "--print-jobs | --collect] [--fresh]\n"
                 "       gputlm sweep SPEC.json --backend slurm [--partition P] [--time T] [--mem "
                 "M] [--throttle N]\n"
                 "                    [--runs-per-task K] [--sbatch-arg=ARG ...] [--no-wait | "
                 "--collect]  (one job array)\n"
                 "       gputlm sweep SPEC.json --out DIR --run ID                 (one run; what "
                 "--print-jobs prints)\n"
                 "       gputlm sweep SPEC.json --out DIR --task-file FILE --task I  (the ids on "
                 "line I of FILE)\n"
              << opts;
    return kExitOk;
  }
  if (!vm.count("spec"))
    throw InputError(
        "sweep: give the sweep spec (gputlm sweep SPEC.json; see gputlm sweep --help)");
  const std::string backend = vm["backend"].as<std::string>();
  if (backend != "local" && backend != "slurm")
    throw InputError("sweep: --backend '" + backend + "' is not available" +
                     did_you_mean(backend, {"local", "slurm"}) + " (local, slurm)");
  for (const char* f : kSlurmFlags)
    if (backend != "slurm" && vm.count(f))
      throw InputError("sweep: --" + std::string(f) + " is for --backend slurm");
  if (vm.count("task-file") != vm.count("task"))
    throw InputError("sweep: --task-file and --task go together");
  int modes = 0;
  for (const char* m : {"dry-run", "print-jobs", "collect", "run", "task-file"})
    modes += static_cast<int>(vm.count(m));
  if (modes > 1)
    throw InputError(
        "sweep: give at most one of --dry-run, --print-jobs, --collect, --run, --task-file");
  if (vm.count("jobs") && vm["jobs"].as<size_t>() == 0)
    throw InputError("sweep: --jobs must be at least 1");

  const std::string spec_path = vm["spec"].as<std::string>();
  SweepSpec spec = SweepSpec::from_file(spec_path);
  if (vm.count("size")) {
    if (vm["size"].as<std::string>().empty())
      throw InputError("sweep: --size needs a size name (test, study, ...)");
    spec.sizes = {vm["size"].as<std::string>()};
  }
  const RunStore store(
      absolute(vm.count("out") ? vm["out"].as<std::string>() : "sweeps/" + spec.name));
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  app::install_interrupting_stop_handlers();
  std::optional<SlurmBackend> slurm;
  if (backend == "slurm")
    slurm.emplace(store, SlurmSweep{spec.name, absolute(spec_path), exe,
                                    slurm_options(vm, spec.slurm), isatty(2) != 0});

  if (vm.count("run")) {
    const bool ok = run_single(store, vm["run"].as<std::string>(), exe, version);
    return app::stop_requested() ? app::interrupted_exit_code(app::stop_signal())
           : ok                  ? kExitOk
                                 : kExitVerifyFailed;
  }
  if (vm.count("task-file")) {
    bool all_ok = true;
    for (const std::string& id :
         task_ids(vm["task-file"].as<std::string>(), vm["task"].as<size_t>())) {
      if (app::stop_requested()) break;
      all_ok &= run_single(store, id, exe, version);
    }
    if (app::stop_requested()) return app::interrupted_exit_code(app::stop_signal());
    return all_ok ? kExitOk : kExitVerifyFailed;
  }
  if (vm.count("collect")) {
    const nlohmann::ordered_json manifest = read_manifest(store);
    const CollectCounts c =
        collect(store, manifest["runs"], manifest["axis_keys"].get<std::vector<std::string>>());
    if (slurm) report_latest_submission(*slurm, store.out(), manifest["runs"]);
    print_collected(store, c);
    return kExitOk;
  }

  const double start = now_seconds();
  const std::vector<SweepRun> runs = expand(spec, hash_executable());
  nlohmann::ordered_json described = nlohmann::ordered_json::array();
  for (const SweepRun& r : runs) described.push_back(r.describe());
  if (vm.count("dry-run")) return dry_run(spec, store, described);
  std::error_code ec;
  fs::create_directories(store.out() + "/runs", ec);
  if (ec)
    throw InputError(store.out() + ": cannot make the output directory (" + ec.message() + ")");
  if (!vm.count("print-jobs")) lock_output(store);
  if (slurm && !vm.count("print-jobs")) slurm->refuse_if_queued();
  std::vector<std::string> missing;
  std::map<std::string, const SweepRun*> by_id;
  for (const SweepRun& r : runs) {
    if (vm.count("fresh")) store.forget(r.id);
    if (store.done(r.id)) continue;
    missing.push_back(r.id);
    by_id[r.id] = &r;
  }
  auto prepare = [&](const std::string& id) {
    store.prepare(by_id.at(id)->describe(), by_id.at(id)->config);
  };
  // The local pool writes a run's files just before it starts (beside the runs going on); the
  // other backends hand the runs to runners that read them, so they are all written first.
  if (slurm || vm.count("print-jobs"))
    for (const std::string& id : missing) prepare(id);
  write_manifest(spec, spec_path, version, store, described);
  if (vm.count("print-jobs")) {
    for (const std::string& id : missing)
      std::cout << shell_quoted(exe) << " sweep " << shell_quoted(absolute(spec_path)) << " --out "
                << shell_quoted(store.out()) << " --run " << id << "\n";
    return kExitOk;
  }
  if (slurm) {
    const std::string collect_command = shell_quoted(exe) + " sweep " +
                                        shell_quoted(absolute(spec_path)) + " --out " +
                                        shell_quoted(store.out()) + " --backend slurm --collect";
    return run_on_slurm(spec, *slurm, described, missing, !vm.count("no-wait"), collect_command,
                        start);
  }
  PoolOptions options;
  options.jobs = vm.count("jobs") ? vm["jobs"].as<size_t>()
                                  : std::max(1u, std::thread::hardware_concurrency());
  options.exe = exe;
  options.version = version;
  options.terminal = isatty(2);
  options.prepare = prepare;
  return run_locally(spec, store, described, missing, options, start);
}

}  // namespace gputlm
