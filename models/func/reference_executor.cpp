#include "models/func/reference_executor.h"

#include "models/func/cta_runner.h"

namespace gputlm::func {

FuncStats run_reference(const BoundKernel& kernel, const Launch& launch, const ReferenceOptions& options) {
  FuncStats stats;
  const uint64_t ctas = launch.grid.count();
  for (uint64_t id = 0; id < ctas && !(options.stop && options.stop()); ++id) {
    CtaRunner cta(kernel, launch, id);
    cta.count_lines(options.line_bytes, options.count_local);
    stats.ctas += 1;
    stats.warps += cta.warps().size();
    cta.run(stats, options.max_warp_instructions);
  }
  return stats;
}

}  // namespace gputlm::func
