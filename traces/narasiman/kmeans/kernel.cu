// k-means clustering of 1-D 8-bit points (MineBench kmeans, 1-D), one launch per iteration.
//
// Iteration `iter` (a launch parameter) first rebuilds the centroids it starts from: the initial
// ones, updated by the sums and counts that iterations 0..iter-1 accumulated (a cluster that got
// no point keeps its centroid). Centroids are 8.8 fixed point, new = (256 * sum + count / 2) / count.
// Then every thread assigns its points (grid-stride) to the nearest centroid, starting from the
// point's cluster of the previous iteration (cluster 0 in the first, when member[] holds 255): it
// walks up while the next centroid is strictly nearer, then down while the previous one is nearer
// or as near. 1-D centroids that start sorted stay sorted, so this finds the nearest one (the
// lowest index on ties). The walk lengths depend on the point, so the lanes of a warp leave the
// loops at different times: long walks in the first iteration, a step or two later on. It records
// the membership and whether it changed, and accumulates the point into per-CTA shared sums and
// counts with shared atomics. At the end each CTA adds its per-cluster totals to row `iter` of the
// global sums / counts and its membership changes to deltas[iter]. Integer atomics make every
// output independent of the order in which threads and CTAs run. CTA 0 also writes the centroids
// the iteration used to cents[iter * k + j]. Limits: k <= 64 (MAXK), n <= 65536 (the 32-bit sums).
#define MAXK 64

extern "C" __global__ void kmeans(const unsigned char* points, const unsigned* init_cents,
                                  unsigned* sums, unsigned* counts, unsigned* deltas,
                                  unsigned* cents, unsigned char* member, unsigned n, unsigned k,
                                  unsigned iter) {
  __shared__ unsigned scent[MAXK];
  __shared__ unsigned ssum[MAXK];
  __shared__ unsigned scnt[MAXK];
  __shared__ unsigned sdelta;
  const unsigned tid = threadIdx.x;

  for (unsigned j = tid; j < k; j += blockDim.x) {
    unsigned c = init_cents[j];
    for (unsigned it = 0; it < iter; ++it) {
      const unsigned cnt = counts[it * k + j];
      if (cnt != 0) c = (sums[it * k + j] * 256u + cnt / 2u) / cnt;
    }
    scent[j] = c;
    ssum[j] = 0;
    scnt[j] = 0;
    if (blockIdx.x == 0) cents[iter * k + j] = c;
  }
  if (tid == 0) sdelta = 0;
  __syncthreads();

  unsigned changed = 0;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += stride) {
    const unsigned p = points[i];
    const int pf = (int)(p << 8);
    const unsigned old = member[i];
    unsigned idx = old < k ? old : 0u;
    int best = abs(pf - (int)scent[idx]);
    while (idx + 1 < k) {
      const int d = abs(pf - (int)scent[idx + 1]);
      if (d >= best) break;
      best = d;
      ++idx;
    }
    while (idx > 0) {
      const int d = abs(pf - (int)scent[idx - 1]);
      if (d > best) break;
      best = d;
      --idx;
    }
    if (old != idx) {
      ++changed;
      member[i] = (unsigned char)idx;
    }
    atomicAdd(&ssum[idx], p);
    atomicAdd(&scnt[idx], 1u);
  }
  if (changed != 0) atomicAdd(&sdelta, changed);
  __syncthreads();

  for (unsigned j = tid; j < k; j += blockDim.x) {
    if (scnt[j] != 0) {
      atomicAdd(&sums[iter * k + j], ssum[j]);
      atomicAdd(&counts[iter * k + j], scnt[j]);
    }
  }
  if (tid == 0 && sdelta != 0) atomicAdd(&deltas[iter], sdelta);
}
