// alloca in device code (CUDA C++ since 12.x; PTX ISA 9.7.16 alloca, sm_52): each thread
// allocates a buffer of a size that depends on it on its own stack, fills it, calls a non-inlined
// device function that allocates and fills one of its own, and sums both; the host checks each
// thread's sum.
#include <alloca.h>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

__device__ __noinline__ int tail_sum(int n, int seed) {
  int* mine = static_cast<int*>(alloca(n * sizeof(int)));
  for (int i = 0; i < n; ++i) mine[i] = seed + i;
  int s = 0;
  for (int i = n - 1; i >= 0; --i) s += mine[i];
  return s;
}

__global__ void sums(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int n = 1 + t % 37;
  int* buf = static_cast<int*>(alloca(n * sizeof(int)));
  for (int i = 0; i < n; ++i) buf[i] = i * t;
  const int tail = tail_sum(n / 2 + 1, t);  // its frame and buffer go above buf
  int s = 0;
  for (int i = 0; i < n; ++i) s += buf[i];  // buf survived the call
  out[t] = s + tail;
}

int main() {
  const int blocks = 4, threads = 96, total = blocks * threads;
  int* out;
  CUDA_CHECK(cudaMalloc(&out, total * sizeof(int)));
  sums<<<blocks, threads>>>(out);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> got(total);
  CUDA_CHECK(cudaMemcpy(got.data(), out, total * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < total; ++t) {
    const int n = 1 + t % 37, m = n / 2 + 1;
    const int want = t * n * (n - 1) / 2 + m * t + m * (m - 1) / 2;
    if (got[t] != want && bad++ < 5) printf("alloca: thread %d: %d, want %d\n", t, got[t], want);
  }
  CUDA_CHECK(cudaFree(out));
  printf("alloca: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
