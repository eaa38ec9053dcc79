// Device functions that stay calls in PTX (.func and call): a __noinline__ helper, a recursive
// one, and math library functions; checked against the host. Built also with -G
// (device_calls_debug), where even sinf and expf stay out-of-line calls.
#include <cmath>

#include "cuda_check.h"

__device__ __noinline__ float mix(float a, float b, float t) { return a + (b - a) * t; }

__device__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__global__ void calls(float* out, unsigned* fibs, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = mix(sinf(0.01f * i), expf(-0.001f * i), 0.25f);
  fibs[i] = fib(i % 12);
}

int main() {
  const unsigned n = 256;
  float* dout;
  unsigned* dfib;
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dfib, n * sizeof(unsigned)));
  calls<<<1, n>>>(dout, dfib, n);
  CUDA_CHECK(cudaGetLastError());
  float out[n];
  unsigned fibs[n];
  CUDA_CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(fibs, dfib, sizeof fibs, cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  const unsigned want_fib[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (unsigned i = 0; i < n; ++i) {
    const float a = std::sin(0.01f * i), b = std::exp(-0.001f * i), want = a + (b - a) * 0.25f;
    bad += std::fabs(out[i] - want) > 1e-5f || fibs[i] != want_fib[i % 12];
  }
  std::printf("device_calls: %s (n=%u, __noinline__, recursion, sinf/expf)\n",
              bad ? "FAILED" : "PASSED", n);
  return bad ? 1 : 0;
}
