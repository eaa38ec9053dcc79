// A kernel that writes past the end of its allocation: the run ends as `gputlm run` ends on a
// kernel fault (exit status 3, the fault message naming the thread and PC); the program does not
// reach its check line.
#include "cuda_check.h"

__global__ void overrun(int* x, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i + n * 64] = 1;  // far past the allocation (and its guard gap)
}

int main() {
  int* x;
  CUDA_CHECK(cudaMalloc(&x, 256 * sizeof(int)));
  overrun<<<1, 256>>>(x, 256);
  cudaDeviceSynchronize();
  std::printf("fault: FAILED (the launch returned)\n");
  return 1;
}
