// Breadth-first search (Rodinia-style, level-synchronous) on a directed graph in CSR form:
// the out-neighbours of node v are cols[row_offsets[v] .. row_offsets[v+1]).
//
// One CTA walks the whole graph level by level, every level separated by __syncthreads():
//   - each thread takes nodes v = tid, tid + blockDim.x, ... and, if v is in the current frontier
//     (frontier[v] != 0), clears that flag and loops over v's neighbours; every neighbour u that is
//     still unvisited (cost[u] < 0) gets cost level + 1 and joins the next frontier;
//   - the two frontier masks then swap roles and the level advances, until a level adds no node.
// Races are benign: threads that discover the same node in one level all write the same cost
// (level + 1) and the same flag, so the result does not depend on their order. Nodes discovered in
// a level have cost level + 1 and are in the other mask, so they are not expanded in that level.
//
// Divergence: most lanes fail the frontier test, and frontier lanes loop a degree-dependent number
// of times and branch on whether each neighbour is new. Memory: neighbour lists and cost[u] are
// gathered from random places in arrays far larger than the L1.
//
// The generator sets cost = -1 everywhere except the source (0) and mask_a = the source only,
// mask_b = 0. Launch with exactly one CTA (gridDim.x == 1): the level barrier is __syncthreads().
extern "C" __global__ void bfs(const unsigned* row_offsets, const unsigned* cols, int* cost,
                               unsigned char* mask_a, unsigned char* mask_b, unsigned n) {
  __shared__ int s_changed;
  const unsigned tid = threadIdx.x;
  unsigned char* frontier = mask_a;
  unsigned char* next = mask_b;
  int level = 0;
  for (;;) {
    if (tid == 0) s_changed = 0;
    __syncthreads();  // the reset is seen before anyone can set the flag

    for (unsigned v = tid; v < n; v += blockDim.x) {
      if (frontier[v]) {
        frontier[v] = 0;
        const unsigned end = row_offsets[v + 1];
        for (unsigned e = row_offsets[v]; e < end; ++e) {
          const unsigned u = cols[e];
          if (cost[u] < 0) {
            cost[u] = level + 1;
            next[u] = 1;
            s_changed = 1;
          }
        }
      }
    }
    __syncthreads();  // the level is complete: cost, next and s_changed are final
    const int changed = s_changed;
    __syncthreads();  // everyone has read the flag before thread 0 resets it
    if (changed == 0) break;  // the same value in every thread: the CTA leaves together

    unsigned char* t = frontier;
    frontier = next;
    next = t;
    ++level;
  }
}
