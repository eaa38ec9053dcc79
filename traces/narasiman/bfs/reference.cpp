// Input generator and CPU reference for narasiman/bfs.
//
// Generator: a random directed graph of `nodes` nodes (even) and exactly 8 * nodes edges in CSR
// form, every node reachable from the source (node 0): io/workload/random_graph.h with mean
// out-degree 8 (degrees 1..15). cost starts at -1 except the source (0); mask_a holds only the
// source.
//
// Reference: the same level-synchronous BFS on the CPU; it gives the BFS depth of every node
// (-1 if unreachable). Both frontier masks end all zero.
#include <algorithm>

#include "io/workload/random_graph.h"
#include "io/workload/reference.h"

GPUTLM_GENERATOR("narasiman/bfs") {
  auto& rng = ctx.rng();
  const size_t n = ctx.count("cost");
  const size_t m = ctx.count("cols");
  if (n < 2 || n % 2 != 0 || m != 8 * n || ctx.count("row_offsets") != n + 1)
    throw gputlm::InputError(
        "narasiman/bfs generator: needs an even node count >= 2, cols = 8 * nodes "
        "and row_offsets = nodes + 1");

  const gputlm::workload::CsrGraph g =
      gputlm::workload::random_reachable_graph(rng, n, 8);  // out-degrees 1..15
  std::vector<int32_t> cost(n, -1);
  std::vector<uint8_t> mask_a(n, 0);
  cost[0] = 0;
  mask_a[0] = 1;
  ctx.fill("row_offsets", g.offsets);
  ctx.fill("cols", g.targets);
  ctx.fill("cost", cost);
  ctx.fill("mask_a", mask_a);
}

GPUTLM_REFERENCE("narasiman/bfs") {
  const auto row_offsets = ctx.input<uint32_t>("row_offsets");
  const auto cols = ctx.input<uint32_t>("cols");
  auto cost = ctx.input<int32_t>("cost");
  const auto mask_a = ctx.input<uint8_t>("mask_a");
  const size_t n = cost.size();

  // Level-synchronous, as the kernel: the frontier starts as mask_a; a level gives every unvisited
  // neighbour of the frontier the cost level + 1.
  std::vector<uint32_t> frontier;
  for (size_t v = 0; v < n; ++v)
    if (mask_a[v]) frontier.push_back(static_cast<uint32_t>(v));
  for (int32_t level = 0; !frontier.empty(); ++level) {
    std::vector<uint32_t> next;
    for (uint32_t v : frontier) {
      for (uint32_t e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
        const uint32_t u = cols[e];
        if (cost[u] < 0) {
          cost[u] = level + 1;
          next.push_back(u);
        }
      }
    }
    frontier = std::move(next);
  }
  ctx.expect("cost", cost);
  ctx.expect("mask_a", std::vector<uint8_t>(n, 0));
  ctx.expect("mask_b", std::vector<uint8_t>(n, 0));
}
