// What gputlm sweep prints about runs, shared by its backends: a run's label, the failed runs
// with their last lines, and the line that says what the tables hold.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "sweep/collect.h"
#include "sweep/run_store.h"

namespace gputlm {

// "fermi-gtx480  micro/vecadd  test  core.scheduler=\"rr\"": a manifest entry in words.
std::string run_label(const nlohmann::ordered_json& run);
// id -> its first 12 digits and run_label(), for each of the manifest's `runs`.
std::function<std::string(const std::string&)> run_labels(const nlohmann::ordered_json& runs);
// Each failed run of `runs`: its outcome, its output's last lines and its log.
void print_failures(const sweep::RunStore& store, const nlohmann::ordered_json& runs);
// "collected N ok run(s) as R row(s) in OUT/sweep.csv ...".
void print_collected(const sweep::RunStore& store, const sweep::CollectCounts& c);

}  // namespace gputlm
