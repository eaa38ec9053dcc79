// Reports of a run: the short text summary printed by gputlm and the full JSON statistics
// (written with --stats).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

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

}  // namespace gputlm::app
