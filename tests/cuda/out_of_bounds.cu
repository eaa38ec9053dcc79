// Reads just outside an allocation, as Rodinia's srad_v2 reads the row before its first one: on a
// GPU the address is in a page the device has mapped, so the read returns what memory holds and
// only compute-sanitizer reports it. Under gputlm cuda the program runs to its end with a warning
// naming the kernel, thread, PTX line and address; with --memcheck it is a kernel fault (exit 3).
#include "cuda_check.h"

__global__ void neighbours(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i - 1] + in[i] + in[i + 1];  // in[-1] and in[n]: outside the allocation
}

int main() {
  const int n = 64;
  int *in, *out, h[n];
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(int)));
  for (int i = 0; i < n; ++i) h[i] = i;
  CUDA_CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  neighbours<<<1, n>>>(in, out, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 1; i + 1 < n; ++i)
    if (h[i] != 3 * i) {
      std::printf("out_of_bounds: FAILED out[%d] = %d\n", i, h[i]);
      return 1;
    }
  std::printf("out_of_bounds: PASSED\n");
  return 0;
}
