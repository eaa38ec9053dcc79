// A short-lived helper command (sbatch, squeue, scontrol) run to its end with its stdout and
// stderr captured separately: what the Slurm client (slurm_client.h) needs. Not for sweep runs,
// whose output goes to a file (run_launcher.h).
#pragma once

#include <string>
#include <vector>

namespace gputlm::sweep {

struct ProcessOutput {
  int exit_code = 0;  // the exit status, or 128 + the signal that ended it
  std::string out, err;
};

// Runs argv[0] (looked up on PATH) with stdin from /dev/null and waits for it. InputError when it
// cannot be started, e.g. "sbatch: not found on PATH".
ProcessOutput run_capturing(const std::vector<std::string>& argv);

// `s` in single quotes for a POSIX shell ('it'\''s'), for the commands the sweep prints or writes.
std::string shell_quoted(const std::string& s);

}  // namespace gputlm::sweep
