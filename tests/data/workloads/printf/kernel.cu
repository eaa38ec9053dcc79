// Test fixture for device printf and malloc under `gputlm run` (no CUDA host): each thread prints
// a line and stores printf's return value; the second kernel takes a heap block per thread, and
// prints whether it got one. Generate kernel.ptx with:
//   nvcc -ptx -arch=sm_75 -O3 -o kernel.ptx kernel.cu
#include <cstdio>

extern "C" __global__ void hello(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = printf("item %d of %d\n", i, n);
}

extern "C" __global__ void take(int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    void* p = malloc(1024);
    printf("thread %d: %s\n", i, p ? "block" : "NULL");
  }
}
