#include "sc_main/cuda_command.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "app/cli_support.h"
#include "app/interrupt.h"
#include "models/common/error.h"
#include "models/gpu/gpu_spec.h"
#include "runtime/program_run.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace gputlm {

namespace {

pid_t g_child = 0;  // the program, for the SIGTERM handler (a signal handler has no other way in)

void forward_signal(int signal) {
  if (g_child > 0) kill(g_child, signal);
}

// build/bin/gputlm -> build/lib/cudart (where runtime/CMakeLists.txt puts the library).
std::string library_dir(const char* argv0) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) self = fs::absolute(argv0);
  const fs::path dir = self.parent_path().parent_path() / "lib" / "cudart";
  if (!fs::exists(dir / "libcudart.so.13", ec))
    throw InputError("cuda: gputlm's libcudart.so.13 is not in " + dir.string() +
                     " (build the 'cudart' target)");
  return dir.string();
}

std::string absolute(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

}  // namespace

int cmd_cuda(const std::vector<std::string>& all_args, const char* argv0) {
  po::options_description opts("gputlm cuda options");
  opts.add_options()("help,h", "show this help")(
      "config", po::value<std::string>(),
      "GPU config the program runs on (device properties and the timing model), e.g. "
      "configs/fermi-gtx480.json")(
      "functional", "run the launches on the functional engine only (no timing model)")(
      "memcheck",
      "make every global access outside an allocation a kernel fault, as compute-sanitizer does "
      "(without it, one that lands in the 2 MB pages the device maps is served, with a warning)")(
      "time-limit", po::value<double>(),
      "stop the run after this many seconds of host time, with the statistics of what ran "
      "(marked incomplete) and exit status 2 naming the launch and the engine's speed")(
      "timed-launches", po::value<uint64_t>(),
      "sampled simulation: time only the first N launches of each kernel (by name) and run its "
      "later ones on the functional engine alone (results still right; the statistics list them "
      "as untimed_launches)")("stats", po::value<std::string>(),
                              "write statistics as JSON to this file (one entry per launch)")(
      "cache-control", po::value<std::string>(),
      "timing runs, as Nsight Compute's option: 'all' empties every cache (L1s, L2) before each "
      "timed launch, so that it starts cold as a kernel ncu measures does (ncu's default); "
      "'none' (the default here) keeps what earlier launches left")(
      "vcd", po::value<std::string>(),
      "write waves to this VCD file (and a GTKWave .gtkw next to it)")(
      "vcd-scope", po::value<std::string>(),
      "timing runs: trace only modules whose name starts with this")(
      "vcd-window", po::value<std::string>(), "timing runs: keep only cycles FROM:TO in the VCD");
  const auto dashes = std::find(all_args.begin(), all_args.end(), "--");
  const std::vector<std::string> args(all_args.begin(), dashes);
  const po::variables_map vm = app::parse_options(args, opts, "cuda");
  if (vm.count("help")) {
    std::cout << "usage: gputlm cuda --config GPU.json [options] -- PROGRAM [ARGS...]\n"
                 "  PROGRAM is built with nvcc -cudart shared (and PTX in its fat binary: nvcc's "
                 "default -arch=sm_75 has it)\n"
              << opts;
    return kExitOk;
  }
  if (dashes == all_args.end() || dashes + 1 == all_args.end())
    throw InputError(
        "cuda: give the program after '--' (gputlm cuda --config C -- ./program args)");
  if (!vm.count("config"))
    throw InputError(
        "cuda: --config is required (the GPU the program runs on; see gputlm cuda --help)");
  if (vm.count("functional"))
    for (const char* timing_only : {"vcd-scope", "vcd-window", "timed-launches", "cache-control"})
      if (vm.count(timing_only))
        throw InputError(std::string("cuda: --") + timing_only +
                         " needs a timing run (no --functional)");
  gpu::GpuSpec::from_file(
      vm["config"].as<std::string>());  // a bad config is an error now, not in the program
  if (vm.count("time-limit") && !(vm["time-limit"].as<double>() > 0))
    throw InputError("cuda: --time-limit must be a positive number of seconds");
  if (vm.count("timed-launches") && vm["timed-launches"].as<uint64_t>() == 0)
    throw InputError(
        "cuda: --timed-launches must be at least 1 (leave it out to time every launch)");
  if (vm.count("cache-control"))
    app::cache_control_flushes(vm["cache-control"].as<std::string>(), "cuda: --cache-control");
  if (vm.count("stats")) app::check_writable(vm["stats"].as<std::string>(), "--stats");
  if (vm.count("vcd")) app::check_writable(vm["vcd"].as<std::string>(), "--vcd", true);
  const std::string lib = library_dir(argv0);

  using O = runtime::ProgramOptions;
  setenv(O::kEnvConfig, absolute(vm["config"].as<std::string>()).c_str(), 1);
  if (vm.count("stats")) setenv(O::kEnvStats, absolute(vm["stats"].as<std::string>()).c_str(), 1);
  if (vm.count("vcd")) setenv(O::kEnvVcd, absolute(vm["vcd"].as<std::string>()).c_str(), 1);
  if (vm.count("vcd-scope")) setenv(O::kEnvVcdScope, vm["vcd-scope"].as<std::string>().c_str(), 1);
  if (vm.count("vcd-window")) {  // checked before the program starts
    uint64_t from = 0, to = 0;
    app::parse_vcd_window(vm["vcd-window"].as<std::string>(), "cuda: --vcd-window", from, to);
    setenv(O::kEnvVcdWindow, vm["vcd-window"].as<std::string>().c_str(), 1);
  }
  setenv(O::kEnvFunctional, vm.count("functional") ? "1" : "0", 1);
  setenv(O::kEnvMemcheck, vm.count("memcheck") ? "1" : "0", 1);
  if (vm.count("time-limit"))
    setenv(O::kEnvTimeLimit, std::to_string(vm["time-limit"].as<double>()).c_str(), 1);
  else
    unsetenv(O::kEnvTimeLimit);
  if (vm.count("timed-launches"))
    setenv(O::kEnvTimedLaunches, std::to_string(vm["timed-launches"].as<uint64_t>()).c_str(), 1);
  else
    unsetenv(O::kEnvTimedLaunches);
  if (vm.count("cache-control"))
    setenv(O::kEnvCacheControl, vm["cache-control"].as<std::string>().c_str(), 1);
  else
    unsetenv(O::kEnvCacheControl);
  const std::vector<std::string> program(dashes + 1, all_args.end());
  setenv(O::kEnvProgram, fs::path(program[0]).filename().c_str(), 1);
  const char* old = std::getenv("LD_LIBRARY_PATH");
  setenv("LD_LIBRARY_PATH", (lib + (old && *old ? ":" + std::string(old) : "")).c_str(), 1);

  std::vector<char*> argv;
  for (const std::string& a : program) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  // Ctrl-C reaches the program from the terminal (same process group): gputlm itself ignores it.
  // SIGTERM sent to gputlm is passed on. Either way the runtime in the program stops the
  // simulation cleanly and writes the statistics so far (docs/user-guide/cuda-programs.md).
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, forward_signal);
  const pid_t parent = getpid();
  g_child = fork();
  if (g_child < 0)
    throw InputError(std::string("cuda: cannot start a process: ") + std::strerror(errno));
  if (g_child == 0) {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    // gputlm killed outright (SIGKILL: a job's time limit, a test's timeout) cannot pass SIGTERM
    // on: the kernel sends it instead, so the program does not run on unwatched.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(kExitInputError);  // gputlm ended before the line above
    execvp(argv[0], argv.data());
    std::cerr << "gputlm cuda: cannot run '" << program[0] << "': " << std::strerror(errno)
              << std::endl;
    _exit(kExitInputError);
  }
  int status = 0;
  while (waitpid(g_child, &status, 0) < 0)
    if (errno != EINTR)
      throw InputError(std::string("cuda: waiting for the program: ") + std::strerror(errno));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  const int signal = WTERMSIG(status);
  std::cerr << "gputlm cuda: the program was killed by "
            << (strsignal(signal) ? strsignal(signal) : "a signal") << "\n";
  return app::interrupted_exit_code(signal);
}

}  // namespace gputlm
