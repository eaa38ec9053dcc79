#include "models/func/reference_executor.h"

#include <memory>
#include <vector>

#include "models/func/cta_runner.h"

namespace gputlm::func {

namespace {

// CTAs that run together take turns of kQuantum warp instructions, in order, so a CTA that waits
// on the others lets them run: a cooperative launch (every CTA resident at once, grid.sync()
// spinning on the grid workspace until all have arrived) and the CTAs of one cluster (its barrier,
// each other's shared memory). The quantum is a choice of this model; the results do not depend
// on it for a race-free kernel.
constexpr uint64_t kQuantum = 256;

// Runs `ctas` to completion, taking turns; a round in which none of them executed an instruction
// is a cluster barrier that can never complete.
void run_together(const std::vector<std::unique_ptr<CtaRunner>>& ctas, FuncStats& stats,
                  const ReferenceOptions& options) {
  for (size_t running = ctas.size(); running && !(options.stop && options.stop());) {
    running = 0;
    const uint64_t before = stats.warp_instructions;
    const CtaRunner* waiting = nullptr;
    for (const auto& cta : ctas) {
      if (cta->done()) continue;
      cta->run(stats, options.max_warp_instructions, kQuantum);
      if (!cta->done()) ++running, waiting = cta.get();
    }
    if (running && stats.warp_instructions == before) waiting->cluster_deadlock();
  }
}

// A cooperative launch runs all its CTAs together; a launch with clusters one cluster after
// another.
FuncStats run_groups(const BoundKernel& kernel, const Launch& launch,
                     const ReferenceOptions& options) {
  FuncStats stats;
  const uint64_t total = launch.grid.count();
  const uint64_t group = launch.grid_workspace ? total : launch.cluster.count();
  const uint32_t per_cluster = static_cast<uint32_t>(launch.cluster.count());
  for (uint64_t first = 0; first < total && !(options.stop && options.stop()); first += group) {
    std::vector<std::unique_ptr<CtaRunner>> ctas;
    std::shared_ptr<ClusterState> cluster;
    for (uint64_t i = first; i < first + group; ++i) {
      ctas.push_back(std::make_unique<CtaRunner>(kernel, launch, launch.cta_in_order(i),
                                                 options.reconvergence));
      if (launch.clustered()) {
        if (i % per_cluster == 0)
          cluster =
              std::make_shared<ClusterState>(per_cluster, per_cluster * launch.threads_per_cta());
        ctas.back()->join_cluster(cluster);
      }
      ctas.back()->count_lines(options.line_bytes, options.count_local);
      stats.ctas += 1;
      stats.warps += ctas.back()->warps().size();
    }
    run_together(ctas, stats, options);
  }
  return stats;
}

}  // namespace

FuncStats run_reference(const BoundKernel& kernel, const Launch& launch,
                        const ReferenceOptions& options) {
  if (launch.grid_workspace || launch.clustered()) return run_groups(kernel, launch, options);
  FuncStats stats;
  const uint64_t ctas = launch.grid.count();
  if (ctas == 0) return stats;
  CtaRunner cta(kernel, launch, 0,
                options.reconvergence);  // one runner, restarted for each CTA in turn
  cta.count_lines(options.line_bytes, options.count_local);
  for (uint64_t id = 0; id < ctas && !(options.stop && options.stop()); ++id) {
    if (id) cta.restart(id);
    stats.ctas += 1;
    stats.warps += cta.warps().size();
    cta.run(stats, options.max_warp_instructions);
    if (!cta.done()) cta.cluster_deadlock();  // its barrier.cluster.wait: a cluster of one, alone
  }
  return stats;
}

}  // namespace gputlm::func
