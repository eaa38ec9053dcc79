// Thread block clusters as sm_90 programs use them (CUDA C++ Programming Guide, "Thread Block
// Clusters" and "Distributed Shared Memory"; PTX ISA 9.7.13.3 barrier.cluster, 9.7.9.18 mapa,
// 9.7.9.19 getctarank), built with -arch=sm_90:
//   1. ring: __cluster_dims__(4, 1, 1); each block reads its neighbour's shared memory after
//      cluster.sync(), and reports where it is (cluster index, rank, cluster shape).
//   2. histogram: cudaLaunchKernelEx with a cluster of 2; the bins live in the cluster's shared
//      memory, split between its blocks, and every block adds to both with atomics.
//   3. split_barrier: barrier_arrive() and barrier_wait() with work between, query_shared_rank()
//      of a mapped pointer, and a block that exits early (exited threads count as arrived).
//   4. the launch errors CUDA documents: a grid that is not a whole number of clusters, 9 blocks
//      per cluster without the non-portable attribute, a size that differs from __cluster_dims__.
// The host checks every result.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kThreads = 64;

// out[i] = the neighbour's element + 1000 * its rank; where[block] = cluster index * 100 +
// rank * 10 + blocks per cluster.
__global__ void __cluster_dims__(4, 1, 1) ring(const int* in, int* out, int* where) {
  __shared__ int v[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  v[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + 1000 * rank;
  cluster.sync();
  const int* next = cluster.map_shared_rank(v, (rank + 1) % cluster.num_blocks());
  out[blockIdx.x * blockDim.x + threadIdx.x] = next[threadIdx.x];
  if (threadIdx.x == 0)
    where[blockIdx.x] =
        __clusterIdx().x * 100 + cluster.block_index().x * 10 + cluster.dim_blocks().x;
  cluster.sync();  // the neighbour's shared memory stays until everyone has read it
}

// bins[b] counts the elements with in[i] % 64 == b; bins 0-31 live in rank 0, 32-63 in rank 1,
// summed over the clusters into out.
__global__ void histogram(const int* in, int n, int* out) {
  extern __shared__ int bins[];
  cg::cluster_group cluster = cg::this_cluster();
  for (int i = threadIdx.x; i < 32; i += blockDim.x) bins[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int b = in[i] % 64;
    atomicAdd(cluster.map_shared_rank(bins, b / 32) + b % 32, 1);
  }
  cluster.sync();
  for (int i = threadIdx.x; i < 32; i += blockDim.x)
    atomicAdd(&out[cluster.block_rank() * 32 + i], bins[i]);
}

// Rank 3 of each cluster of 4 leaves at once; the others arrive, do their own work, wait, then
// read rank (r + 1) % 3's value and the rank its address maps to.
__global__ void __cluster_dims__(4, 1, 1) split_barrier(int* out) {
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (rank == 3) return;
  if (threadIdx.x == 0) mine = 7 * (blockIdx.x + 1);
  cluster.barrier_arrive();
  int work = 0;
  for (int i = 0; i < 100; ++i) work += i * threadIdx.x % 7;
  cluster.barrier_wait();
  int* theirs = cluster.map_shared_rank(&mine, (rank + 1) % 3);
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      *theirs * 1000 + static_cast<int>(cluster.query_shared_rank(theirs)) * 100 + work % 10;
  cluster.sync();
}

int main() {
  int bad = 0;
  const int blocks = 8, n = blocks * kThreads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i * 7 % 113;
  int *in, *out, *where, *bins;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&where, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&bins, 64 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaFuncAttributes fa;
  CUDA_CHECK(cudaFuncGetAttributes(&fa, ring));
  if (fa.requiredClusterWidth != 4 || fa.requiredClusterHeight != 1 ||
      fa.requiredClusterDepth != 1) {
    printf("clusters: ring's required cluster %dx%dx%d, want 4x1x1\n", fa.requiredClusterWidth,
           fa.requiredClusterHeight, fa.requiredClusterDepth);
    ++bad;
  }

  ring<<<blocks, kThreads>>>(in, out, where);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> got(n), got_where(blocks);
  CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_where.data(), where, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const int b = i / kThreads, r = b % 4, next = b - r + (r + 1) % 4;
    const int want = h[next * kThreads + i % kThreads] + 1000 * ((r + 1) % 4);
    if (got[i] != want && bad++ < 5) printf("clusters: ring %d: %d, want %d\n", i, got[i], want);
  }
  for (int b = 0; b < blocks; ++b)
    if (got_where[b] != (b / 4) * 100 + (b % 4) * 10 + 4 && bad++ < 10)
      printf("clusters: ring block %d at %d\n", b, got_where[b]);

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = 32 * sizeof(int);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CUDA_CHECK(cudaMemset(bins, 0, 64 * sizeof(int)));
  CUDA_CHECK(cudaLaunchKernelEx(&cfg, histogram, static_cast<const int*>(in), n, bins));
  std::vector<int> got_bins(64), want_bins(64, 0);
  CUDA_CHECK(cudaMemcpy(got_bins.data(), bins, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ++want_bins[h[i] % 64];
  for (int b = 0; b < 64; ++b)
    if (got_bins[b] != want_bins[b] && bad++ < 10)
      printf("clusters: bin %d: %d, want %d\n", b, got_bins[b], want_bins[b]);

  split_barrier<<<blocks, kThreads>>>(out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const int b = i / kThreads, r = b % 4, t = i % kThreads;
    if (r == 3) continue;
    int work = 0;
    for (int k = 0; k < 100; ++k) work += k * t % 7;
    const int peer = (r + 1) % 3, want = 7 * (b - r + peer + 1) * 1000 + peer * 100 + work % 10;
    if (got[i] != want && bad++ < 10)
      printf("clusters: split_barrier %d: %d, want %d\n", i, got[i], want);
  }

  // Misconfigured clusters: cudaErrorInvalidClusterSize, which the program reads and goes on.
  cfg.gridDim = dim3(7);  // not a whole number of clusters of 2
  cudaError_t e = cudaLaunchKernelEx(&cfg, histogram, static_cast<const int*>(in), n, bins);
  if (e != cudaErrorInvalidClusterSize && bad++ < 20)
    printf("clusters: 7 blocks in clusters of 2: %s\n", cudaGetErrorName(e));
  cfg.gridDim = dim3(9);
  attr[0].val.clusterDim.x = 9;  // more than the portable 8
  e = cudaLaunchKernelEx(&cfg, histogram, static_cast<const int*>(in), n, bins);
  if (e != cudaErrorInvalidClusterSize && bad++ < 20)
    printf("clusters: a cluster of 9: %s\n", cudaGetErrorName(e));
  cfg.gridDim = dim3(8);
  attr[0].val.clusterDim.x = 2;  // ring's own size is 4
  e = cudaLaunchKernelEx(&cfg, ring, static_cast<const int*>(in), out, where);
  if (e != cudaErrorInvalidClusterSize && bad++ < 20)
    printf("clusters: ring in clusters of 2: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFree(where));
  CUDA_CHECK(cudaFree(bins));
  printf("clusters: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
