// The MWP/CWP model (Hong & Kim, ISCA 2009) as an oracle beside a run: from one launch's counts
// (analytical::LaunchCounts, measured by a timing run or by the functional engine) and the GPU's
// model constants, the model's inputs, MWP, CWP, the case taken, predicted cycles and CPI, with
// the simulated figures next to them when there are any. Written once for `gputlm run` (every
// launch in the statistics and the summary) and `gputlm predict`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "models/analytical/mwp_cwp_model.h"
#include "models/analytical/run_inputs.h"
#include "models/func/launch.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::app {

struct Prediction {
  analytical::KernelInputs inputs;
  analytical::ModelResult result;
  std::string error;  // why the model could not be evaluated (empty: it was)
  bool ok() const { return error.empty(); }
  // Cycles with the synchronisation cost (Eq. 27) and the matching CPI.
  double cycles() const { return result.exec_cycles_with_synch; }
  double cpi() const { return result.cpi_with_synch; }
};

// What the model takes from a launch before it runs: its shape, the GPU's cores, how many of its
// CTAs a core holds (sm::ctas_fitting) and the L1 line a request moves; a run adds the counts.
analytical::LaunchCounts launch_shape(const gpu::GpuSpec& spec, const func::Launch& launch);

// The model with the GPU's constants and readings (GpuSpec::analytical, analytical_options). Never
// throws for inputs the model cannot take: the Prediction then carries the reason.
Prediction predict_launch(const gpu::GpuSpec& spec, const analytical::LaunchCounts& counts);

// The simulated CPI the model's Eq. 25 compares with: cycles over the warp instructions one active
// SM executed (all of them / #Active_SMs).
double simulated_cpi(const Prediction& p, uint64_t cycles, uint64_t warp_instructions);

// `simulated_cycles` = 0: a prediction alone (gputlm predict).
nlohmann::json to_json(const Prediction& p, uint64_t simulated_cycles = 0,
                       uint64_t warp_instructions = 0);
// One line (with the simulated figures) for a run's summary.
void print_prediction_line(std::ostream& os, const Prediction& p, uint64_t simulated_cycles,
                           uint64_t warp_instructions);
// The whole derivation: GPU constants, inputs, memory latency, MWP, CWP, case, cycles, CPI.
void print_prediction(std::ostream& os, const analytical::GpuParams& gpu, const Prediction& p);

}  // namespace gputlm::app
