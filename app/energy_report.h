// Energy in a timing run's reports (models/energy): each launch's from its own module statistics
// and duration, the run's as the sum of its launches'; as JSON ("energy" of each launch and of the
// run's "total") and as the summary's lines.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "models/energy/energy_model.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::app {

// A launch of `cycles` core cycles whose modules counted `modules` (StatWindow's JSON); nullopt
// when the config has no energy table.
std::optional<energy::EnergyBreakdown> launch_energy(const gpu::GpuSpec& spec,
                                                     const nlohmann::json& modules,
                                                     uint64_t cycles);

// {"total_j", "static_j", "dynamic_j", "seconds", "average_power_w", "pj_per_thread_instruction",
//  "components": {"core": {"<part>_j", ..., "total_j"}, ...}}; a component's static part is its
// "static_j" (DRAM: "background_j").
nlohmann::json to_json(const energy::EnergyBreakdown& e, uint64_t thread_instructions);

// "energy  1.23 mJ: 45.6 W, 789 pJ per thread instruction" under a launch (indented) or, for the
// run, the same line with the static share and a line of each component's share.
void print_launch_energy(std::ostream& os, const energy::EnergyBreakdown& e,
                         uint64_t thread_instructions);
void print_run_energy(std::ostream& os, const energy::EnergyBreakdown& e,
                      uint64_t thread_instructions);

}  // namespace gputlm::app
