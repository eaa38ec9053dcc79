#include "sweep/local_pool.h"

#include <sys/wait.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>

#include "app/interrupt.h"
#include "models/common/error.h"
#include "sweep/run_launcher.h"

namespace gputlm::sweep {

namespace {

std::string duration(double s) {
  std::ostringstream os;
  if (s >= 3600)
    os << static_cast<int>(s / 3600) << "h" << std::setw(2) << std::setfill('0')
       << static_cast<int>(s / 60) % 60 << "m";
  else if (s >= 60)
    os << static_cast<int>(s / 60) << "m" << std::setw(2) << std::setfill('0')
       << static_cast<int>(s) % 60 << "s";
  else
    os << std::fixed << std::setprecision(1) << s << "s";
  return os.str();
}

}  // namespace

PoolSummary run_pool(const RunStore& store, const std::vector<std::string>& ids,
                     const PoolOptions& options, std::ostream& progress,
                     const std::function<std::string(const std::string&)>& describe) {
  PoolSummary summary;
  std::map<pid_t, RunningRun> running;
  size_t next = 0;
  bool signalled = false;
  const double start = now_seconds();
  auto report = [&](const RunningRun* finished, const nlohmann::ordered_json* result) {
    const size_t done = summary.ran;
    const double elapsed = now_seconds() - start, rate = elapsed > 0 ? done / elapsed : 0;
    const size_t left = ids.size() - done - running.size();
    std::ostringstream line;
    line << "[" << done << "/" << ids.size() << "] ";
    if (options.terminal) {
      line << done << " done, " << running.size() << " running, " << summary.failed << " failed, "
           << left << " left, " << std::fixed << std::setprecision(2) << rate << " runs/s";
      if (rate > 0) line << ", ETA " << duration((left + running.size()) / rate);
      progress << "\r" << line.str() << "\033[K" << std::flush;
    } else if (finished) {
      line << std::left << std::setw(7) << (*result)["status"].get<std::string>() << std::fixed
           << std::setprecision(1) << std::right << std::setw(7)
           << (*result)["host_seconds"].get<double>() << " s  " << describe(finished->id);
      if ((*result)["status"] != "ok") line << "  (" << outcome(*result) << ")";
      progress << line.str() << "\n" << std::flush;
    }
  };
  auto start_more = [&] {
    while (!app::stop_requested() && running.size() < options.jobs && next < ids.size()) {
      if (options.prepare) options.prepare(ids[next]);
      RunningRun r = start_run(store, ids[next++], options.exe);
      running.emplace(r.pid, std::move(r));
    }
  };
  while (true) {
    start_more();
    if (options.terminal) report(nullptr, nullptr);
    if (running.empty()) break;
    if (app::stop_requested() &&
        !signalled) {  // the children may have had it from the terminal already
      for (const auto& [pid, r] : running) kill(pid, app::stop_signal());
      signalled = true;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw InputError("sweep: waiting for the runs failed (" + std::string(std::strerror(errno)) +
                       ")");
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    RunningRun finished = std::move(it->second);
    finished.ended = now_seconds();
    running.erase(it);
    start_more();  // the next run starts before this one's files are written: no core waits on them
    const nlohmann::ordered_json result = finish_run(store, finished, status, options.version);
    ++summary.ran;
    summary.run_seconds += result["host_seconds"].get<double>();
    if (result["status"] == "failed") ++summary.failed;
    report(&finished, &result);
  }
  if (options.terminal) progress << "\n";
  summary.stopped_by = app::stop_signal();
  return summary;
}

}  // namespace gputlm::sweep
