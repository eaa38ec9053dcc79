// Four host threads each allocate, copy, launch with <<<>>> (configurations are per thread) and
// check their own vectors at the same time: the runtime lets their calls take turns.
#include <thread>
#include <vector>

#include "cuda_check.h"

__global__ void axpy(float a, const float* x, float* y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

static unsigned work(unsigned t) {
  const unsigned n = 1000 + 100 * t;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(t);
  }
  float *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int r = 0; r < 3; ++r)
    axpy<<<(n + 63) / 64 + t, 64 + 32 * t>>>(static_cast<float>(t + 1), dx, dy, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i)
    bad += y[i] != static_cast<float>(t) + 3.0f * static_cast<float>(t + 1) * static_cast<float>(i);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  return bad;
}

int main() {
  unsigned bad[4] = {0, 0, 0, 0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 4; ++t) threads.emplace_back([t, &bad] { bad[t] = work(t); });
  for (auto& th : threads) th.join();
  const unsigned total = bad[0] + bad[1] + bad[2] + bad[3];
  std::printf("host_threads: %s (4 threads, 3 launches each)\n", total ? "FAILED" : "PASSED");
  return total ? 1 : 0;
}
