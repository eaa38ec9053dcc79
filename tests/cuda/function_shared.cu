// A device function with a static __shared__ array of its own (one per CTA), called by a kernel
// that has its own static shared array and dynamic shared memory: the three must not overlap.
// Built at -O3 and with -G (function_shared_debug), where nvcc declares the function's array
// inside the .func body. Checked against the host.
#include <vector>

#include "cuda_check.h"

__device__ __noinline__ int block_sum(int v) {
  __shared__ int partial[256];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  const int r = partial[0];
  __syncthreads();
  return r;
}

__global__ void sums(const int* in, int* out, int* mixed) {
  __shared__ int own[256];
  extern __shared__ int dyn[];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  own[threadIdx.x] = in[i] * 2;
  dyn[threadIdx.x] = in[i] * 3;
  const int s = block_sum(in[i]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
  mixed[i] = own[threadIdx.x] + dyn[blockDim.x - 1 - threadIdx.x];
}

int main() {
  const unsigned threads = 256, blocks = 4, n = threads * blocks;
  std::vector<int> in(n), out(blocks), mixed(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>((i * 7919u) % 1000u) - 500;
  int *din, *dout, *dmixed;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dmixed, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  sums<<<blocks, threads, threads * sizeof(int)>>>(din, dout, dmixed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(mixed.data(), dmixed, n * sizeof(int), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    int want = 0;
    for (unsigned t = 0; t < threads; ++t) want += in[b * threads + t];
    bad += out[b] != want;
  }
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      bad +=
          mixed[b * threads + t] != in[b * threads + t] * 2 + in[b * threads + threads - 1 - t] * 3;
  std::printf(
      "function_shared: %s (%u blocks of %u threads, function, kernel and dynamic shared)\n",
      bad ? "FAILED" : "PASSED", blocks, threads);
  return bad ? 1 : 0;
}
