// Memory beyond cudaMalloc: managed memory the host and the kernel both use at one address,
// cudaMemGetInfo, cudaMemset, device-to-device copies, pitched 2D copies, cudaMemcpyDefault, and
// the errors a bad call returns (a host pointer given to cudaFree).
#include <vector>

#include "cuda_check.h"

__global__ void increment(int* x, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += static_cast<int>(i);
}

int main() {
  const unsigned n = 1000;
  unsigned bad = 0;
  int* managed;
  CUDA_CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
  for (unsigned i = 0; i < n; ++i) managed[i] = 7;
  increment<<<(n + 255) / 256, 256>>>(managed, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (unsigned i = 0; i < n; ++i) bad += managed[i] != 7 + static_cast<int>(i);

  size_t free_before = 0, free_after = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
  int *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(int)));
  CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
  bad += free_before - free_after < 2 * n * sizeof(int) || free_after >= total;
  CUDA_CHECK(cudaMemset(a, 0x01, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice));
  increment<<<(n + 255) / 256, 256>>>(b, n);
  std::vector<int> host(n);
  CUDA_CHECK(cudaMemcpy(host.data(), b, n * sizeof(int), cudaMemcpyDefault));
  for (unsigned i = 0; i < n; ++i) bad += host[i] != 0x01010101 + static_cast<int>(i);

  // A 10 x 6 block out of a 16-wide host matrix into a 12-wide device matrix and back.
  const unsigned w = 10, h = 6;
  std::vector<float> m(16 * h), back(16 * h, -1.0f);
  for (unsigned i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i);
  float* dm;
  CUDA_CHECK(cudaMalloc(&dm, 12 * h * sizeof(float)));
  CUDA_CHECK(cudaMemcpy2D(dm, 12 * sizeof(float), m.data(), 16 * sizeof(float), w * sizeof(float),
                          h, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy2DAsync(back.data(), 16 * sizeof(float), dm, 12 * sizeof(float),
                               w * sizeof(float), h, cudaMemcpyDeviceToHost, 0));
  for (unsigned r = 0; r < h; ++r)
    for (unsigned c = 0; c < 16; ++c) bad += back[r * 16 + c] != (c < w ? m[r * 16 + c] : -1.0f);

  const bool error_ok = cudaFree(host.data()) == cudaErrorInvalidValue &&
                        cudaGetLastError() == cudaErrorInvalidValue &&  // CUDA 13
                        cudaGetLastError() == cudaSuccess;
  CUDA_CHECK(cudaFree(managed));
  std::printf("memory_ops: %s (managed, memset, device copy, 2D copy of %ux%u, errors)\n",
              !bad && error_ok ? "PASSED" : "FAILED", w, h);
  return !bad && error_ok ? 0 : 1;
}
