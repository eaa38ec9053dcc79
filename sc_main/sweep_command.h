// gputlm sweep: runs a sweep spec (docs/user-guide/sweeps-and-slurm.md) on the local or the Slurm
// backend, or one run of it
// (--run, --task-file/--task: what GNU parallel and Slurm array tasks call), or only lists,
// prints or collects its runs (--dry-run, --print-jobs, --collect).
#pragma once

#include <string>
#include <vector>

namespace gputlm {

// `args` are the command's arguments after "sweep"; `version` is the commit gputlm was built from.
// Exit: 0 every run ok, 1 a run failed, 2 bad input, 128 + signal when stopped by one.
int cmd_sweep(const std::vector<std::string>& args, const std::string& version);

}  // namespace gputlm
