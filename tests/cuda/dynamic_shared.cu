// Dynamic shared memory: a block-wise sum whose shared array is sized at launch (extern
// __shared__, the third <<<>>> argument), launched once with <<<>>> and once through
// cudaLaunchKernel with an argument array; every block's sum is checked.
#include <vector>

#include "cuda_check.h"

__global__ void block_sum(const int* in, int* out, unsigned n) {
  extern __shared__ int part[];
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  part[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}

int main() {
  const unsigned n = 3000;
  unsigned bad = 0;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>(i % 13) - 4;
  int *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaFuncSetCacheConfig(block_sum, cudaFuncCachePreferShared));  // a preference: no effect
  for (unsigned threads : {128u, 256u}) {
    const unsigned blocks = (n + threads - 1) / threads;
    CUDA_CHECK(cudaMemset(dout, 0xff, n * sizeof(int)));
    if (threads == 128) {
      block_sum<<<blocks, threads, threads * sizeof(int)>>>(din, dout, n);
    } else {
      unsigned count = n;
      void* args[] = {&din, &dout, &count};
      CUDA_CHECK(cudaLaunchKernel((const void*)block_sum, dim3(blocks), dim3(threads), args,
                                  threads * sizeof(int), 0));
    }
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> out(blocks);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; ++b) {
      int want = 0;
      for (unsigned i = b * threads; i < n && i < (b + 1) * threads; ++i) want += in[i];
      bad += out[b] != want;
    }
  }
  std::printf("dynamic_shared: %s (n=%u, blocks of 128 and 256 threads)\n",
              bad ? "FAILED" : "PASSED", n);
  return bad ? 1 : 0;
}
