// Streams and events: two streams each copy their half in (pinned host buffers, cudaMemcpyAsync),
// scale it and copy it back; events around the work give the simulated time, which must be
// positive and add up (the whole span is the sum of its two parts).
#include "cuda_check.h"

__global__ void scale(float* x, float f, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
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
  for (unsigned i = 0; i < n; ++i) bad += host[i] != static_cast<float>(i) * (i < half ? 2.0f : 3.0f);
  const bool times_ok = first > 0 && second > 0 && total >= first + second - 1e-6f && total <= first + second + 1e-6f;
  for (auto& st : s) CUDA_CHECK(cudaStreamDestroy(st));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(middle));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFreeHost(host));
  CUDA_CHECK(cudaFree(dev));
  std::printf("streams_events: %s (n=%u, 2 streams, %.6f ms + %.6f ms = %.6f ms simulated)\n", !bad && times_ok ? "PASSED" : "FAILED", n,
              first, second, total);
  return !bad && times_ok ? 0 : 1;
}
