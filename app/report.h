// Reports of a run: the short text summary printed by gputlm and the full JSON statistics
// (written with --stats).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "app/functional_run.h"

namespace gputlm::app {

void print_summary(std::ostream& os, const FunctionalRun& run);
nlohmann::json to_json(const FunctionalRun& run);
nlohmann::json to_json(const func::FuncStats& stats);
// The verification of every checked buffer: JSON ("status": verified, failed or unchecked, with
// the "reason" when unchecked), and the "check ..." lines plus the verdict (VERIFIED, FAILED, or
// UNCHECKED with the reason).
nlohmann::json to_json(const workload::VerifyReport& verify);
void print_verify(std::ostream& os, const workload::VerifyReport& verify);
// A CUDA program's run (gputlm cuda) checks its own outputs: the JSON's "verify" and the
// summary's line say so instead of a verdict.
nlohmann::json self_checked_json();
void print_self_checked(std::ostream& os);
// A run a signal stopped (`stopped_by`, e.g. "SIGINT"; empty: the run completed): the JSON's
// "complete" (and "stopped_by"), and the summary's line in place of the verdict.
void mark_completeness(nlohmann::json& j, const std::string& stopped_by);
void print_stopped(std::ostream& os, const std::string& stopped_by);

// The text of a --stats file: the JSON indented by two spaces as dump(2) writes it, but with these
// on one line each, as dump() writes them: a module's statistics (each member of a "modules"
// object: "gpu.core0.l1d": {"accesses":1200,...}), an array of scalars (a histogram, a grid), and
// an object of scalars in an array (a sample row, a checked buffer). The same JSON to any reader,
// in about half the bytes and a tenth of the lines of dump(2) (a 15-core GPU's module statistics
// take ~1,500 lines a launch there), and still a module to a line for people and line tools.
std::string stats_text(const nlohmann::json& stats);

}  // namespace gputlm::app
