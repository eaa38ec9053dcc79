// Device malloc and free through gputlm's runtime (CUDA programming guide, "Dynamic Global Memory
// Allocation and Operations"): the heap sized with cudaDeviceSetLimit before the first kernel that
// uses it, a block per thread written by one kernel and read back by a second, freed by a third,
// NULL once the heap is exhausted, and the limit fixed after the first such launch; and the
// limits cudaDeviceSetLimit only stores.
#include <cstdio>

#include "cuda_check.h"

constexpr int kInts = 16;  // per thread: 64 bytes

__global__ void fill(int** blocks) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = static_cast<int*>(malloc(kInts * sizeof(int)));
  blocks[t] = p;
  if (p)
    for (int i = 0; i < kInts; ++i) p[i] = t * 1000 + i;
}

__global__ void sum(int* const* blocks, int* sums) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int* p = blocks[t];
  int s = -1;
  if (p) {
    s = 0;
    for (int i = 0; i < kInts; ++i) s += p[i];
  }
  sums[t] = s;
}

__global__ void release(int** blocks) { free(blocks[blockIdx.x * blockDim.x + threadIdx.x]); }

int main() {
  const int threads = 64, fit = 48;  // the heap holds 48 blocks of 64 bytes
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, fit * kInts * sizeof(int)));
  size_t heap = 0;
  CUDA_CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  // A limit that is only stored reads back what was set; one CUDA does not have is unsupported.
  size_t stack = 0;
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  CUDA_CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  const bool unsupported =
      cudaDeviceSetLimit(static_cast<cudaLimit>(99), 1) == cudaErrorUnsupportedLimit;
  (void)cudaGetLastError();  // clears that error
  int** blocks;
  int* sums;
  CUDA_CHECK(cudaMalloc(&blocks, threads * sizeof(int*)));
  CUDA_CHECK(cudaMalloc(&sums, threads * sizeof(int)));
  fill<<<2, 32>>>(blocks);
  CUDA_CHECK(cudaGetLastError());
  sum<<<2, 32>>>(blocks, sums);
  int h[threads];
  CUDA_CHECK(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
  int allocated = 0, bad = 0;
  for (int t = 0; t < threads; ++t) {
    if (h[t] == -1) continue;
    ++allocated;
    bad += h[t] != t * 1000 * kInts + kInts * (kInts - 1) / 2;
  }
  const bool frozen = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaErrorInvalidValue;
  release<<<2, 32>>>(blocks);
  fill<<<2, 32>>>(blocks);  // everything was freed: the same number of blocks fits again
  sum<<<2, 32>>>(blocks, sums);
  CUDA_CHECK(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
  int again = 0;
  for (int t = 0; t < threads; ++t) again += h[t] != -1;
  release<<<2, 32>>>(blocks);
  CUDA_CHECK(cudaDeviceSynchronize());
  const bool ok = heap == fit * kInts * sizeof(int) && stack == 4096 && unsupported &&
                  allocated == fit && bad == 0 && frozen && again == fit;
  std::printf(
      "device_malloc: %s (heap %zu bytes, %d of %d threads got a block, %d after freeing)\n",
      ok ? "PASSED" : "FAILED", heap, allocated, threads, again);
  return ok ? 0 : 1;
}
