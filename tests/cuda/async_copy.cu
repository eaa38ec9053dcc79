// Asynchronous copies from global to shared memory as sm_80 programs write them (PTX ISA 9.7.9.25
// cp.async, 9.7.13.15 mbarrier):
//   1. tile_row_sums: each block walks its rows of a matrix tile by tile, double-buffered through
//      shared memory with __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior
//      (cp.async.ca + commit_group + wait_group), and reduces each tile row with
//      __reduce_add_sync (redux.sync).
//   2. barrier_scale: cuda::memcpy_async into shared memory completed through a cuda::barrier
//      (cp.async + cp.async.mbarrier.arrive + mbarrier.arrive/test_wait).
//   3. group_copy: cooperative_groups::memcpy_async + cg::wait.
// The host checks every result.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>
#include <cuda/barrier>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kCols = 256;  // matrix columns; a tile is 32 rows x 32 columns
constexpr int kTile = 32;
constexpr int kRowsPerBlock =
    32;  // one warp per row of the tile: blockDim = 32 x 8, each warp 4 rows

// sums[row] = sum of the row, accumulated tile by tile.
__global__ void tile_row_sums(const int* m, int* sums) {
  __shared__ __align__(16) int tile[2][kTile][kTile];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int row0 = blockIdx.x * kRowsPerBlock;
  auto load_tile = [&](int buf, int t) {
    for (int r = warp; r < kTile; r += blockDim.y)
      __pipeline_memcpy_async(&tile[buf][r][lane], &m[(row0 + r) * kCols + t * kTile + lane],
                              sizeof(int));
    __pipeline_commit();
  };
  int acc[kTile / 8] = {0, 0, 0, 0};
  const int tiles = kCols / kTile;
  load_tile(0, 0);
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      load_tile((t + 1) & 1, t + 1);
      __pipeline_wait_prior(1);  // tile t is in; tile t+1 may still be in flight
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    for (int i = 0, r = warp; r < kTile; r += blockDim.y, ++i)
      acc[i] += __reduce_add_sync(0xffffffffu, tile[t & 1][r][lane]);
    __syncthreads();  // the buffer is refilled by the next iteration's copy
  }
  if (lane == 0)
    for (int i = 0, r = warp; r < kTile; r += blockDim.y, ++i) sums[row0 + r] = acc[i];
}

// A __shared__ cuda::barrier is set up by init(), not by a constructor (as CUDA's own samples do).
#pragma nv_diag_suppress 20054

// out[i] = 3 * in[i] + blockIdx.x, the block's slice staged through shared memory.
__global__ void barrier_scale(const int* in, int* out) {
  __shared__ __align__(16) int buf[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int* src = in + blockIdx.x * 256;
  cuda::memcpy_async(&buf[threadIdx.x], &src[threadIdx.x], sizeof(int), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 256 + threadIdx.x] = 3 * buf[(threadIdx.x + 1) % 256] + blockIdx.x;
}

// out[i] = in[i] reversed within the block's slice, copied by the whole block.
__global__ void group_copy(const int* in, int* out) {
  __shared__ __align__(16) int buf[256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(int) * 256);
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x];
}

int main() {
  bool ok = true;
  {
    const int rows = 64;
    std::vector<int> m(rows * kCols), sums(rows, -1);
    for (int i = 0; i < rows * kCols; ++i) m[i] = (i * 37) % 101 - 50;
    int *dm, *ds;
    CUDA_CHECK(cudaMalloc(&dm, m.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&ds, sums.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dm, m.data(), m.size() * sizeof(int), cudaMemcpyHostToDevice));
    tile_row_sums<<<rows / kRowsPerBlock, dim3(32, 8)>>>(dm, ds);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sums.data(), ds, sums.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r) {
      int want = 0;
      for (int c = 0; c < kCols; ++c) want += m[r * kCols + c];
      if (sums[r] != want) {
        if (ok) std::printf("tile_row_sums: row %d: %d, want %d\n", r, sums[r], want);
        ok = false;
      }
    }
    CUDA_CHECK(cudaFree(dm));
    CUDA_CHECK(cudaFree(ds));
  }
  const int blocks = 3, n = blocks * 256;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7 - 300;
  int *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  barrier_scale<<<blocks, 256>>>(din, dout);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 256; ++t) {
      const int want = 3 * in[b * 256 + (t + 1) % 256] + b;
      if (out[b * 256 + t] != want) {
        if (ok)
          std::printf("barrier_scale: [%d]: %d, want %d\n", b * 256 + t, out[b * 256 + t], want);
        ok = false;
      }
    }
  group_copy<<<blocks, 256>>>(din, dout);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 256; ++t)
      if (out[b * 256 + t] != in[b * 256 + 255 - t]) {
        if (ok)
          std::printf("group_copy: [%d]: %d, want %d\n", b * 256 + t, out[b * 256 + t],
                      in[b * 256 + 255 - t]);
        ok = false;
      }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  std::printf("async_copy: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
