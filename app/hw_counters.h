// The measured side of `gputlm validate`: a hardware CSV of per-kernel counters in the layout of
// AccelWattch's hw_perf.csv (Benchmark, Kernel, then one column per counter: L1_RH, ..., DRAM_Rd,
// ..., Elapsed_Cycles), each value a kernel's per-launch total averaged over its launches.
// docs/user-guide/validation.md describes the format.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace gputlm::app {

// One measured kernel: its program (the Benchmark column), mangled name (Kernel) and every other
// column that holds a number; an empty cell is left out of `values`.
struct HwKernel {
  std::string benchmark, kernel;
  std::map<std::string, double> values;
  size_t line = 0;  // in the file, from 1
};

// One CSV line split into its fields: RFC 4180 quoting ("a,b" is one field, "" inside quotes is
// one quote). InputError "<where>: ..." for a quote left open or text after a closing quote.
std::vector<std::string> split_csv_line(const std::string& line, const std::string& where);

// The rows of a hardware CSV `text` read from `path`. It must have the columns Benchmark, Kernel
// and Elapsed_Cycles; every other cell must be a number or empty; a Benchmark and Kernel appear
// once. InputError "<path>:<line>: ..." naming the column otherwise. Blank lines are skipped; a
// trailing '\r' is dropped.
std::vector<HwKernel> parse_hw_csv(const std::string& text, const std::string& path);

// The file at `path`, parsed; InputError when it cannot be read.
std::vector<HwKernel> read_hw_csv(const std::string& path);

}  // namespace gputlm::app
