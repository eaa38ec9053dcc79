// For workload generators: a random directed graph in CSR form in which every vertex is
// reachable from vertex 0 (the BFS workloads). Out-degrees are uniform in 1 .. 2*mean-1, drawn in
// pairs summing to 2*mean and shuffled, so the edge count is exactly mean * vertices while
// neighbouring vertices have unrelated degrees. The vertices are added in random order, each one
// taking a random free out-edge slot of a vertex added before it (a random spanning tree of small
// depth); the remaining slots point at uniformly random other vertices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/workload/rng.h"

namespace gputlm::workload {

struct CsrGraph {
  std::vector<uint32_t> offsets;  // vertices + 1
  std::vector<uint32_t> targets;  // mean * vertices
};

// `vertices` must be even and at least 2, `mean` at least 1.
CsrGraph random_reachable_graph(Rng& rng, size_t vertices, uint32_t mean);

}  // namespace gputlm::workload
