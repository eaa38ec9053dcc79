// A kernel that writes past the end of its allocation, after one that completes: the run ends as
// `gputlm run` ends on a kernel fault (exit status 3, the fault message naming the thread and PC),
// the program does not reach its check line, and the statistics of the first launch are written.
#include "cuda_check.h"

__global__ void overrun(int* x, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i + n * 16384] = 1;  // 16 MB past the allocation: beyond the 2 MB pages the device maps for it
}

__global__ void fill(int* x) { x[threadIdx.x] = 0; }

int main() {
  int* x;
  CUDA_CHECK(cudaMalloc(&x, 256 * sizeof(int)));
  fill<<<1, 256>>>(x);
  overrun<<<1, 256>>>(x, 256);
  cudaDeviceSynchronize();
  std::printf("fault: FAILED (the launch returned)\n");
  return 1;
}
