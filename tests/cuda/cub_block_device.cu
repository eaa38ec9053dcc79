// CUB's block primitives in a kernel (BlockLoad, BlockRadixSort, BlockReduce) and its device-wide
// algorithms (DeviceScan::InclusiveSum, DeviceRadixSort::SortKeys, DeviceReduce::Max), with their
// two-call temporary storage; each result checked on the host.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;

__global__ void sort_tiles(const int* in, int* out, int* sums) {
  using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
  using Reduce = cub::BlockReduce<int, kThreads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
    typename Reduce::TempStorage reduce;
  } temp;
  int items[kItems];
  Load(temp.load).Load(in + blockIdx.x * kTile, items);
  __syncthreads();
  Sort(temp.sort).Sort(items);
  __syncthreads();
  const int sum = Reduce(temp.reduce).Sum(items);
  for (int i = 0; i < kItems; ++i) out[blockIdx.x * kTile + threadIdx.x * kItems + i] = items[i];
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}

int main() {
  const int tiles = 3, n = tiles * kTile;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 1000 - 300;
  int *in, *out, *sums, *scan, *sorted, *max;
  CUDA_CHECK(cudaMalloc(&in, n * 4));
  CUDA_CHECK(cudaMalloc(&out, n * 4));
  CUDA_CHECK(cudaMalloc(&sums, tiles * 4));
  CUDA_CHECK(cudaMalloc(&scan, n * 4));
  CUDA_CHECK(cudaMalloc(&sorted, n * 4));
  CUDA_CHECK(cudaMalloc(&max, 4));
  CUDA_CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  sort_tiles<<<tiles, kThreads>>>(in, out, sums);
  CUDA_CHECK(cudaGetLastError());

  void* temp = nullptr;
  size_t bytes = 0, most = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, scan, n));
  most = std::max(most, bytes);
  CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, in, sorted, n));
  most = std::max(most, bytes);
  CUDA_CHECK(cub::DeviceReduce::Max(temp, bytes, in, max, n));
  most = std::max(most, bytes);
  CUDA_CHECK(cudaMalloc(&temp, most));
  bytes = most;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, scan, n));
  bytes = most;
  CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, in, sorted, n));
  bytes = most;
  CUDA_CHECK(cub::DeviceReduce::Max(temp, bytes, in, max, n));

  std::vector<int> o(n), s(tiles), sc(n), so(n);
  int m = 0;
  CUDA_CHECK(cudaMemcpy(o.data(), out, n * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(s.data(), sums, tiles * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(sc.data(), scan, n * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(so.data(), sorted, n * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&m, max, 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  long acc = 0;
  for (int t = 0; t < tiles; ++t) {
    std::vector<int> tile(h.begin() + t * kTile, h.begin() + (t + 1) * kTile);
    long tile_sum = 0;
    for (int x : tile) tile_sum += x;
    std::sort(tile.begin(), tile.end());
    ok = ok && std::equal(tile.begin(), tile.end(), o.begin() + t * kTile) && s[t] == tile_sum;
  }
  std::vector<int> all = h;
  std::sort(all.begin(), all.end());
  for (int i = 0; i < n; ++i) ok = ok && sc[i] == (acc += h[i]);
  ok = ok && so == all && m == all.back();
  std::printf("cub_block_device: %s (max %d, total %ld)\n", ok ? "PASSED" : "FAILED", m, acc);
  return ok ? 0 : 1;
}
