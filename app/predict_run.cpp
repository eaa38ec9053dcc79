#include "app/predict_run.h"

#include "app/kernel_name.h"
#include "app/report.h"
#include "models/func/reference_executor.h"

namespace gputlm::app {

PredictRun predict_workload(workload::Workload& w, const gpu::GpuSpec& spec) {
  PredictRun run;
  run.workload = w.name();
  run.size = w.spec().size;
  run.config = spec.name;
  run.gpu = spec.analytical;
  func::ReferenceOptions options;
  options.max_warp_instructions = spec.max_warp_instructions;
  options.line_bytes = spec.core.l1d.line_bytes;
  options.count_local =
      spec.core.local_memory != "scratchpad";  // as the timing model's memory stage counts
  func::GlobalMemory memory;
  w.setup(memory);
  w.for_each_launch(memory, [&](const func::BoundKernel& bk, const func::Launch& launch) {
    const func::FuncStats s = func::run_reference(bk, launch, options);
    analytical::LaunchCounts c = launch_shape(spec, launch);
    c.warp_instructions = s.warp_instructions;
    c.coalesced_memory_instructions = s.coalesced_memory_instructions;
    c.uncoalesced_memory_instructions = s.uncoalesced_memory_instructions;
    c.uncoalesced_line_requests = s.uncoalesced_line_requests;
    c.barrier_instructions = s.barriers;
    run.launches.push_back({launch.kernel->name, c, predict_launch(spec, c)});
  });
  run.verify = w.verify(memory);
  return run;
}

nlohmann::json to_json(const PredictRun& run) {
  nlohmann::json j = {
      {"workload", run.workload}, {"size", run.size}, {"config", run.config}, {"mode", "predict"}};
  j["launches"] = nlohmann::json::array();
  for (const auto& l : run.launches)
    j["launches"].push_back({{"kernel", l.kernel},
                             {"kernel_demangled", demangled_kernel_name(l.kernel)},
                             {"mwp_cwp_prediction", to_json(l.prediction)}});
  j["verify"] = to_json(run.verify);
  return j;
}

void print_predict(std::ostream& os, const PredictRun& run) {
  os << "workload            " << run.workload << " (size " << run.size << ") on " << run.config
     << ": MWP/CWP model (Hong & Kim, ISCA 2009), inputs from the functional engine\n";
  for (const auto& l : run.launches) {
    os << "launch " << demangled_kernel_name(l.kernel) << "\n";
    print_prediction(os, run.gpu, l.prediction);
  }
  print_verify(os, run.verify);
}

}  // namespace gputlm::app
