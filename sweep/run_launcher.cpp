#include "sweep/run_launcher.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>

#include "models/common/error.h"
#include "sweep/collect.h"
#include "sweep/sweep_spec.h"

extern char** environ;

namespace gputlm::sweep {

namespace {
constexpr size_t kTailLines = 20;
}  // namespace

std::vector<std::string> last_lines(const std::string& path, size_t n) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
    if (lines.size() > n) lines.pop_front();
  }
  return {lines.begin(), lines.end()};
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

RunningRun start_run(const RunStore& store, const std::string& id, const std::string& exe) {
  const nlohmann::ordered_json job = store.job(id);
  RunningRun run;
  run.id = id;
  const RunOptions options = RunOptions::from_job(job);
  run.command = {exe, options.command, "--config", store.file(id, "config.json")};
  if (job.contains("trace")) {
    run.command.insert(run.command.end(), {"--trace", job["trace"].get<std::string>()});
  } else {
    run.command.insert(run.command.end(), {"--workload", job.at("workload_dir").get<std::string>(),
                                           "--size", job.at("size").get<std::string>()});
  }
  run.command.insert(run.command.end(), {"--stats", store.file(id, "stats.json.part")});
  if (options.dram_trace)
    run.command.insert(run.command.end(), {"--dram-trace", store.file(id, "dram.csv.part")});
  if (options.sample)
    run.command.insert(run.command.end(), {"--sample", std::to_string(options.sample)});
  if (options.command == "run") {  // the run writes its own rows of the sweep's tables
    run.command.insert(run.command.end(), {"--csv", store.file(id, "rows.csv.part"), "--jsonl",
                                           store.file(id, "rows.jsonl.part"), "--rows-lead",
                                           lead_columns(job, axis_keys_of(job)).dump()});
  }
  store.forget(id);
  const std::string log = store.file(id, "log.txt.part");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> argv;
  for (std::string& a : run.command) argv.push_back(a.data());
  argv.push_back(nullptr);
  run.started = now_seconds();
  const int err = posix_spawn(&run.pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw InputError("sweep: cannot start '" + exe + "' for run " + id + ": " + std::strerror(err));
  return run;
}

nlohmann::ordered_json finish_run(const RunStore& store, const RunningRun& run, int wait_status,
                                  const std::string& version) {
  const double seconds = (run.ended > 0 ? run.ended : now_seconds()) - run.started;
  const nlohmann::ordered_json job = store.job(run.id);
  const std::string stats_part = store.file(run.id, "stats.json.part"),
                    log_part = store.file(run.id, "log.txt.part");
  std::error_code ec;
  const bool exited = WIFEXITED(wait_status);
  const bool ok =
      exited && WEXITSTATUS(wait_status) == 0 && std::filesystem::is_regular_file(stats_part, ec);
  // Stopped by SIGINT or SIGTERM (gputlm's exit 130/143, or killed by one): not a failure of the
  // run, which is run again next time like a missing one.
  const int code = exited ? WEXITSTATUS(wait_status) : 0,
            signal = exited ? 0 : WTERMSIG(wait_status);
  const bool stopped =
      code == 128 + SIGINT || code == 128 + SIGTERM || signal == SIGINT || signal == SIGTERM;
  nlohmann::ordered_json r;
  r["id"] = run.id;
  r["status"] = ok ? "ok" : stopped ? "stopped" : "failed";
  if (exited)
    r["exit_code"] = WEXITSTATUS(wait_status);
  else
    r["signal"] = WTERMSIG(wait_status);
  r["tail"] = last_lines(log_part, kTailLines);
  r["host_seconds"] = seconds;
  r["command"] = run.command;
  r["config"] = job.value("config", "");
  r["workload"] = job.value("workload", "");
  r["size"] = job.value("size", "");
  r["axes"] = job.value("axes", nlohmann::ordered_json::object());
  r["gputlm_version"] = version;
  std::rename(log_part.c_str(), store.file(run.id, "log.txt").c_str());
  if (ok && std::rename(stats_part.c_str(), store.file(run.id, "stats.json").c_str()) != 0)
    throw InputError(store.file(run.id, "stats.json") + ": cannot write (" + std::strerror(errno) +
                     ")");
  if (!ok) std::remove(stats_part.c_str());
  for (const char* name :
       {"dram.csv", "rows.csv", "rows.jsonl"}) {  // beside the statistics, or none
    const std::string part = store.file(run.id, (std::string(name) + ".part").c_str()),
                      file = store.file(run.id, name);
    std::error_code exists_ec;
    if (ok && std::filesystem::exists(part, exists_ec) &&
        std::rename(part.c_str(), file.c_str()) != 0)
      throw InputError(file + ": cannot write (" + std::strerror(errno) + ")");
    if (!ok) std::remove(part.c_str()), std::remove(file.c_str());
  }
  write_atomically(store.file(run.id, "result.json"), r.dump(2) + "\n");
  return r;
}

std::string outcome(const nlohmann::json& result) {
  if (result.contains("signal")) {
    const int s = result["signal"].get<int>();
    return "signal " + std::to_string(s) +
           (strsignal(s) ? std::string(" (") + strsignal(s) + ")" : "");
  }
  return "exit " + (result.contains("exit_code") ? result["exit_code"].dump() : std::string("?"));
}

}  // namespace gputlm::sweep
