// Cooperative groups across the whole grid (CUDA programming guide, "Grid Synchronization"): a
// kernel launched with cudaLaunchCooperativeKernel sums its input in three phases separated by
// grid.sync() (each block's partial sum; block 0's threads add the partials, a stride each, so that
// no thread waits on one load after another for every block; every thread scales its element
// by the total), run twice to show the grid barrier can be passed again. The grid is sized as the
// guide says, from the occupancy calculator and the SM count; one block more than fits is
// cudaErrorCooperativeLaunchTooLarge. The host checks every element exactly (integers).
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

namespace cg = cooperative_groups;

__global__ void normalise(const int* in, int* partial, long long* total, long long* out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int sum;
  if (block.thread_rank() == 0) sum = 0;
  block.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) atomicAdd(&sum, in[i]);
  block.sync();
  if (block.thread_rank() == 0) partial[blockIdx.x] = sum;
  grid.sync();            // every partial is written
  if (blockIdx.x == 0) {  // its threads add a stride of the partials each, then thread 0 theirs
    __shared__ long long part[128];
    long long t = 0;
    for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.size()) t += partial[b];
    part[block.thread_rank()] = t;
    block.sync();
    if (block.thread_rank() == 0) {
      for (unsigned i = 1; i < block.size(); ++i) t += part[i];
      *total = t;
    }
  }
  grid.sync();  // the total is written
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = in[i] * *total;
}

int main() {
  int device = 0, sms = 0, cooperative = 0, per_sm = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int threads = 128;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalise, threads, 0));
  if (!cooperative || per_sm < 1) {
    std::printf("grid_sync: FAILED (cooperative launch %d, %d blocks per SM)\n", cooperative,
                per_sm);
    return 1;
  }
  const int blocks = sms * per_sm, n = 3 * blocks * threads + 17;
  std::vector<int> h(n);
  long long expect_total = 0;
  for (int i = 0; i < n; ++i) expect_total += (h[i] = i % 13 - 5);
  int *in, *partial;
  long long *total, *out;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&partial, (blocks + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&total, sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int count = n;
  void* args[] = {&in, &partial, &total, &out, &count};
  for (int run = 0; run < 2; ++run) {
    CUDA_CHECK(cudaMemset(out, 0, n * sizeof(long long)));
    CUDA_CHECK(cudaLaunchCooperativeKernel((void*)normalise, blocks, threads, args, 0, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<long long> r(n);
    CUDA_CHECK(cudaMemcpy(r.data(), out, n * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (r[i] != h[i] * expect_total) {
        std::printf("grid_sync: FAILED run %d: out[%d] = %lld, expected %lld\n", run, i, r[i],
                    h[i] * expect_total);
        return 1;
      }
  }
  const cudaError_t too_large =
      cudaLaunchCooperativeKernel((void*)normalise, blocks + 1, threads, args, 0, 0);
  if (too_large != cudaErrorCooperativeLaunchTooLarge) {
    std::printf("grid_sync: FAILED: %d blocks launched cooperatively gave %s\n", blocks + 1,
                cudaGetErrorName(too_large));
    return 1;
  }
  cudaGetLastError();
  std::printf("grid_sync: %d blocks of %d threads, total %lld\ngrid_sync: PASSED\n", blocks,
              threads, expect_total);
  return 0;
}
