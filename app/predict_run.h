// `gputlm predict`: the MWP/CWP model's prediction for every launch of a workload on a GPU config,
// without the timing model. The functional engine runs each launch and counts what the model
// needs (per-thread instructions, memory instructions by the lines they touch at the config's L1
// line size, barriers); occupancy comes from the core's CTA limits (sm::ctas_fitting), the GPU's
// constants from the config (GpuSpec::analytical). The outputs are still checked against the
// reference.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/prediction.h"
#include "io/workload/workload.h"
#include "models/gpu/gpu_spec.h"

namespace gputlm::app {

struct PredictedLaunch {
  std::string kernel;
  analytical::LaunchCounts counts;
  Prediction prediction;
};

struct PredictRun {
  std::string workload, size, config;
  analytical::GpuParams gpu;
  std::vector<PredictedLaunch> launches;
  workload::VerifyReport verify;
};

PredictRun predict_workload(workload::Workload& w, const gpu::GpuSpec& spec);
nlohmann::json to_json(const PredictRun& run);
void print_predict(std::ostream& os, const PredictRun& run);

}  // namespace gputlm::app
