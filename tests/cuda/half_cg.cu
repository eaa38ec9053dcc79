// Half precision and cooperative groups as machine-learning kernels use them: __half2 and
// __nv_bfloat162 arithmetic (fma, mul, add, conversions), a 32-thread tiled_partition whose
// cg::reduce sums each warp's values, atomicAdd on double and on __half2, and a device printf of
// the result from thread 0. Every value is exact in half precision, so the host expects exact sums.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>

#include "cuda_check.h"

namespace cg = cooperative_groups;

__global__ void dot(const __half2* a, const __half2* b, const __nv_bfloat162* c, double* total,
                    __half2* packed, float* bf_total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 p = __hfma2(a[i], b[i], __float2half2_rn(1.0f));  // a*b + 1, per half
  const float v = __low2float(p) + __high2float(p);
  const __nv_bfloat162 q = __hmul2(c[i], __float2bfloat162_rn(2.0f));
  const float w = __low2float(q) + __high2float(q);
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float warp_sum = cg::reduce(warp, v, cg::plus<float>());
  const float warp_w = cg::reduce(warp, w, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    atomicAdd(total, static_cast<double>(warp_sum));
    atomicAdd(bf_total, warp_w);
    atomicAdd(packed, __halves2half2(__float2half(1.0f), __float2half(2.0f)));
  }
  if (i == 0)
    printf("half_cg: thread 0 sees a*b+1 = (%.1f, %.1f)\n", __low2float(p), __high2float(p));
}

int main() {
  const int n = 256;
  __half2 ha[n], hb[n];
  __nv_bfloat162 hc[n];
  double expect = 0, expect_w = 0;
  for (int i = 0; i < n; ++i) {
    const float x = i % 8, y = (i % 5) - 2;
    ha[i] = __floats2half2_rn(x, y);
    hb[i] = __floats2half2_rn(0.5f, 2.0f);
    hc[i] = __floats2bfloat162_rn(x, 1.0f);
    expect += (x * 0.5 + 1) + (y * 2 + 1);
    expect_w += 2 * x + 2;
  }
  __half2 *a, *b, *packed;
  __nv_bfloat162* c;
  double* total;
  float* bf_total;
  CUDA_CHECK(cudaMalloc(&a, sizeof ha));
  CUDA_CHECK(cudaMalloc(&b, sizeof hb));
  CUDA_CHECK(cudaMalloc(&c, sizeof hc));
  CUDA_CHECK(cudaMalloc(&total, sizeof(double)));
  CUDA_CHECK(cudaMalloc(&bf_total, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&packed, sizeof(__half2)));
  CUDA_CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(total, 0, sizeof(double)));
  CUDA_CHECK(cudaMemset(bf_total, 0, sizeof(float)));
  CUDA_CHECK(cudaMemset(packed, 0, sizeof(__half2)));
  dot<<<n / 64, 64>>>(a, b, c, total, packed, bf_total);
  CUDA_CHECK(cudaDeviceSynchronize());
  double got = 0;
  float got_w = 0;
  __half2 hp;
  CUDA_CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&got_w, bf_total, sizeof got_w, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&hp, packed, sizeof hp, cudaMemcpyDeviceToHost));
  const bool ok =
      got == expect && got_w == expect_w && __low2float(hp) == 8.0f && __high2float(hp) == 16.0f;
  std::printf("half_cg: %s (sum %.1f, bf16 sum %.1f, packed (%.1f, %.1f))\n",
              ok ? "PASSED" : "FAILED", got, got_w, __low2float(hp), __high2float(hp));
  return ok ? 0 : 1;
}
