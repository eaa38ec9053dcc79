// Breadth-first search with the kernels of traces/rodinia-like/bfs, written as Rodinia's host code
// is: the graph in CSR form, the source in the frontier, then "launch bfs_kernel and bfs_kernel2,
// read the change flag back, stop when nothing changed" (the workload writes that loop out as a
// fixed 12 kernel pairs; here the loop runs as long as the search needs, one changed[] slot per
// level as bfs_kernel2 takes it, each read back after its level). The costs are checked against a
// host breadth-first search with a queue.
// The graph: n vertices, vertex v's out-edges go to v + 1 (a chain, so every vertex is reachable
// and the search takes n - 1 levels at most) and to `extra` pseudo-random vertices (xorshift32), so
// the depth is logarithmic-ish and the out-degrees vary with v.
// Usage: bfs [n] [extra] (default 4096 3).
#include <cstdint>
#include <queue>
#include <vector>

#include "../../traces/rodinia-like/bfs/kernel.cu"
#include "cuda_check.h"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int extra = argc > 2 ? std::atoi(argv[2]) : 3;
  std::vector<int> offsets(n + 1, 0), edges;
  uint32_t x = 2463534242u;
  for (int v = 0; v < n; ++v) {
    offsets[v] = static_cast<int>(edges.size());
    if (v + 1 < n) edges.push_back(v + 1);
    const int degree =
        extra > 0 ? static_cast<int>(v % (2 * extra + 1)) : 0;  // 0 .. 2 extra, mean extra
    for (int k = 0; k < degree; ++k) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      edges.push_back(static_cast<int>(x % static_cast<uint32_t>(n)));
    }
  }
  offsets[n] = static_cast<int>(edges.size());
  const int m = offsets[n];
  std::vector<unsigned char> mask(n, 0), visited(n, 0), updating(n, 0);
  std::vector<int> cost(n, -1);
  mask[0] = visited[0] = 1;
  cost[0] = 0;

  int *doffsets, *dedges, *dcost, *dchanged;
  unsigned char *dmask, *dupdating, *dvisited;
  CUDA_CHECK(cudaMalloc(&doffsets, (n + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dedges, m * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dmask, n));
  CUDA_CHECK(cudaMalloc(&dupdating, n));
  CUDA_CHECK(cudaMalloc(&dvisited, n));
  CUDA_CHECK(cudaMalloc(&dcost, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dchanged, n * sizeof(int)));  // one flag per level; n levels at most
  CUDA_CHECK(cudaMemcpy(doffsets, offsets.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dedges, edges.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dmask, mask.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dupdating, updating.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dvisited, visited.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dcost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dchanged, 0, n * sizeof(int)));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  int level = 0, changed = 0;
  do {  // Rodinia's host loop: a kernel pair, then the flag read back
    bfs_kernel<<<blocks, threads>>>(doffsets, dedges, dmask, dupdating, dvisited, dcost, n);
    bfs_kernel2<<<blocks, threads>>>(dmask, dupdating, dvisited, dchanged, level, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&changed, dchanged + level, sizeof(int), cudaMemcpyDeviceToHost));
    ++level;
  } while (changed && level < n);
  CUDA_CHECK(cudaMemcpy(cost.data(), dcost, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(visited.data(), dvisited, n, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(mask.data(), dmask, n, cudaMemcpyDeviceToHost));

  // The host's search: distances by a queue.
  std::vector<int> want(n, -1);
  std::queue<int> q;
  want[0] = 0;
  q.push(0);
  int depth = 0;
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    depth = want[v] > depth ? want[v] : depth;
    for (int e = offsets[v]; e < offsets[v + 1]; ++e)
      if (want[edges[e]] < 0) want[edges[e]] = want[v] + 1, q.push(edges[e]);
  }
  unsigned bad =
      changed != 0 || level != depth + 1;  // the last level (depth + 1) finds nothing new
  for (int v = 0; v < n; ++v)
    bad += cost[v] != want[v] || visited[v] != (want[v] >= 0) || mask[v] != 0;
  std::printf("bfs: %s (n=%d, m=%d, depth %d, %d kernel pairs)\n", bad ? "FAILED" : "PASSED", n, m,
              depth, level);
  return bad ? 1 : 0;
}
