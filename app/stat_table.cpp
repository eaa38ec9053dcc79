#include "app/stat_table.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace gputlm::app {

namespace {
// Appends a column without looking for it first (a row holds ~1,500 columns on a 15-core GPU: a
// search per column would make building a row quadratic).
void append(StatRow& row, std::string key, StatRow value) {
  if (!row.is_object()) row = StatRow::object();
  using Columns =
      std::vector<std::pair<const std::string, StatRow>>;  // what nlohmann's ordered_map is
  static_cast<Columns&>(row.get_ref<StatRow::object_t&>())
      .emplace_back(std::move(key), std::move(value));
}
}  // namespace

void flatten_into(StatRow& row, const std::string& prefix, const nlohmann::json& value) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      flatten_into(row, prefix.empty() ? it.key() : prefix + "." + it.key(), it.value());
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i)
      flatten_into(row, prefix + "[" + std::to_string(i) + "]", value[i]);
  } else {
    append(row, prefix, value);
  }
}

void append_missing(StatRow& row, const StatRow& more) {
  std::unordered_set<std::string> have;
  for (auto it = row.begin(); it != row.end(); ++it) have.insert(it.key());
  for (auto it = more.begin(); it != more.end(); ++it)
    if (!have.count(it.key())) append(row, it.key(), it.value());
}

namespace {
nlohmann::json field(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) ? j.at(key) : nlohmann::json();
}

StatRow run_columns(const nlohmann::json& stats) {
  StatRow row;
  row["workload"] = field(stats, "workload");
  row["size"] = field(stats, "size");
  row["config"] = field(field(stats, "config"), "name");
  row["config_hash"] = field(field(stats, "config"), "hash");
  row["mode"] = field(stats, "mode");
  row["complete"] = field(stats, "complete");
  row["verify"] = field(field(stats, "verify"), "status");
  row["host_seconds"] = field(stats, "host_seconds");
  return row;
}

std::string cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (!v.is_string()) return v.dump();
  return csv_cell(v.get_ref<const std::string&>());
}
}  // namespace

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<StatRow> launch_rows(const nlohmann::json& stats) {
  const StatRow base = run_columns(stats);
  if (!stats.is_object() || !stats.contains("launches") || !stats.at("launches").is_array() ||
      stats.at("launches").empty())
    return {base};
  std::vector<StatRow> rows;
  for (const nlohmann::json& l : stats.at("launches")) {
    StatRow row = base;
    row["launch"] = rows.size();
    row["kernel"] = field(l, "kernel");
    if (l.is_object()) {
      for (auto it = l.begin(); it != l.end(); ++it)
        if (it.key() != "modules" && it.key() != "kernel" && it.key() != "kernel_demangled")
          flatten_into(row, it.key(), it.value());
      if (l.contains("modules")) flatten_into(row, "modules", l.at("modules"));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<StatRow> lead_rows(const StatRow& lead, const std::vector<StatRow>& rows) {
  std::vector<StatRow> led;
  for (const StatRow& r : rows) {
    led.push_back(lead);
    append_missing(led.back(), r);
  }
  return led;
}

std::string to_jsonl(const std::vector<StatRow>& rows) {
  std::string text;
  for (const StatRow& r : rows) text += r.dump() + "\n";
  return text;
}

std::string to_csv(const std::vector<StatRow>& rows) {
  std::vector<std::string> columns;
  std::unordered_map<std::string, size_t> seen;
  for (const StatRow& r : rows)
    for (auto it = r.begin(); it != r.end(); ++it)
      if (seen.emplace(it.key(), columns.size()).second) columns.push_back(it.key());
  std::ostringstream os;
  for (size_t c = 0; c < columns.size(); ++c) os << (c ? "," : "") << cell(columns[c]);
  os << "\n";
  std::vector<const StatRow*> cells(columns.size());
  for (const StatRow& r : rows) {  // each row's cells by column, then written in column order
    std::fill(cells.begin(), cells.end(), nullptr);
    for (auto it = r.begin(); it != r.end(); ++it) cells[seen.at(it.key())] = &it.value();
    for (size_t c = 0; c < columns.size(); ++c)
      os << (c ? "," : "") << (cells[c] ? cell(*cells[c]) : std::string());
    os << "\n";
  }
  return os.str();
}

}  // namespace gputlm::app
