// Atomics: a histogram with atomicAdd on global counters, a global maximum with atomicMax and a
// per-block count in shared memory with atomicAdd; all checked against the host.
#include <vector>

#include "cuda_check.h"

__global__ void histogram(const unsigned* in, unsigned n, unsigned* bins, unsigned nbins, int* max,
                          unsigned* per_block) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[in[i] % nbins], 1u);
    atomicMax(max, static_cast<int>(in[i]));
    if (in[i] % 2 == 0) atomicAdd(&count, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = count;
}

int main() {
  const unsigned n = 5000, nbins = 16, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<unsigned> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = (i * 2654435761u) >> 20;
  unsigned *din, *dbins, *dper;
  int* dmax;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dbins, nbins * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dper, blocks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dmax, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dbins, 0, nbins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(dmax, 0, sizeof(int)));
  histogram<<<blocks, threads>>>(din, n, dbins, nbins, dmax, dper);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> bins(nbins), per(blocks);
  int max = 0;
  CUDA_CHECK(cudaMemcpy(bins.data(), dbins, nbins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(per.data(), dper, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&max, dmax, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<unsigned> want(nbins, 0), want_per(blocks, 0);
  int want_max = 0;
  for (unsigned i = 0; i < n; ++i) {
    ++want[in[i] % nbins];
    want_max = std::max(want_max, static_cast<int>(in[i]));
    want_per[i / threads] += in[i] % 2 == 0;
  }
  const bool ok = bins == want && per == want_per && max == want_max;
  std::printf("atomics: %s (n=%u, %u bins, max %d)\n", ok ? "PASSED" : "FAILED", n, nbins, max);
  return ok ? 0 : 1;
}
