// CUDA dynamic parallelism (CUDA programming guide, "CUDA Dynamic Parallelism", CDP2), built with
// -rdc=true: the PTX of this object and of cudadevrt's are linked (runtime/ptx_text_link.h).
//   1. Each CTA of a parent grid launches a child grid (<<<>>> in device code) that fills its own
//      slice; the host sees every slice after one cudaDeviceSynchronize.
//   2. A kernel launches itself on a device stream of its own, one level deeper each time, until
//      the launch fails: CUDA's nesting limit is 24, and the 25th level's launch returns
//      cudaErrorLaunchMaxDepthExceeded, which cudaGetLastError reports to the launching thread.
//   3. Device-side cudaMalloc, cudaMemcpyAsync and cudaMemsetAsync, the child grid reading what
//      its parent copied; an event recorded and waited on; the device queries.
#include <cstdio>

#include "cuda_check.h"

constexpr int kParents = 6, kChildThreads = 40;

__global__ void fill_slice(int* out, int slice, int scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kChildThreads) out[slice * kChildThreads + i] = scale * slice + i;
}

__global__ void parent(int* out, int scale) {
  if (threadIdx.x == 0) fill_slice<<<2, kChildThreads / 2>>>(out, blockIdx.x, scale);
}

// depths[d] = 1 when level d ran; errors[d] = what cudaGetLastError said after level d launched
// d+1.
__global__ void dive(int depth, int* depths, int* errors) {
  depths[depth] = 1;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  dive<<<1, 1, 0, s>>>(depth + 1, depths, errors);
  errors[depth] = static_cast<int>(cudaGetLastError());
  cudaStreamDestroy(s);
}

__global__ void sum_into(const int* in, int n, int* total) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  *total = s;
}

__global__ void device_memory(const int* source, int n, int* total, int* status) {
  int* copy = nullptr;
  cudaStream_t s;
  cudaEvent_t copied;
  int e = cudaMalloc(reinterpret_cast<void**>(&copy), 2 * n * sizeof(int));
  if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&copied, cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaMemsetAsync(copy + n, 0, n * sizeof(int), 0);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync(copy, source, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
  if (e == cudaSuccess) e = cudaEventRecord(copied, 0);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(s, copied, 0);
  if (e == cudaSuccess) sum_into<<<1, 1, 0, s>>>(copy, 2 * n, total);
  if (e == cudaSuccess) e = cudaEventDestroy(copied);
  if (e == cudaSuccess) e = cudaStreamDestroy(s);
  status[0] = e;
  status[1] = static_cast<int>(cudaPeekAtLastError());
  int device = -1, count = 0, version = 0;
  cudaGetDevice(&device);
  cudaGetDeviceCount(&count);
  cudaRuntimeGetVersion(&version);
  status[2] = device == 0 && count == 1 && version >= 13000;
}

int main() {
  int failures = 0;
  int* out = nullptr;
  CUDA_CHECK(cudaMalloc(&out, kParents * kChildThreads * sizeof(int)));
  CUDA_CHECK(cudaMemset(out, 0xff, kParents * kChildThreads * sizeof(int)));
  parent<<<kParents, 32>>>(out, 1000);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  int host[kParents * kChildThreads];
  CUDA_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  for (int s = 0; s < kParents; ++s)
    for (int i = 0; i < kChildThreads; ++i)
      if (host[s * kChildThreads + i] != 1000 * s + i && failures++ < 5)
        std::printf("slice %d element %d: %d, expected %d\n", s, i, host[s * kChildThreads + i],
                    1000 * s + i);

  constexpr int kLevels = 32;
  int *depths = nullptr, *errors = nullptr;
  CUDA_CHECK(cudaMalloc(&depths, kLevels * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&errors, kLevels * sizeof(int)));
  CUDA_CHECK(cudaMemset(depths, 0, kLevels * sizeof(int)));
  CUDA_CHECK(cudaMemset(errors, 0xff, kLevels * sizeof(int)));
  dive<<<1, 1>>>(0, depths, errors);
  CUDA_CHECK(cudaDeviceSynchronize());
  int hd[kLevels], he[kLevels];
  CUDA_CHECK(cudaMemcpy(hd, depths, sizeof hd, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(he, errors, sizeof he, cudaMemcpyDeviceToHost));
  int levels = 0;
  while (levels < kLevels && hd[levels]) ++levels;
  // Levels 0..24 run (the host's grid is level 0, its deepest descendant 24); level 24's launch
  // fails.
  if (levels != 25) failures++, std::printf("%d levels ran, expected 25\n", levels);
  for (int d = 0; d < 24; ++d)
    if (he[d] != cudaSuccess) failures++, std::printf("level %d: launch error %d\n", d, he[d]);
  if (he[24] != cudaErrorLaunchMaxDepthExceeded)
    failures++,
        std::printf("level 24: error %d, expected %d\n", he[24], cudaErrorLaunchMaxDepthExceeded);

  constexpr int kN = 50;
  int source[kN];
  for (int i = 0; i < kN; ++i) source[i] = 3 * i + 1;
  int *dsource = nullptr, *total = nullptr, *status = nullptr;
  CUDA_CHECK(cudaMalloc(&dsource, sizeof source));
  CUDA_CHECK(cudaMalloc(&total, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&status, 3 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dsource, source, sizeof source, cudaMemcpyHostToDevice));
  device_memory<<<1, 1>>>(dsource, kN, total, status);
  CUDA_CHECK(cudaDeviceSynchronize());
  int ht = 0, hs[3] = {-1, -1, -1};
  CUDA_CHECK(cudaMemcpy(&ht, total, sizeof ht, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hs, status, sizeof hs, cudaMemcpyDeviceToHost));
  const int expected =
      3 * (kN * (kN - 1) / 2) + kN;  // the sum of 3i+1 for i < kN; the zeroed half adds nothing
  if (hs[0] != cudaSuccess || hs[1] != cudaSuccess)
    failures++, std::printf("device memory calls: %d %d\n", hs[0], hs[1]);
  if (hs[2] != 1)
    failures++, std::printf("device queries: not device 0 of 1, runtime 13000 or later\n");
  if (ht != expected) failures++, std::printf("child sum %d, expected %d\n", ht, expected);

  if (failures) {
    std::printf("dynamic_parallelism: FAILED (%d)\n", failures);
    return 1;
  }
  std::printf("dynamic_parallelism: PASSED (%d child grids, %d levels)\n", kParents, levels);
  return 0;
}
