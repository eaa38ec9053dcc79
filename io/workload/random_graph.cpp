#include "io/workload/random_graph.h"

#include <stdexcept>
#include <utility>

namespace gputlm::workload {

CsrGraph random_reachable_graph(Rng& rng, size_t n, uint32_t mean) {
  if (n < 2 || n % 2 != 0 || mean < 1)
    throw std::invalid_argument(
        "random_reachable_graph: needs an even vertex count >= 2 and a mean degree >= 1");
  std::vector<uint32_t> degree(n);
  for (size_t i = 0; i < n; i += 2) {
    degree[i] = static_cast<uint32_t>(rng.uniform_int(1, 2 * int64_t{mean} - 1));
    degree[i + 1] = 2 * mean - degree[i];
  }
  for (size_t i = n - 1; i > 0; --i)
    std::swap(degree[i], degree[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i)))]);
  CsrGraph g;
  g.offsets.assign(n + 1, 0);
  for (size_t v = 0; v < n; ++v) g.offsets[v + 1] = g.offsets[v] + degree[v];

  constexpr uint32_t kFree = 0xffffffffu;
  g.targets.assign(g.offsets[n], kFree);
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  for (size_t i = n - 1; i > 1; --i)
    std::swap(order[i],
              order[1 + static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i) - 1))]);
  std::vector<uint32_t> free_slots;  // edge indices of placed vertices not yet given a target
  auto add_slots = [&](uint32_t v) {
    for (uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) free_slots.push_back(e);
  };
  add_slots(order[0]);
  for (size_t k = 1; k < n; ++k) {
    const size_t pick =
        static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(free_slots.size()) - 1));
    g.targets[free_slots[pick]] = order[k];
    free_slots[pick] = free_slots.back();
    free_slots.pop_back();
    add_slots(order[k]);
  }
  for (size_t v = 0; v < n; ++v)
    for (uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      if (g.targets[e] != kFree) continue;
      uint32_t u;
      do u = static_cast<uint32_t>(rng.uniform_int(0, static_cast<int64_t>(n) - 1));
      while (u == v);
      g.targets[e] = u;
    }
  return g;
}

}  // namespace gputlm::workload
