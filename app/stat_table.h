// The tidy statistics table: one row per (run, launch), one column per scalar statistic, named by
// its path in the --stats JSON ("cycles", "mwp_cwp_prediction.cycles",
// "modules.gpu.dram0.row_hits", "fetch_stall_cycles.memory"). `gputlm run --csv` writes it for one
// run and `gputlm sweep` for a whole sweep (each row led by the sweep's axes), so a study reads one
// layout wherever it came from.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gputlm::app {

// A row: column name -> scalar (number, string, bool or null), columns in a stable order.
using StatRow = nlohmann::ordered_json;

// The rows of one run's --stats JSON, one per launch (a run without launches gives one row with
// the run's columns only). Each row holds, in order: workload, size, config, config_hash, mode,
// complete, verify, host_seconds; then launch (index), kernel, and the launch's other statistics
// flattened (objects joined with '.', array elements as name[i]); last its modules' statistics over
// the launch
// ("modules.gpu.core0.l1d.hits"). kernel_demangled (app/kernel_name.h) is left out: the
// tables' columns stay what studies and sweeps read, and kernel, the PTX name, gives it.
std::vector<StatRow> launch_rows(const nlohmann::json& stats);

// Every scalar below `value`, appended to `row` under `prefix` (objects joined with '.', arrays as
// prefix[i]). The columns must not be in `row` yet (they are appended without a search).
void flatten_into(StatRow& row, const std::string& prefix, const nlohmann::json& value);
// Appends to `row` the columns of `more` it does not have yet, in their order.
void append_missing(StatRow& row, const StatRow& more);

// `lead`'s columns first in every row, then each row's own columns `lead` does not have (a
// sweep's run_id, config label and axes before a run's statistics).
std::vector<StatRow> lead_rows(const StatRow& lead, const std::vector<StatRow>& rows);

// The rows as JSON lines, one object per row.
std::string to_jsonl(const std::vector<StatRow>& rows);

// CSV of rows: the header is the union of their columns in first-seen order; a cell a row lacks is
// empty; strings are quoted when they hold a comma, quote or line break (RFC 4180).
std::string to_csv(const std::vector<StatRow>& rows);

// `s` as one CSV cell: as it is, or quoted (quotes doubled) when it holds a comma, quote or line
// break (RFC 4180).
std::string csv_cell(const std::string& s);

}  // namespace gputlm::app
