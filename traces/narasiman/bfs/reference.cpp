// Input generator and CPU reference for narasiman/bfs.
//
// Generator: a random directed graph of `nodes` nodes (even) and exactly 8 * nodes edges in CSR
// form. Out-degrees are uniform in 1..15: half the nodes draw d, the other half get 16 - d, and
// the list is shuffled, so the total is fixed (launch.json sizes "cols" as nodes * 8) while
// neighbouring nodes have unrelated degrees. Every node is reachable from the source (node 0): the
// nodes are added in random order and each one takes a random free out-edge slot of a node added
// before it (a random spanning tree of small depth); the remaining slots point at uniformly random
// other nodes. cost starts at -1 except the source (0); mask_a holds only the source.
//
// Reference: the same level-synchronous BFS on the CPU; it gives the BFS depth of every node
// (-1 if unreachable). Both frontier masks end all zero.
#include <algorithm>

#include "tb/workload/reference.h"

GPUTLM_GENERATOR("narasiman/bfs") {
  auto& rng = ctx.rng();
  const size_t n = ctx.count("cost");
  const size_t m = ctx.count("cols");
  if (n < 2 || n % 2 != 0 || m != 8 * n || ctx.count("row_offsets") != n + 1)
    throw gputlm::InputError("narasiman/bfs generator: needs an even node count >= 2, cols = 8 * nodes "
                             "and row_offsets = nodes + 1");

  // Out-degrees 1..15, summing to exactly 8 * n.
  std::vector<uint32_t> degree(n);
  for (size_t i = 0; i < n; i += 2) {
    degree[i] = static_cast<uint32_t>(rng.uniform_int(1, 15));
    degree[i + 1] = 16 - degree[i];
  }
  for (size_t i = n - 1; i > 0; --i)
    std::swap(degree[i], degree[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i)))]);

  std::vector<uint32_t> row_offsets(n + 1, 0);
  for (size_t v = 0; v < n; ++v) row_offsets[v + 1] = row_offsets[v] + degree[v];

  // Spanning tree: node order 0, then a random permutation of 1..n-1; each node takes a random free
  // slot among the nodes placed before it.
  constexpr uint32_t kFree = 0xffffffffu;
  std::vector<uint32_t> cols(m, kFree);
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  for (size_t i = n - 1; i > 1; --i)
    std::swap(order[i], order[1 + static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i) - 1))]);
  std::vector<uint32_t> free_slots;  // edge indices not yet used
  auto add_slots = [&](uint32_t v) {
    for (uint32_t e = row_offsets[v]; e < row_offsets[v + 1]; ++e) free_slots.push_back(e);
  };
  add_slots(order[0]);
  for (size_t k = 1; k < n; ++k) {
    const size_t pick = static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(free_slots.size()) - 1));
    cols[free_slots[pick]] = order[k];
    free_slots[pick] = free_slots.back();
    free_slots.pop_back();
    add_slots(order[k]);
  }
  // Remaining slots: random targets other than the node itself.
  for (size_t v = 0; v < n; ++v) {
    for (uint32_t e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
      if (cols[e] != kFree) continue;
      uint32_t u;
      do u = static_cast<uint32_t>(rng.uniform_int(0, static_cast<int64_t>(n) - 1));
      while (u == v);
      cols[e] = u;
    }
  }

  std::vector<int32_t> cost(n, -1);
  std::vector<uint8_t> mask_a(n, 0);
  cost[0] = 0;
  mask_a[0] = 1;
  ctx.fill("row_offsets", row_offsets);
  ctx.fill("cols", cols);
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
