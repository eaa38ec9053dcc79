// A 16x8x16 GEMM with sm_80's mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 fed by ldmatrix
// from shared memory (inline PTX, as CUTLASS-style kernels write it; PTX ISA 9.7.14.5.8 and
// "ldmatrix"): A (16x16, row-major) through ldmatrix.x4, B (16x8, row-major) through
// ldmatrix.x2.trans, and the f32 accumulator fragments stored by each thread at the rows and
// columns the ISA gives them (row = lane / 4 (+8), col = lane % 4 * 2 (+1)). The host checks D.
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

__global__ void mma_gemm(const __half* a, const __half* b, const float* c, float* d) {
  __shared__ __align__(16) __half sa[16 * 16];
  __shared__ __align__(16) __half sb[16 * 8];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < 256; i += 32) sa[i] = a[i];
  for (unsigned i = lane; i < 128; i += 32) sb[i] = b[i];
  __syncthreads();
  // ldmatrix.x4: thread l gives row l % 8 of matrix l / 8; matrices 0..3 are A's quarters in the
  // order of the A fragment (rows 0-7/cols 0-7, rows 8-15/cols 0-7, rows 0-7/cols 8-15, rows
  // 8-15/cols 8-15).
  const unsigned m = lane / 8, r = lane % 8;
  const uint32_t a_row =
      static_cast<uint32_t>(__cvta_generic_to_shared(&sa[(r + 8 * (m & 1)) * 16 + 8 * (m >> 1)]));
  const uint32_t b_row = static_cast<uint32_t>(__cvta_generic_to_shared(&sb[(lane % 16) * 8]));
  uint32_t a0, a1, a2, a3, b0, b1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(a_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1)
               : "r"(b_row));
  const unsigned g = lane / 4, t = lane % 4;
  float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1], c2 = c[(g + 8) * 8 + 2 * t],
        c3 = c[(g + 8) * 8 + 2 * t + 1];
  float d0, d1, d2, d3;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, "
      "%9}, {%10, %11, %12, %13};"
      : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

int main() {
  std::vector<float> a(256), b(128), c(128), d(128, 0.0f);
  std::vector<__half> ha(256), hb(128);
  for (int i = 0; i < 256; ++i)
    a[i] = static_cast<float>((i * 7) % 9 - 4), ha[i] = __float2half(a[i]);
  for (int i = 0; i < 128; ++i)
    b[i] = static_cast<float>((i * 5) % 7 - 3), hb[i] = __float2half(b[i]);
  for (int i = 0; i < 128; ++i) c[i] = static_cast<float>(i % 13 - 6);
  __half *da, *db;
  float *dc, *dd;
  CUDA_CHECK(cudaMalloc(&da, 256 * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&db, 128 * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dc, 128 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dd, 128 * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, ha.data(), 256 * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, hb.data(), 128 * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dc, c.data(), 128 * sizeof(float), cudaMemcpyHostToDevice));
  mma_gemm<<<1, 32>>>(da, db, dc, dd);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(d.data(), dd, 128 * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 8; ++col) {
      float want = c[r * 8 + col];
      for (int k = 0; k < 16; ++k) want += a[r * 16 + k] * b[k * 8 + col];
      if (d[r * 8 + col] != want && ++bad <= 4)
        std::printf("D[%d][%d] = %g, want %g\n", r, col, d[r * 8 + col], want);
    }
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dc));
  CUDA_CHECK(cudaFree(dd));
  std::printf("mma_ldmatrix: %s (%d of 128 elements wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
