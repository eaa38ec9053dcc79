// Device printf through gputlm's runtime (CUDA programming guide, "Formatted Output"): several
// conversions from several threads and blocks, the text reaching stdout only when the host
// synchronises (cudaDeviceSynchronize, a blocking cudaMemcpy, program exit), printf's return value
// (the number of arguments parsed) and the FIFO's limit (cudaLimitPrintfFifoSize).
#include <cstdio>

#include "cuda_check.h"

__global__ void hello(float f, const char* word) {
  const unsigned t = threadIdx.x, b = blockIdx.x;
  printf("block %u thread %u: f=%.3f i=%05d x=%#x s=%s c=%c ll=%lld e=%e\n", b, t, f * t,
         b * 100 + t, 255 + t, word, 'a' + t, static_cast<long long>(b) << 33, 1e-3 * (t + 1));
}

__global__ void count(int* parsed) {
  parsed[threadIdx.x] =
      printf("%-4s|%4d|%+.1f\n", threadIdx.x ? "odd" : "even", threadIdx.x, -0.25 * threadIdx.x);
}

__global__ void bye() { printf("bye from the device\n"); }

int main() {
  size_t fifo = 0;
  CUDA_CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  std::printf("fifo %zu bytes\n", fifo);
  char* word;
  CUDA_CHECK(cudaMalloc(&word, 8));
  CUDA_CHECK(cudaMemcpy(word, "gpu", 4, cudaMemcpyHostToDevice));
  hello<<<2, 3>>>(1.5f, word);
  CUDA_CHECK(cudaGetLastError());
  std::printf(
      "host: launched\n");  // the device text is not out yet: it comes at the synchronisation
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("host: synchronised\n");
  int* parsed;
  CUDA_CHECK(cudaMalloc(&parsed, 2 * sizeof(int)));
  count<<<1, 2>>>(parsed);
  int h[2] = {0, 0};
  CUDA_CHECK(
      cudaMemcpy(h, parsed, sizeof h, cudaMemcpyDeviceToHost));  // a blocking copy flushes too
  std::printf("host: printf returned %d and %d\n", h[0], h[1]);
  CUDA_CHECK(cudaFree(parsed));
  CUDA_CHECK(cudaFree(word));
  if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096) != cudaErrorInvalidValue) {
    std::printf("printf: FAILED (the FIFO size changed after a kernel that prints)\n");
    return 1;
  }
  std::printf("printf: PASSED\n");
  bye<<<1, 1>>>();  // never synchronised: its text comes out at exit
  return 0;
}
