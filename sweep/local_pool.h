// The local backend: up to `jobs` runs at once as child processes (run_launcher.h), waited for
// with waitpid. On a terminal one progress line is rewritten in place (done, running, failed,
// left, runs per second, ETA); elsewhere one line per finished run. SIGINT or SIGTERM stops
// spawning, passes the signal to the running children and waits for them: finished results stay,
// the stopped runs are failed and run again next time.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sweep/run_store.h"

namespace gputlm::sweep {

struct PoolOptions {
  size_t jobs = 1;
  std::string exe;        // the gputlm executable
  std::string version;    // recorded in each result
  bool terminal = false;  // rewrite one progress line instead of a line per run
  // Writes a run's files (RunStore::prepare) just before it starts; none: they are written already.
  std::function<void(const std::string& id)> prepare;
};

struct PoolSummary {
  size_t ran = 0, failed = 0;
  double run_seconds = 0;  // the runs' host seconds, summed
  int stopped_by = 0;      // the signal that stopped the pool, 0 if none
};

// Runs the prepared runs `ids` of `store`; reports progress on `progress`. `describe(id)` labels a
// run in the per-run lines.
PoolSummary run_pool(const RunStore& store, const std::vector<std::string>& ids,
                     const PoolOptions& options, std::ostream& progress,
                     const std::function<std::string(const std::string&)>& describe);

}  // namespace gputlm::sweep
