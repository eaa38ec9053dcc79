// Everything the sweep's Slurm backend asks of Slurm, through its client commands (sbatch, squeue,
// scontrol; found on PATH, the cluster through SLURM_CONF as usual). No accounting database is
// assumed (no sacct): a finished array task's outcome comes from `scontrol show job JOB_I`, which
// knows it for MinJobAge after the job ends; a pending task that was cancelled has no record.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gputlm::sweep {

// A finished array task as slurmctld remembers it.
struct SlurmTaskState {
  std::string state;      // COMPLETED, FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, ...
  std::string exit_code;  // "exit:signal", e.g. "3:0", "0:15"
};

class SlurmClient {
 public:
  // `sbatch --parsable ARGS SCRIPT`: the job id. InputError with sbatch's own message when sbatch
  // is missing or refuses the job.
  std::string submit(const std::string& script, const std::vector<std::string>& args) const;
  // The array tasks of `job` still in the queue: task index -> state (PENDING, RUNNING,
  // COMPLETING, ...); empty once the job has left the queue (or slurmctld no longer knows it).
  // InputError when squeue fails otherwise (slurmctld down or busy).
  std::map<size_t, std::string> queued_tasks(const std::string& job) const;
  bool job_active(const std::string& job) const { return !queued_tasks(job).empty(); }
  // Task `task` of array `job` from `scontrol show job JOB_TASK`; nullopt when there is no record.
  std::optional<SlurmTaskState> task_state(const std::string& job, size_t task) const;
};

}  // namespace gputlm::sweep
