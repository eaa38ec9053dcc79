// A 16x16x16 GEMM on the tensor cores through nvcuda::wmma (PTX wmma.load / wmma.mma /
// wmma.store, PTX ISA 9.7.14.4): half A (row-major) and B (column-major), float C and D; one warp
// computes D = A x B + C and the host checks every element against its own GEMM. The values are
// small integers, so the products and sums are exact and the comparison is exact.
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

__global__ void wmma_gemm(const __half* a, const __half* b, const float* c, float* d) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

int main() {
  const int n = 16;
  std::vector<__half> ha(n * n), hb(n * n);
  std::vector<float> a(n * n), b(n * n), c(n * n), d(n * n, 0.0f);
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < n; ++k) {
      a[r * n + k] = static_cast<float>((r * 3 + k * 5) % 7 - 3);
      b[k * n + r] = static_cast<float>((r * 7 + k * 2) % 5 - 2);  // b[k][col = r]
      c[r * n + k] = static_cast<float>(r - k);
    }
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      ha[r * n + col] = __float2half(a[r * n + col]);
      hb[col * n + r] =
          __float2half(b[r * n + col]);  // B column-major: element (r, col) at col * 16 + r
    }
  __half *da, *db;
  float *dc, *dd;
  CUDA_CHECK(cudaMalloc(&da, n * n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&db, n * n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dc, n * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dd, n * n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, ha.data(), n * n * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, hb.data(), n * n * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dc, c.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  wmma_gemm<<<1, 32>>>(da, db, dc, dd);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(d.data(), dd, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      float want = c[r * n + col];
      for (int k = 0; k < n; ++k) want += a[r * n + k] * b[k * n + col];
      if (d[r * n + col] != want && ++bad <= 4)
        std::printf("D[%d][%d] = %g, want %g\n", r, col, d[r * n + col], want);
    }
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dc));
  CUDA_CHECK(cudaFree(dd));
  std::printf("wmma_gemm: %s (%d of %d elements wrong)\n", bad ? "FAILED" : "PASSED", bad, n * n);
  return bad ? 1 : 0;
}
