// The sweep's tables from its runs' results: sweep.csv and sweep.jsonl hold one row per
// (run, launch) of every ok run (app::launch_rows of its statistics), each led by run_id, the
// config label, every axis key, the workload and the size; failures.csv holds one row per failed
// run (run_id, the same labels, outcome, the last lines of its output). All written atomically.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/stat_table.h"
#include "sweep/run_store.h"

namespace gputlm::sweep {

struct CollectCounts {
  size_t ok = 0, failed = 0, missing = 0, rows = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CollectCounts, ok, failed, missing, rows)

// The columns that lead each of a run's rows: run_id, config (its label in the spec), every axis
// key (its value; a list or object as its JSON text), workload, size. `job`: its manifest entry.
app::StatRow lead_columns(const nlohmann::ordered_json& job,
                          const std::vector<std::string>& axis_keys);
// The axis keys of a run's manifest entry, in its order (the sweep's axis_keys()).
std::vector<std::string> axis_keys_of(const nlohmann::ordered_json& job);

// `runs`: manifest entries (SweepRun::describe()); `axis_keys`: the sweep's axis columns in order.
// Writes the tables unless they were made from exactly these runs and results already (recorded in
// collected.json: a fully cached rerun of a large sweep then takes no time to collect).
// A run's rows come from the rows.csv and rows.jsonl it wrote itself (gputlm run --csv --jsonl
// --rows-lead LEAD), else from its stats.json (gputlm predict's runs).
CollectCounts collect(const RunStore& store, const nlohmann::ordered_json& runs,
                      const std::vector<std::string>& axis_keys);

}  // namespace gputlm::sweep
