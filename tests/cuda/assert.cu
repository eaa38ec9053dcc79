// A failing device assert through gputlm's runtime (CUDA programming guide, "Assertion"): the
// kernel stops, its message goes to stderr naming block and thread, and the host's next
// synchronisation returns cudaErrorAssert, as does every call after it (the error is sticky).
#include <cassert>
#include <cstdio>

#include <cuda_runtime.h>

__global__ void check(const int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] >= 0);
}

int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i == 37 ? -1 : i;
  int* v;
  if (cudaMalloc(&v, sizeof h) != cudaSuccess ||
      cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  check<<<2, 32>>>(v, n);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  std::printf("synchronize: %s\n", cudaGetErrorName(sync));
  const cudaError_t later = cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("later call: %s\n", cudaGetErrorName(later));
  const bool ok = (launch == cudaSuccess || launch == cudaErrorAssert) && sync == cudaErrorAssert &&
                  later == cudaErrorAssert;
  std::printf("assert: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
