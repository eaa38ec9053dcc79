// One CSV table made of many (each run's rows.csv, written by the run itself): the header is the
// union of the tables' columns in first-seen order, a cell a table lacks is empty. Tables whose
// header is the one before (every run of a sweep on one kind of core) are appended as text, cell
// by cell only where the columns differ, so a 1,000-run sweep merges in a fraction of a second.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace gputlm::sweep {

class CsvMerger {
 public:
  // A CSV table: a header line, then data lines (RFC 4180 quoting; a quoted cell may hold a
  // line break). Returns the number of data rows added.
  size_t add(const std::string& table);
  size_t rows() const { return m_rows.size(); }
  std::string str() const;

 private:
  struct Row {
    std::string text;                // the line as written, when its columns are 0..width-1
    std::vector<std::string> cells;  // else each cell at its column
    size_t width = 0;
  };
  size_t column(const std::string& name);

  std::vector<std::string> m_columns;
  std::unordered_map<std::string, size_t> m_index;
  std::string m_last_header;
  std::vector<size_t> m_last_map;  // the last header's columns' places
  bool m_last_in_order = false;    // and whether they are 0..n-1
  std::vector<Row> m_rows;
};

// The cells of one CSV record as written (quotes kept), and the records of a text.
std::vector<std::string> split_csv_record(const std::string& record);
std::vector<std::string> csv_records(const std::string& text);

}  // namespace gputlm::sweep
