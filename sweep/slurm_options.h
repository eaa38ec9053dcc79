// How a sweep goes to Slurm (docs/user-guide/sweeps-and-slurm.md "Sweeps on Slurm"): the spec's
// "slurm" object, overridden key by key by the command line's flags (--partition, --time, --mem,
// --throttle,
// --runs-per-task, --sbatch-arg). Read and checked with the spec, before anything runs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gputlm::sweep {

struct SlurmOptions {
  std::string partition;  // "" : the cluster's default partition
  std::string
      time;  // per array task, in Slurm's format ("10", "1:00:00"); "" : the partition's limit
  std::string mem;           // per array task ("2G", "500M"); "" : the cluster's default
  size_t throttle = 0;       // at most this many tasks at once (the array's %N); 0 : no limit
  size_t runs_per_task = 1;  // runs an array task does, one after another
  std::vector<std::string> sbatch_args;  // passed to sbatch as they are ("--account=x")
  double poll_seconds = 5;               // how often the waiting sweep asks squeue

  // The spec's "slurm" object (`file` names the spec in messages): keys partition, time, mem
  // (strings; time and mem also a whole number), throttle, runs_per_task (whole numbers),
  // sbatch_args (a list of strings), poll_seconds. ConfigError naming "slurm.<key>" for an
  // unknown key or a wrong type.
  static SlurmOptions from_json(const nlohmann::json& j, const std::string& file);
};

}  // namespace gputlm::sweep
