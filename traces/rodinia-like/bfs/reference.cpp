// Input generator and CPU reference for rodinia-like/bfs.
//
// Generator: a random directed graph of `nodes` vertices (even) with exactly 6 * nodes edges in
// CSR form, like Rodinia's graph1MW_6 (mean out-degree 6), every vertex reachable from the
// source (vertex 0): io/workload/random_graph.h with mean 6 (degrees 1..11).
// Initial state as the Rodinia host sets it: cost -1, except the source with cost 0, mask and
// visited set.
//
// Reference: the same two-step level loop on the CPU, run for as many levels as launch.json
// lists (size variable "levels"); it refuses an input that has not settled by the last level.
#include <algorithm>

#include "io/workload/random_graph.h"
#include "io/workload/reference.h"

GPUTLM_GENERATOR("rodinia-like/bfs") {
  auto& rng = ctx.rng();
  const size_t n = ctx.count("cost");
  const size_t m = ctx.count("edges");
  if (n < 2 || n % 2 != 0 || m != 6 * n || ctx.count("offsets") != n + 1)
    throw gputlm::InputError(
        "rodinia-like/bfs generator: needs an even vertex count >= 2, edges = 6 * nodes, "
        "offsets = nodes + 1");
  const gputlm::workload::CsrGraph g =
      gputlm::workload::random_reachable_graph(rng, n, 6);  // out-degrees 1..11
  const std::vector<int32_t> offsets(g.offsets.begin(), g.offsets.end()),
      edges(g.targets.begin(), g.targets.end());
  std::vector<int32_t> cost(n, -1);
  std::vector<uint8_t> mask(n, 0), visited(n, 0);
  cost[0] = 0;
  mask[0] = 1;
  visited[0] = 1;
  ctx.fill("offsets", offsets);
  ctx.fill("edges", edges);
  ctx.fill("cost", cost);
  ctx.fill("mask", mask);
  ctx.fill("visited", visited);
}

GPUTLM_REFERENCE("rodinia-like/bfs") {
  const auto offsets = ctx.input<int32_t>("offsets");
  const auto edges = ctx.input<int32_t>("edges");
  auto cost = ctx.input<int32_t>("cost");
  auto mask = ctx.input<uint8_t>("mask");
  auto visited = ctx.input<uint8_t>("visited");
  const size_t n = cost.size();
  const size_t levels = static_cast<size_t>(ctx.var("levels"));
  std::vector<uint8_t> updating(n, 0);
  std::vector<int32_t> changed(levels, 0);
  for (size_t level = 0; level < levels; ++level) {
    for (size_t v = 0; v < n; ++v) {  // expand the frontier
      if (!mask[v]) continue;
      mask[v] = 0;
      for (int32_t e = offsets[v]; e < offsets[v + 1]; ++e) {
        const size_t u = static_cast<size_t>(edges[static_cast<size_t>(e)]);
        if (!visited[u]) {
          cost[u] = cost[v] + 1;
          updating[u] = 1;
        }
      }
    }
    for (size_t v = 0; v < n; ++v) {  // the next frontier
      if (!updating[v]) continue;
      mask[v] = 1;
      visited[v] = 1;
      changed[level] = 1;
      updating[v] = 0;
    }
  }
  if (levels == 0 || changed[levels - 1] != 0)
    throw gputlm::InputError("rodinia-like/bfs: the search has not settled after " +
                             std::to_string(levels) + " levels; list more levels in launch.json");
  ctx.expect("cost", cost);
  ctx.expect("mask", mask);
  ctx.expect("updating", updating);
  ctx.expect("visited", visited);
  ctx.expect("changed", changed);
}
