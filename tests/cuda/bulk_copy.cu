// Bulk asynchronous copies as sm_90 programs write them (PTX ISA 9.7.9.25.4 cp.async.bulk,
// 9.7.13.15 mbarrier with transaction counts), built with -arch=sm_90:
//   1. tile_sums: cuda::memcpy_async of a 16-byte-aligned tile into shared memory with a
//      cuda::barrier (libcu++ emits
//      cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes and mbarrier.expect_tx),
//      then each thread sums a column of the tile.
//   2. scale_out: each block scales its tile in shared memory and writes it back to global memory
//      with cuda::ptx::cp_async_bulk (shared::cta to global, bulk_group), commit_group and
//      wait_group_read, after fence.proxy.async.
//   3. reduce_out: every block adds its tile into one global row and takes its minimum into another
//      with cuda::ptx::cp_reduce_async_bulk (cp.reduce.async.bulk .add.s32 / .min.u32, bulk_group).
//   4. cluster_sum: in clusters of 2, rank 1 adds its tile into rank 0's shared memory with
//      cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes; rank 0 waits
//      on its mbarrier and writes the sum out.
// The host checks every result.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/ptx>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kTile = 256;  // ints per block's tile (1 KB)
constexpr int kBlocks = 6;
constexpr int kThreads = 64;

#pragma nv_diag_suppress static_var_with_dynamic_init

// sums[b * kThreads + t] = the sum of tile b's elements t, t + 64, t + 128, t + 192.
__global__ void tile_sums(const int* src, int* sums) {
  __shared__ alignas(16) int tile[kTile];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    cuda::memcpy_async(tile, src + blockIdx.x * kTile, cuda::aligned_size_t<16>(sizeof(tile)), bar);
  bar.arrive_and_wait();
  int s = 0;
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) s += tile[i];
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// dst[b * kTile + i] = (b + 2) * src[b * kTile + i], written from shared memory by one bulk copy.
__global__ void scale_out(const int* src, int* dst) {
  __shared__ alignas(16) int tile[kTile];
  for (int i = threadIdx.x; i < kTile; i += blockDim.x)
    tile[i] = (blockIdx.x + 2) * src[blockIdx.x * kTile + i];
  cuda::ptx::fence_proxy_async(
      cuda::ptx::space_shared);  // the generic writes, seen by the async proxy
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             dst + blockIdx.x * kTile, tile, sizeof(tile));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
  }
}

// row_sum[i] += tile_b[i], row_min[i] = min(row_min[i], tile_b[i]) over every block b; tile_b[i] =
// src[b * kTile + i] + 100, non-negative.
__global__ void reduce_out(const int* src, int* row_sum, unsigned* row_min) {
  __shared__ alignas(16) int tile[kTile];
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] = src[blockIdx.x * kTile + i] + 100;
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_reduce_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                                    cuda::ptx::op_add, row_sum, tile, sizeof(tile));
    cuda::ptx::cp_reduce_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                                    cuda::ptx::op_min, row_min,
                                    reinterpret_cast<const unsigned*>(tile), sizeof(tile));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
  }
}

// out[c * kTile + i] = src[(2c) * kTile + i] + src[(2c + 1) * kTile + i] for cluster c.
__global__ void __cluster_dims__(2, 1, 1) cluster_sum(const int* src, int* out) {
  __shared__ alignas(16) int tile[kTile];
  __shared__ alignas(8) uint64_t bar;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] = src[blockIdx.x * kTile + i];
  if (rank == 0 && threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&bar, 1);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, sizeof(tile));
  }
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  cluster.sync();
  if (rank == 1 && threadIdx.x == 0)
    cuda::ptx::cp_reduce_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_shared,
                                    cuda::ptx::op_add, cluster.map_shared_rank(tile, 0), tile,
                                    sizeof(tile), cluster.map_shared_rank(&bar, 0));
  if (rank == 0) {
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0)) {}
    for (int i = threadIdx.x; i < kTile; i += blockDim.x) out[blockIdx.x / 2 * kTile + i] = tile[i];
  }
  cluster.sync();
}

int main() {
  const int n = kTile * kBlocks;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 101 - 50;
  int *src, *sums, *out;
  CUDA_CHECK(cudaMalloc(&src, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&sums, kBlocks * kThreads * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(src, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  tile_sums<<<kBlocks, kThreads>>>(src, sums);
  scale_out<<<kBlocks, kThreads>>>(src, out);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> got_sums(kBlocks * kThreads), got_out(n);
  CUDA_CHECK(
      cudaMemcpy(got_sums.data(), sums, got_sums.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_out.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      int want = 0;
      for (int i = t; i < kTile; i += kThreads) want += h[b * kTile + i];
      if (got_sums[b * kThreads + t] != want && bad++ < 5)
        printf("bulk_copy: tile_sums block %d thread %d: %d, want %d\n", b, t,
               got_sums[b * kThreads + t], want);
    }
  for (int i = 0; i < n; ++i)
    if (got_out[i] != (i / kTile + 2) * h[i] && bad++ < 10)
      printf("bulk_copy: scale_out %d: %d, want %d\n", i, got_out[i], (i / kTile + 2) * h[i]);
  // 3: one row of sums and minima over the blocks.
  int* row_sum;
  unsigned* row_min;
  CUDA_CHECK(cudaMalloc(&row_sum, kTile * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&row_min, kTile * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(row_sum, 0, kTile * sizeof(int)));
  CUDA_CHECK(cudaMemset(row_min, 0xff, kTile * sizeof(unsigned)));
  reduce_out<<<kBlocks, kThreads>>>(src, row_sum, row_min);
  std::vector<int> got_sum(kTile);
  std::vector<unsigned> got_min(kTile);
  CUDA_CHECK(cudaMemcpy(got_sum.data(), row_sum, kTile * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_min.data(), row_min, kTile * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kTile; ++i) {
    int want_sum = 0;
    unsigned want_min = ~0u;
    for (int b = 0; b < kBlocks; ++b) {
      want_sum += h[b * kTile + i] + 100;
      want_min = std::min(want_min, static_cast<unsigned>(h[b * kTile + i] + 100));
    }
    if ((got_sum[i] != want_sum || got_min[i] != want_min) && bad++ < 15)
      printf("bulk_copy: reduce_out %d: sum %d min %u, want %d %u\n", i, got_sum[i], got_min[i],
             want_sum, want_min);
  }
  // 4: pairs of tiles summed in a cluster's shared memory.
  cluster_sum<<<kBlocks, kThreads>>>(src, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got_out.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kBlocks / 2 * kTile; ++i) {
    const int c = i / kTile, k = i % kTile,
              want = h[2 * c * kTile + k] + h[(2 * c + 1) * kTile + k];
    if (got_out[i] != want && bad++ < 20)
      printf("bulk_copy: cluster_sum %d: %d, want %d\n", i, got_out[i], want);
  }
  CUDA_CHECK(cudaFree(row_sum));
  CUDA_CHECK(cudaFree(row_min));
  CUDA_CHECK(cudaFree(src));
  CUDA_CHECK(cudaFree(sums));
  CUDA_CHECK(cudaFree(out));
  printf("bulk_copy: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
