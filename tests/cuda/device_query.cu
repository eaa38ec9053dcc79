// The device as the program sees it: one device whose properties come from the gputlm config
// (name, SM count, clock, warp size, shared memory, threads per block). Prints them and checks
// that the property struct and cudaDeviceGetAttribute agree, and that launches the device cannot
// run return the errors a GPU gives (too many threads a block, a function that is no kernel).
#include "cuda_check.h"

__global__ void nothing() {}
static void not_a_kernel() {}

int main() {
  int count = 0, device = -1;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp p;
  CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
  int sms = 0, clock_khz = 0, warp = 0, shared = 0, threads = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, 0));
  std::printf(
      "device 0: %s, %d SMs at %d kHz, warp %d, %zu bytes shared per block, %d threads per block, "
      "compute %d.%d\n",
      p.name, p.multiProcessorCount, clock_khz, p.warpSize, p.sharedMemPerBlock,
      p.maxThreadsPerBlock, p.major, p.minor);
  nothing<<<1, p.maxThreadsPerBlock + 32>>>();
  const cudaError_t too_big = cudaGetLastError();
  void* no_args[] = {nullptr};
  const cudaError_t not_kernel =
      cudaLaunchKernel((const void*)not_a_kernel, dim3(1), dim3(32), no_args, 0, 0);
  nothing<<<2, 64>>>();
  const cudaError_t pending = cudaGetLastError();  // the failed cudaLaunchKernel's, still pending
  const bool errors_ok =
      too_big == cudaErrorInvalidConfiguration && not_kernel == cudaErrorInvalidDeviceFunction &&
      cudaGetLastError() == cudaSuccess && pending == cudaErrorInvalidDeviceFunction;
  const bool ok = errors_ok && count == 1 && device == 0 && sms == p.multiProcessorCount &&
                  warp == p.warpSize && warp == 32 &&
                  static_cast<size_t>(shared) == p.sharedMemPerBlock &&
                  threads == p.maxThreadsPerBlock && clock_khz > 0 &&
                  cudaSetDevice(1) == cudaErrorInvalidDevice;
  std::printf("device_query: %s (%d device)\n", ok ? "PASSED" : "FAILED", count);
  return ok ? 0 : 1;
}
