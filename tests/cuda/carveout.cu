// The L1/shared carve-out of a unified core (tests/data/configs/unified-l1.json): one kernel with
// 40 KB of static shared memory launched with no preference and then with a preferred carveout of
// 50% (cudaFuncAttributePreferredSharedMemoryCarveout), and one without shared memory preferring
// the largest L1 (cudaSharedmemCarveoutMaxL1). Each checks its results and the attribute as
// cudaFuncGetAttributes reads it back; the test reads the capacities from the statistics.
#include <vector>

#include "cuda_check.h"

constexpr unsigned kThreads = 256, kTile = 10240;  // 40 KB of floats a block

// Each block stages kTile values in shared memory and writes them back reversed within the tile.
__global__ void reverse_tiles(const float* in, float* out) {
  __shared__ float tile[kTile];
  const unsigned base = blockIdx.x * kTile;
  for (unsigned i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] = in[base + i];
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kTile; i += blockDim.x)
    out[base + i] = tile[kTile - 1 - i] * 2.0f;
}

__global__ void scale(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}

int main() {
  const unsigned blocks = 32, n = blocks * kTile;  // ceil(32 / 15) = 3 a core, 2 fit in 96 KB
  std::vector<float> in(n), out(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<float>(i % 1000) * 0.5f;
  float *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  unsigned bad = 0;
  auto check_tiles = [&] {
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned i = 0; i < kTile; ++i)
        bad += out[b * kTile + i] != in[b * kTile + kTile - 1 - i] * 2.0f;
  };
  reverse_tiles<<<blocks, kThreads>>>(din, dout);  // no preference
  CUDA_CHECK(cudaGetLastError());
  check_tiles();
  CUDA_CHECK(
      cudaFuncSetAttribute(reverse_tiles, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CUDA_CHECK(cudaMemset(dout, 0, n * sizeof(float)));
  reverse_tiles<<<blocks, kThreads>>>(din, dout);
  CUDA_CHECK(cudaGetLastError());
  check_tiles();
  CUDA_CHECK(cudaFuncSetAttribute(scale, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxL1));
  scale<<<(n + kThreads - 1) / kThreads, kThreads>>>(din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i) bad += out[i] != in[i] + 1.0f;
  cudaFuncAttributes a{}, b{};
  CUDA_CHECK(cudaFuncGetAttributes(&a, reverse_tiles));
  CUDA_CHECK(cudaFuncGetAttributes(&b, scale));
  bad += a.preferredShmemCarveout != 50 || b.preferredShmemCarveout != 0 ||
         a.sharedSizeBytes != kTile * sizeof(float);
  std::printf("carveout: %s (n=%u, 3 launches)\n", bad ? "FAILED" : "PASSED", n);
  return bad ? 1 : 0;
}
