// Streams and events: two streams each copy their half in (pinned host buffers, cudaMemcpyAsync),
// scale it and copy it back; events around the work give the simulated time, which must be
// positive and add up (the whole span is the sum of its two parts). Then a kernel waits on a latch
// in pinned host memory that the host sets after launching it, as a GPU lets a program do (the
// launch waits in its stream until the host synchronises).
#include "cuda_check.h"

__global__ void scale(float* x, float f, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

__global__ void wait_for_host(volatile unsigned* latch, unsigned* seen) {
  while (*latch == 0) {}
  *seen = *latch;
}

int main() {
  const unsigned n = 4096, half = n / 2;
  float *host, *dev;
  CUDA_CHECK(cudaMallocHost(&host, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dev, n * sizeof(float)));
  for (unsigned i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  cudaStream_t s[2];
  cudaEvent_t start, middle, stop;
  for (auto& st : s) CUDA_CHECK(cudaStreamCreate(&st));
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&middle));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, s[0]));
  for (int k = 0; k < 2; ++k) {
    float* h = host + k * half;
    float* d = dev + k * half;
    CUDA_CHECK(cudaMemcpyAsync(d, h, half * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    scale<<<half / 256, 256, 0, s[k]>>>(d, 2.0f + k, half);
    CUDA_CHECK(cudaMemcpyAsync(h, d, half * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
    if (k == 0) CUDA_CHECK(cudaEventRecord(middle, s[0]));
  }
  CUDA_CHECK(cudaEventRecord(stop, s[1]));
  for (auto& st : s) CUDA_CHECK(cudaStreamSynchronize(st));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float first = 0, second = 0, total = 0;
  CUDA_CHECK(cudaEventElapsedTime(&first, start, middle));
  CUDA_CHECK(cudaEventElapsedTime(&second, middle, stop));
  CUDA_CHECK(cudaEventElapsedTime(&total, start, stop));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i)
    bad += host[i] != static_cast<float>(i) * (i < half ? 2.0f : 3.0f);
  const bool times_ok =
      first > 0 && second > 0 && total >= first + second - 1e-6f && total <= first + second + 1e-6f;
  unsigned *latch, *seen;
  CUDA_CHECK(cudaMallocHost(&latch, sizeof(unsigned)));
  CUDA_CHECK(cudaMallocManaged(&seen, sizeof(unsigned)));
  *latch = 0;
  *seen = 0;
  wait_for_host<<<1, 1, 0, s[1]>>>(latch, seen);
  *latch = 7;
  CUDA_CHECK(cudaStreamSynchronize(s[1]));
  const bool latch_ok = *seen == 7;
  CUDA_CHECK(cudaFreeHost(latch));
  CUDA_CHECK(cudaFree(seen));
  for (auto& st : s) CUDA_CHECK(cudaStreamDestroy(st));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(middle));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFreeHost(host));
  CUDA_CHECK(cudaFree(dev));
  const bool ok = !bad && times_ok && latch_ok;
  std::printf(
      "streams_events: %s (n=%u, 2 streams, %.6f ms + %.6f ms = %.6f ms simulated; host latch "
      "%s)\n",
      ok ? "PASSED" : "FAILED", n, first, second, total, latch_ok ? "seen" : "not seen");
  return ok ? 0 : 1;
}
