// The sweep's tables from its runs' results: sweep.csv and sweep.jsonl hold one row per
// (run, launch) of every ok run (tb::launch_rows of its statistics), each led by run_id, the
// config label, every axis key, the workload and the size; failures.csv holds one row per failed
// run (run_id, the same labels, outcome, the last lines of its output). All written atomically.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tb/stat_table.h"
#include "tb/sweep/run_store.h"

namespace gputlm::tb::sweep {

struct CollectCounts {
  size_t ok = 0, failed = 0, missing = 0, rows = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CollectCounts, ok, failed, missing, rows)

// One run's part of the tables: its rows (an ok run), its failures.csv row (a failed one), or
// nothing (not run, or stopped).
struct RunRows {
  enum Outcome { kOk, kFailed, kMissing } outcome = kMissing;
  std::vector<StatRow> rows;  // kOk: one per launch; kFailed: the one failures.csv row
  std::string jsonl;          // kOk: the rows as JSON lines
};
// Made as each run finishes (the local pool), so that collecting at the end reads no statistics
// again; keyed by run id.
using RowCache = std::map<std::string, RunRows>;

// `run`: its manifest entry (SweepRun::describe()).
RunRows run_rows(const RunStore& store, const nlohmann::ordered_json& run, const std::vector<std::string>& axis_keys);

// `runs`: manifest entries (SweepRun::describe()); `axis_keys`: the sweep's axis columns in order.
// Writes the tables unless they were made from exactly these runs and results already (recorded in
// collected.json: a fully cached rerun of a large sweep then takes no time to collect).
// `cache`: rows made already (run_rows), used instead of reading those runs' statistics again.
CollectCounts collect(const RunStore& store, const nlohmann::ordered_json& runs, const std::vector<std::string>& axis_keys,
                      RowCache cache = {});
// The same, always writing the tables.
CollectCounts collect_tables(const RunStore& store, const nlohmann::ordered_json& runs, const std::vector<std::string>& axis_keys,
                             RowCache cache = {});

}  // namespace gputlm::tb::sweep
