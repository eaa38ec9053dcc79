// Bulk asynchronous copies as sm_90 programs write them (PTX ISA 9.7.9.25.4 cp.async.bulk,
// 9.7.13.15 mbarrier with transaction counts), built with -arch=sm_90:
//   1. tile_sums: cuda::memcpy_async of a 16-byte-aligned tile into shared memory with a
//      cuda::barrier (libcu++ emits cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
//      and mbarrier.expect_tx), then each thread sums a column of the tile.
//   2. scale_out: each block scales its tile in shared memory and writes it back to global memory
//      with cuda::ptx::cp_async_bulk (shared::cta to global, bulk_group), commit_group and
//      wait_group_read, after fence.proxy.async.
// The host checks every result.
#include <cuda/barrier>
#include <cuda/ptx>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

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
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] = (blockIdx.x + 2) * src[blockIdx.x * kTile + i];
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the generic writes, seen by the async proxy
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, dst + blockIdx.x * kTile, tile, sizeof(tile));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
  }
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
  CUDA_CHECK(cudaMemcpy(got_sums.data(), sums, got_sums.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_out.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      int want = 0;
      for (int i = t; i < kTile; i += kThreads) want += h[b * kTile + i];
      if (got_sums[b * kThreads + t] != want && bad++ < 5)
        printf("bulk_copy: tile_sums block %d thread %d: %d, want %d\n", b, t, got_sums[b * kThreads + t], want);
    }
  for (int i = 0; i < n; ++i)
    if (got_out[i] != (i / kTile + 2) * h[i] && bad++ < 10) printf("bulk_copy: scale_out %d: %d, want %d\n", i, got_out[i], (i / kTile + 2) * h[i]);
  CUDA_CHECK(cudaFree(src));
  CUDA_CHECK(cudaFree(sums));
  CUDA_CHECK(cudaFree(out));
  printf("bulk_copy: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
