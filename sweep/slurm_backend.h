// The Slurm backend of gputlm sweep (docs/user-guide/sweeps-and-slurm.md "Sweeps on Slurm"): the
// missing runs go to one job array (tasks of SlurmOptions::runs_per_task runs, each task `gputlm
// sweep SPEC --out OUT
// --task-file tasks.txt --task $SLURM_ARRAY_TASK_ID`), which is waited for by polling squeue;
// then each array task that did not finish ok is reported with its Slurm state, its runs without
// an ok result and the end of its log. The output directory and gputlm must be on a filesystem
// the nodes share, at the same paths.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "sweep/run_store.h"
#include "sweep/slurm_client.h"
#include "sweep/slurm_options.h"
#include "sweep/slurm_submission.h"

namespace gputlm::sweep {

struct SlurmSweep {
  std::string name;       // the spec's name (the job is gputlm-<name>)
  std::string spec_path;  // absolute
  std::string exe;        // the gputlm executable, absolute
  SlurmOptions options;
  bool terminal = false;  // rewrite one progress line on stderr instead of a line per change
};

class SlurmBackend {
 public:
  SlurmBackend(const RunStore& store, SlurmSweep sweep)
      : m_store(store), m_sweep(std::move(sweep)) {}

  // InputError naming the job when the newest earlier submission's job is still in the queue
  // (its tasks would run the same runs).
  void refuse_if_queued() const;
  // Writes OUT/slurm/<n>/ (tasks.txt, sweep.sbatch), submits it and records job.json.
  SlurmSubmission submit(const std::vector<std::string>& ids) const;
  // Polls squeue until the job has left the queue, reporting progress on `progress`. Returns the
  // signal (SIGINT, SIGTERM) that stopped the waiting, 0 when the job ended.
  int wait(const SlurmSubmission& s, std::ostream& progress) const;
  // Prints each array task of `s` with a run that has no ok result: Slurm's state and exit code
  // ("no record" when it has none, as for a task cancelled while pending), those runs
  // (`describe(id)`, and their status), the last lines of its log. Returns how many.
  size_t report(const SlurmSubmission& s, std::ostream& out,
                const std::function<std::string(const std::string&)>& describe) const;

  const SlurmClient& client() const { return m_client; }
  const RunStore& store() const { return m_store; }
  bool terminal() const { return m_sweep.terminal; }

 private:
  std::string script(const SlurmSubmission& s) const;
  // "job J: P pending, R running, D done of T task(s); runs O ok, F failed of N".
  std::string progress_line(const SlurmSubmission& s,
                            const std::map<size_t, std::string>& queued) const;

  const RunStore& m_store;
  SlurmSweep m_sweep;
  SlurmClient m_client;
};

}  // namespace gputlm::sweep
