// Breadth-first search (Rodinia-like): the two-kernel, level-synchronous formulation with one
// thread per vertex on a directed graph in CSR form (the out-neighbours of v are
// edges[offsets[v] .. offsets[v + 1])).
//
// The host repeats bfs_kernel then bfs_kernel2 until a level changes nothing:
//   bfs_kernel  - every vertex in the frontier (mask set) leaves it and looks at its neighbours;
//                 a neighbour not yet visited gets cost = cost[v] + 1 and its updating flag set.
//                 visited is only read here, so which threads reach which branch does not depend
//                 on timing (several frontier vertices may write the same neighbour's cost, all
//                 with the same value);
//   bfs_kernel2 - every vertex with its updating flag set moves into the frontier, becomes
//                 visited and raises the "something changed" flag of this level, changed[level].
// launch.json has no data-dependent loop, so it lists a fixed number of levels (see "scaling");
// the levels after the search has settled find empty masks and leave changed[level] at 0.
extern "C" __global__ void bfs_kernel(const int* offsets, const int* edges, unsigned char* mask,
                                      unsigned char* updating, const unsigned char* visited, int* cost,
                                      int nvertices) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nvertices && mask[v]) {
    mask[v] = 0;
    const int level_cost = cost[v] + 1;
    const int first = offsets[v];
    const int last = offsets[v + 1];
#pragma unroll 1
    for (int e = first; e < last; ++e) {
      const int u = edges[e];
      if (!visited[u]) {
        cost[u] = level_cost;
        updating[u] = 1;
      }
    }
  }
}

extern "C" __global__ void bfs_kernel2(unsigned char* mask, unsigned char* updating, unsigned char* visited,
                                       int* changed, int level, int nvertices) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nvertices && updating[v]) {
    mask[v] = 1;
    visited[v] = 1;
    changed[level] = 1;
    updating[v] = 0;
  }
}
