#include "models/func/reference_executor.h"

#include <memory>
#include <vector>

#include "models/func/cta_runner.h"

namespace gputlm::func {

namespace {

// A cooperative launch (every CTA resident at once, grid.sync() spinning on the grid workspace
// until all have arrived): the CTAs take turns of kQuantum warp instructions, in order, so a CTA
// that waits on the others lets them run. The quantum is a choice of this model; the results do
// not depend on it for a race-free kernel.
constexpr uint64_t kQuantum = 256;

FuncStats run_interleaved(const BoundKernel& kernel, const Launch& launch, const ReferenceOptions& options) {
  FuncStats stats;
  std::vector<std::unique_ptr<CtaRunner>> ctas;
  for (uint64_t id = 0; id < launch.grid.count(); ++id) {
    ctas.push_back(std::make_unique<CtaRunner>(kernel, launch, id));
    ctas.back()->count_lines(options.line_bytes, options.count_local);
    stats.ctas += 1;
    stats.warps += ctas.back()->warps().size();
  }
  for (size_t running = ctas.size(); running && !(options.stop && options.stop());) {
    running = 0;
    for (auto& cta : ctas) {
      if (cta->done()) continue;
      cta->run(stats, options.max_warp_instructions, kQuantum);
      running += !cta->done();
    }
  }
  return stats;
}

}  // namespace

FuncStats run_reference(const BoundKernel& kernel, const Launch& launch, const ReferenceOptions& options) {
  if (launch.grid_workspace) return run_interleaved(kernel, launch, options);
  FuncStats stats;
  const uint64_t ctas = launch.grid.count();
  if (ctas == 0) return stats;
  CtaRunner cta(kernel, launch, 0);  // one runner, restarted for each CTA in turn
  cta.count_lines(options.line_bytes, options.count_local);
  for (uint64_t id = 0; id < ctas && !(options.stop && options.stop()); ++id) {
    if (id) cta.restart(id);
    stats.ctas += 1;
    stats.warps += cta.warps().size();
    cta.run(stats, options.max_warp_instructions);
  }
  return stats;
}

}  // namespace gputlm::func
