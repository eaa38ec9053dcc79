#include "sweep/csv_merger.h"

#include <algorithm>

namespace gputlm::sweep {

std::vector<std::string> csv_records(const std::string& text) {
  std::vector<std::string> records;
  size_t start = 0, quotes = 0;  // a record ends at a line break after an even number of quotes
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    quotes += static_cast<size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(at),
                                             text.begin() + static_cast<std::ptrdiff_t>(end), '"'));
    at = end + 1;
    if (quotes % 2 == 0 || end == text.size()) {
      records.emplace_back(text, start, end - start);
      start = at;
      quotes = 0;
    }
  }
  return records;
}

std::vector<std::string> split_csv_record(const std::string& record) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (char c : record) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted)
      cells.emplace_back();
    else
      cells.back() += c;
  }
  return cells;
}

size_t CsvMerger::column(const std::string& name) {
  const auto [it, added] = m_index.emplace(name, m_columns.size());
  if (added) m_columns.push_back(name);
  return it->second;
}

size_t CsvMerger::add(const std::string& table) {
  std::vector<std::string> records = csv_records(table);
  if (records.empty()) return 0;
  if (records[0] != m_last_header) {
    const std::vector<std::string> names = split_csv_record(records[0]);
    m_last_map.clear();
    m_last_in_order = true;
    for (size_t i = 0; i < names.size(); ++i) {
      m_last_map.push_back(column(names[i]));
      m_last_in_order &= m_last_map.back() == i;
    }
    m_last_header = std::move(records[0]);
  }
  for (size_t r = 1; r < records.size(); ++r) {
    Row row;
    row.width = m_last_map.size();
    if (m_last_in_order) {
      row.text = std::move(records[r]);
    } else {
      std::vector<std::string> cells = split_csv_record(records[r]);
      row.cells.resize(m_columns.size());
      for (size_t i = 0; i < cells.size() && i < m_last_map.size(); ++i)
        row.cells[m_last_map[i]] = std::move(cells[i]);
    }
    m_rows.push_back(std::move(row));
  }
  return records.size() - 1;
}

std::string CsvMerger::str() const {
  std::string out;
  for (size_t c = 0; c < m_columns.size(); ++c) out += (c ? "," : "") + m_columns[c];
  out += "\n";
  for (const Row& row : m_rows) {
    if (row.cells.empty()) {
      out += row.text;
      out.append(m_columns.size() - row.width, ',');  // the columns later tables added
    } else {
      for (size_t c = 0; c < m_columns.size(); ++c) {
        if (c) out += ',';
        if (c < row.cells.size()) out += row.cells[c];
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace gputlm::sweep
