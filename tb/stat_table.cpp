#include "tb/stat_table.h"

#include <sstream>
#include <unordered_map>

namespace gputlm::tb {

void flatten_into(StatRow& row, const std::string& prefix, const nlohmann::json& value) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      flatten_into(row, prefix.empty() ? it.key() : prefix + "." + it.key(), it.value());
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) flatten_into(row, prefix + "[" + std::to_string(i) + "]", value[i]);
  } else {
    row[prefix] = value;
  }
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
  const std::string& s = v.get_ref<const std::string&>();
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}
}  // namespace

std::vector<StatRow> launch_rows(const nlohmann::json& stats) {
  const StatRow base = run_columns(stats);
  if (!stats.is_object() || !stats.contains("launches") || !stats.at("launches").is_array() || stats.at("launches").empty()) return {base};
  std::vector<StatRow> rows;
  for (const nlohmann::json& l : stats.at("launches")) {
    StatRow row = base;
    row["launch"] = rows.size();
    row["kernel"] = field(l, "kernel");
    if (l.is_object()) {
      for (auto it = l.begin(); it != l.end(); ++it)
        if (it.key() != "modules") flatten_into(row, it.key(), it.value());
      if (l.contains("modules")) flatten_into(row, "modules", l.at("modules"));
    }
    rows.push_back(std::move(row));
  }
  return rows;
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
  for (const StatRow& r : rows) {
    for (size_t c = 0; c < columns.size(); ++c) {
      auto it = r.find(columns[c]);
      os << (c ? "," : "") << (it == r.end() ? std::string() : cell(*it));
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace gputlm::tb
