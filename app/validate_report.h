// What `gputlm validate` writes: validate.csv (one row per kernel compared, and one per program
// that failed), validate.md (the table and the summary) and the summary it prints. The summary
// gives, over the kernels compared, the cycle MAPE and Pearson correlation, and the same for each
// counter with data on both sides (docs/user-guide/validation.md).
#pragma once

#include <string>
#include <vector>

#include "app/validate_stats.h"

namespace gputlm::app {

// A program's status when `--time-limit` stopped it: a failure whose kernels with a complete
// launch are compared all the same.
inline constexpr const char* kTimeLimit = "stopped at the time limit";

// One program of the manifest: how it went and what it gave.
struct ProgramOutcome {
  std::string name;
  // ok, build failed, run failed, or kTimeLimit (its complete launches are still compared)
  std::string status = "ok";
  std::string first_error;  // a failure's first error line
  std::string log;          // its log file (relative to the output folder)
  Matching matching;        // a program that ran: its kernels matched to the hardware rows
};

struct ValidateReport {
  std::string commit, command;  // for validate.md's header
  std::vector<ProgramOutcome> programs;

  std::vector<Comparison> compared() const;  // every program's, in manifest order
  // Failed programs, and hardware rows of programs that ran with no simulated kernel.
  size_t failures() const;
};

// validate.csv: program, kernel, kernel_demangled, launches, sim_cycles, hw_cycles, error, then
// sim_<counter>, hw_<counter> per counter of counter_mappings(), then untimed_launches (launches
// of the kernel not in its mean: gputlm cuda --timed-launches). The error column of a failed
// program's row (no kernel, no numbers) is its status and first error line; that of a hardware
// row with no simulated kernel is `no simulated kernel`.
std::string validate_csv(const ValidateReport& r);
// The summary lines (printed and in validate.md).
std::string validate_summary(const ValidateReport& r);
// validate.md: header (commit, command), the table of kernels, failures, the summary.
std::string validate_markdown(const ValidateReport& r);
// "MAPE 12.3%, correlation 0.987" (n/a for a value that cannot be computed).
std::string agreement_text(const Agreement& a);

}  // namespace gputlm::app
