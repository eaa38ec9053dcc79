// gputlm sweep --backend slurm (docs/user-guide/sweeps-and-slurm.md "Sweeps on Slurm"): submit the
// missing runs as one job array, wait for it, then the tables and a report of each array task that
// did not finish ok.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/slurm_backend.h"
#include "sweep/sweep_spec.h"

namespace gputlm {

// `runs`: the manifest's runs; `missing`: those to submit (prepared). `wait` false: submit, print
// the job and how to collect, exit 0. Exit 0 when every run is ok, 1 otherwise, 128 + signal when
// the waiting was stopped (the job goes on).
int run_on_slurm(const sweep::SweepSpec& spec, const sweep::SlurmBackend& slurm,
                 const nlohmann::ordered_json& runs, const std::vector<std::string>& missing,
                 bool wait, const std::string& collect_command, double start);

// After --collect: the newest submission's array tasks that did not finish ok (or that its job is
// still in the queue).
void report_latest_submission(const sweep::SlurmBackend& slurm, const std::string& out,
                              const nlohmann::ordered_json& runs);

}  // namespace gputlm
