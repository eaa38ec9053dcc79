// One sweep run as a process: the gputlm executable itself, as
//   gputlm run --config runs/<id>/config.json (--workload DIR --size S | --trace PATH) --stats ...
// (gputlm predict for "command": "predict"; --dram-trace runs/<id>/dram.csv and --sample N when
// the spec asks for them)
// with stdin from /dev/null and stdout and stderr into runs/<id>/log.txt. start_run() spawns it;
// finish_run() records its result (run_store.h) once it has ended. The local pool and the
// `gputlm sweep --run ID` entry point (one run, for GNU parallel and Slurm) both go through these.
#pragma once

#include <sys/types.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/run_store.h"

namespace gputlm::sweep {

struct RunningRun {
  std::string id;
  pid_t pid = -1;
  double started = 0;  // monotonic seconds
  double ended = 0;    // when it was reaped (0: not yet; finish_run then takes the time itself)
  std::vector<std::string> command;
};

// Monotonic seconds.
double now_seconds();

// Spawns the run prepared as `id` in `store` with the executable `exe`. InputError if it cannot.
RunningRun start_run(const RunStore& store, const std::string& id, const std::string& exe);

// Records the ended run (`wait_status` from waitpid) in result.json: ok when it exited 0 and wrote
// its statistics, stopped when SIGINT or SIGTERM ended it (exit 130 or 143, or the signal), else
// failed. Returns the result. `version` is gputlm --version's commit.
nlohmann::ordered_json finish_run(const RunStore& store, const RunningRun& run, int wait_status,
                                  const std::string& version);

// The last `n` lines of a text file (fewer if it is shorter; none if it cannot be read).
std::vector<std::string> last_lines(const std::string& path, size_t n);

// "exit 3", "signal 9 (Killed)": a result's outcome in words.
std::string outcome(const nlohmann::json& result);

}  // namespace gputlm::sweep
