#include "app/hw_counters.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "models/common/error.h"
#include "models/common/text_file.h"

namespace gputlm::app {

std::vector<std::string> split_csv_line(const std::string& line, const std::string& where) {
  std::vector<std::string> fields(1);
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"')
        fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += line[++i];
      else
        quoted = false;
    } else if (c == ',') {
      fields.emplace_back();
      was_quoted = false;
    } else if (c == '"' && fields.back().empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (was_quoted) {
      throw InputError(where + ": text after a closing quote in field " +
                       std::to_string(fields.size()));
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw InputError(where + ": a quote is not closed");
  return fields;
}

namespace {

bool parse_number(const std::string& text, double& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size();
}

}  // namespace

std::vector<HwKernel> parse_hw_csv(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<HwKernel> rows;
  std::set<std::pair<std::string, std::string>> seen;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    std::vector<std::string> fields = split_csv_line(line, where);
    if (header.empty()) {
      header = fields;
      for (const char* need : {"Benchmark", "Kernel", "Elapsed_Cycles"})
        if (std::find(header.begin(), header.end(), need) == header.end())
          throw InputError(where + ": the header has no column '" + need +
                           "' (a hardware CSV has Benchmark, Kernel, Elapsed_Cycles and counters)");
      continue;
    }
    if (fields.size() != header.size())
      throw InputError(where + ": " + std::to_string(fields.size()) + " fields, the header has " +
                       std::to_string(header.size()));
    HwKernel row;
    row.line = number;
    for (size_t i = 0; i < fields.size(); ++i) {
      const std::string& column = header[i];
      if (column == "Benchmark") {
        row.benchmark = fields[i];
      } else if (column == "Kernel") {
        row.kernel = fields[i];
      } else if (!fields[i].empty()) {
        double value = 0;
        if (!parse_number(fields[i], value))
          throw InputError(where + ": column " + column + " is not a number: '" + fields[i] + "'");
        row.values[column] = value;
      }
    }
    if (row.benchmark.empty() || row.kernel.empty())
      throw InputError(where + ": Benchmark and Kernel must not be empty");
    if (!row.values.count("Elapsed_Cycles") || !(row.values["Elapsed_Cycles"] > 0))
      throw InputError(where + ": column Elapsed_Cycles must be a positive number of cycles");
    if (!seen.insert({row.benchmark, row.kernel}).second)
      throw InputError(where + ": " + row.benchmark + " " + row.kernel + " appears twice");
    rows.push_back(std::move(row));
  }
  if (header.empty()) throw InputError(path + ": empty (no header line)");
  return rows;
}

std::vector<HwKernel> read_hw_csv(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) throw InputError(path + ": cannot read the hardware CSV");
  return parse_hw_csv(text, path);
}

}  // namespace gputlm::app
