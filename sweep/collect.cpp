#include "sweep/collect.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "models/common/error.h"
#include "models/common/text_file.h"
#include "sweep/csv_merger.h"
#include "sweep/hash128.h"
#include "sweep/run_launcher.h"

namespace gputlm::sweep {

namespace {

// A run's statistics; discarded if missing or broken.
nlohmann::json read_stats(const std::string& path) {
  std::string text;
  return read_text_file(path, text) ? nlohmann::json::parse(text, nullptr, false)
                                    : nlohmann::json(nlohmann::json::value_t::discarded);
}

std::string joined(const nlohmann::json& lines) {
  std::string s;
  for (const auto& l : lines) s += (s.empty() ? "" : "\n") + l.get<std::string>();
  return s;
}

// What the tables are made from: the axis columns and each run's entry and result (a run's rows
// are written before its result, once). Unchanged since the last collection: nothing to redo.
std::string fingerprint(const nlohmann::ordered_json& runs,
                        const std::vector<nlohmann::json>& results,
                        const std::vector<std::string>& axis_keys) {
  Hash128 h;
  for (const std::string& key : axis_keys) h.field(key);
  for (size_t i = 0; i < results.size(); ++i) h.field(runs[i].dump()).field(results[i].dump());
  return h.hex();
}

// The tables from the runs and their results (results[i] is runs[i]'s, null if none).
CollectCounts write_tables(const RunStore& store, const nlohmann::ordered_json& runs,
                           const std::vector<nlohmann::json>& results,
                           const std::vector<std::string>& axis_keys);

}  // namespace

CollectCounts collect(const RunStore& store, const nlohmann::ordered_json& runs,
                      const std::vector<std::string>& axis_keys) {
  std::vector<nlohmann::json> results;
  for (const auto& run : runs) results.push_back(store.result(run["id"].get<std::string>()));
  const std::string mark_path = store.out() + "/collected.json",
                    print = fingerprint(runs, results, axis_keys);
  std::ifstream mark_in(mark_path);
  const nlohmann::json mark = nlohmann::json::parse(mark_in, nullptr, false);
  if (mark.is_object() && mark.value("fingerprint", "") == print &&
      std::ifstream(store.out() + "/sweep.csv") && std::ifstream(store.out() + "/sweep.jsonl") &&
      std::ifstream(store.out() + "/failures.csv"))
    return mark.at("counts").get<CollectCounts>();
  CollectCounts counts = write_tables(store, runs, results, axis_keys);
  write_atomically(mark_path,
                   nlohmann::json{{"fingerprint", print}, {"counts", counts}}.dump() + "\n");
  return counts;
}

app::StatRow lead_columns(const nlohmann::ordered_json& job,
                          const std::vector<std::string>& axis_keys) {
  app::StatRow row;
  row["run_id"] = job["id"];
  row["config"] = job["config"];
  for (const std::string& key : axis_keys) {
    const nlohmann::ordered_json v = job["axes"].value(key, nlohmann::ordered_json());
    row[key] = v.is_structured() ? nlohmann::ordered_json(v.dump()) : v;
  }
  row["workload"] = job["workload"];
  row["size"] = job["size"];
  return row;
}

std::vector<std::string> axis_keys_of(const nlohmann::ordered_json& job) {
  std::vector<std::string> keys;
  const nlohmann::ordered_json axes = job.value("axes", nlohmann::ordered_json::object());
  for (auto it = axes.begin(); it != axes.end(); ++it) keys.push_back(it.key());
  return keys;
}

namespace {
CollectCounts write_tables(const RunStore& store, const nlohmann::ordered_json& runs,
                           const std::vector<nlohmann::json>& results,
                           const std::vector<std::string>& axis_keys) {
  CollectCounts counts;
  CsvMerger table;
  std::vector<app::StatRow> failures;
  const std::string jsonl_path = store.out() + "/sweep.jsonl", jsonl_part = jsonl_path + ".part";
  std::ofstream jsonl(jsonl_part,
                      std::ios::binary | std::ios::trunc);  // written as it comes: it can be large
  for (size_t i = 0; i < runs.size(); ++i) {
    const nlohmann::ordered_json& run = runs[i];
    const std::string id = run["id"].get<std::string>();
    const nlohmann::json& result = results[i];
    const std::string status = result.is_object() ? result.value("status", "") : "";
    if (status == "failed") {
      ++counts.failed;
      app::StatRow row = lead_columns(run, axis_keys);
      row["outcome"] = outcome(result);
      row["message"] = joined(result.value("tail", nlohmann::json::array()));
      failures.push_back(std::move(row));
      continue;
    }
    std::string csv, lines;
    if (status == "ok" && read_text_file(store.file(id, "rows.csv"), csv) &&
        read_text_file(store.file(id, "rows.jsonl"), lines)) {
      table.add(csv);
      jsonl << lines;
      ++counts.ok;
      continue;
    }
    const nlohmann::json stats =
        status == "ok" ? read_stats(store.file(id, "stats.json")) : nlohmann::json();
    if (status != "ok" || stats.is_discarded()) {  // not run, stopped, or its statistics unreadable
      ++counts.missing;
      continue;
    }
    const std::vector<app::StatRow> rows =
        app::lead_rows(lead_columns(run, axis_keys), app::launch_rows(stats));
    table.add(app::to_csv(rows));
    jsonl << app::to_jsonl(rows);
    ++counts.ok;
  }
  counts.rows = table.rows();
  write_atomically(store.out() + "/sweep.csv", table.str());
  jsonl.close();
  if (!jsonl || std::rename(jsonl_part.c_str(), jsonl_path.c_str()) != 0)
    throw InputError(jsonl_path + ": cannot write");
  write_atomically(
      store.out() + "/failures.csv",
      failures.empty() ? "run_id,config,workload,size,outcome,message\n" : app::to_csv(failures));
  return counts;
}
}  // namespace

}  // namespace gputlm::sweep
