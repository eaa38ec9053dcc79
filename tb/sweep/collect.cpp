#include "tb/sweep/collect.h"

#include <fstream>
#include <sstream>

#include "tb/stat_table.h"
#include "tb/sweep/hash128.h"
#include "tb/sweep/run_launcher.h"

namespace gputlm::tb::sweep {

namespace {

// run_id, config, the axes, workload, size: the columns that lead every row.
StatRow lead_columns(const nlohmann::ordered_json& run, const std::vector<std::string>& axis_keys) {
  StatRow row;
  row["run_id"] = run["id"];
  row["config"] = run["config"];
  for (const std::string& key : axis_keys) {
    const nlohmann::ordered_json v = run["axes"].value(key, nlohmann::ordered_json());
    row[key] = v.is_structured() ? nlohmann::ordered_json(v.dump()) : v;
  }
  row["workload"] = run["workload"];
  row["size"] = run["size"];
  return row;
}

nlohmann::json read_stats(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str(), nullptr, false);
}

std::string joined(const nlohmann::json& lines) {
  std::string s;
  for (const auto& l : lines) s += (s.empty() ? "" : "\n") + l.get<std::string>();
  return s;
}

}  // namespace

namespace {
// What the tables are made from: the axis columns and each run's id and result (a run's stats
// are written before its result, once). Unchanged since the last collection: nothing to redo.
std::string fingerprint(const RunStore& store, const nlohmann::ordered_json& runs, const std::vector<std::string>& axis_keys) {
  Hash128 h;
  for (const std::string& key : axis_keys) h.field(key);
  for (const auto& run : runs) {
    const std::string id = run["id"].get<std::string>();
    h.field(run.dump()).field(store.result(id).dump());
  }
  return h.hex();
}
}  // namespace

CollectCounts collect(const RunStore& store, const nlohmann::ordered_json& runs, const std::vector<std::string>& axis_keys,
                      RowCache cache) {
  const std::string mark_path = store.out() + "/collected.json", print = fingerprint(store, runs, axis_keys);
  std::ifstream mark_in(mark_path);
  const nlohmann::json mark = nlohmann::json::parse(mark_in, nullptr, false);
  if (mark.is_object() && mark.value("fingerprint", "") == print && std::ifstream(store.out() + "/sweep.csv") &&
      std::ifstream(store.out() + "/sweep.jsonl") && std::ifstream(store.out() + "/failures.csv"))
    return mark.at("counts").get<CollectCounts>();
  CollectCounts counts = collect_tables(store, runs, axis_keys, std::move(cache));
  write_atomically(mark_path, nlohmann::json{{"fingerprint", print}, {"counts", counts}}.dump() + "\n");
  return counts;
}

RunRows run_rows(const RunStore& store, const nlohmann::ordered_json& run, const std::vector<std::string>& axis_keys) {
  RunRows r;
  const std::string id = run["id"].get<std::string>();
  const nlohmann::json result = store.result(id);
  if (result.is_null() || result.value("status", "") == "stopped") return r;
  if (result.value("status", "") != "ok") {
    r.outcome = RunRows::kFailed;
    StatRow row = lead_columns(run, axis_keys);
    row["outcome"] = outcome(result);
    row["message"] = joined(result.value("tail", nlohmann::json::array()));
    r.rows.push_back(std::move(row));
    return r;
  }
  const nlohmann::json stats = read_stats(store.file(id, "stats.json"));
  if (stats.is_discarded()) return r;
  r.outcome = RunRows::kOk;
  for (StatRow& launch : launch_rows(stats)) {
    StatRow row = lead_columns(run, axis_keys);
    append_missing(row, launch);  // the lead's workload and size are the run's
    r.jsonl += row.dump() + "\n";
    r.rows.push_back(std::move(row));
  }
  return r;
}

CollectCounts collect_tables(const RunStore& store, const nlohmann::ordered_json& runs, const std::vector<std::string>& axis_keys,
                             RowCache cache) {
  CollectCounts counts;
  std::vector<StatRow> rows, failures;
  std::string jsonl;
  for (const auto& run : runs) {
    const auto cached = cache.find(run["id"].get<std::string>());
    RunRows r = cached != cache.end() ? std::move(cached->second) : run_rows(store, run, axis_keys);
    if (r.outcome == RunRows::kMissing) ++counts.missing;
    if (r.outcome == RunRows::kFailed) ++counts.failed;
    if (r.outcome == RunRows::kOk) ++counts.ok;
    std::vector<StatRow>& into = r.outcome == RunRows::kFailed ? failures : rows;
    for (StatRow& row : r.rows) into.push_back(std::move(row));
    jsonl += r.jsonl;
  }
  counts.rows = rows.size();
  write_atomically(store.out() + "/sweep.csv", to_csv(rows));
  write_atomically(store.out() + "/sweep.jsonl", jsonl);
  write_atomically(store.out() + "/failures.csv", failures.empty() ? "run_id,config,workload,size,outcome,message\n" : to_csv(failures));
  return counts;
}

}  // namespace gputlm::tb::sweep
