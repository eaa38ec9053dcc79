// cudaMemcpyToSymbol / cudaMemcpyFromSymbol on a __device__ array and a __constant__ table: the
// kernel scales by the constant table into the device array, the host reads it back by symbol.
// Needs module-scope .global/.const variables in the PTX front end (a branch in progress): its
// test is disabled until then.
#include "cuda_check.h"

__constant__ float coefficients[4];
__device__ float results[256];

__global__ void weigh() {
  const unsigned i = threadIdx.x;
  results[i] = coefficients[i % 4] * static_cast<float>(i);
}

int main() {
  const float c[4] = {1.0f, 0.5f, -2.0f, 4.0f};
  CUDA_CHECK(cudaMemcpyToSymbol(coefficients, c, sizeof c));
  weigh<<<1, 256>>>();
  CUDA_CHECK(cudaGetLastError());
  float out[256];
  CUDA_CHECK(cudaMemcpyFromSymbol(out, results, sizeof out));
  unsigned bad = 0;
  for (unsigned i = 0; i < 256; ++i) bad += out[i] != c[i % 4] * static_cast<float>(i);
  std::printf("symbol_copy: %s (256 elements through __constant__ and __device__ symbols)\n",
              bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
