// One submission of a sweep to Slurm: the directory OUT/slurm/<n>/ (n = 1, 2, ... per
// submission) holding tasks.txt (line i: the run ids array task i does, in turn), sweep.sbatch
// (the job script), job.json (job id, submission time, task count, the run ids) and the tasks'
// logs <job>_<i>.log.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gputlm::sweep {

struct SlurmSubmission {
  std::string dir;                              // OUT/slurm/<n>, absolute
  std::string job;                              // the array job's id; "" until submitted
  std::string submitted;                        // UTC, ISO 8601
  std::vector<std::vector<std::string>> tasks;  // task i's run ids

  std::string log(size_t task) const {
    return dir + "/" + job + "_" + std::to_string(task) + ".log";
  }
  size_t runs() const;

  // A new, empty OUT/slurm/<n> (the next free n) with tasks.txt: `ids` in tasks of `per_task`.
  static SlurmSubmission create(const std::string& out, const std::vector<std::string>& ids,
                                size_t per_task);
  // Records the submitted job (job, submitted) in job.json.
  void write_job() const;
  // The newest submission in OUT/slurm that has a job.json; nullopt if none.
  static std::optional<SlurmSubmission> latest(const std::string& out);
};

}  // namespace gputlm::sweep
