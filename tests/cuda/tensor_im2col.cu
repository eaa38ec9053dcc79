// TMA im2col mode (PTX ISA 5.5.4, 9.7.9.25.5; cuTensorMapEncodeIm2col) as an implicit-GEMM
// convolution uses it, built with -arch=sm_90:
//   1. conv: a 3x3 convolution with padding 1 of a 2 x 4 x 4 x 16 NHWC float tensor to one output
//      channel. Each block owns 16 output pixels; for each filter tap (r, s) thread 0 loads the 16
//      pixels' 16 channels with one cp.async.bulk.tensor.4d ... .im2col (offsets {s, r}; the map's
//      bounding box from -1 to H - 1 - 1, i.e. corners -1 and pad - (K - 1) = -1, as CUTLASS sets
//      them), after a prefetch.tensor of the same pixels; each thread then adds its pixel's dot
//      product with the tap's weights.
//   2. interleaved: a tile-mode box of an NC/8HWC8 half tensor (CU_TENSOR_MAP_INTERLEAVE_16B:
//   dimension 0
//      is one 16-byte slice of 8 channels) with element stride 2 in W.
//   3. cuTensorMapEncodeIm2col's CUDA_ERROR_INVALID_VALUE for rank 2 and for a corner out of range.
// The host checks each against its own loops. The cuda::ptx headers have no im2col forms, so the
// instructions are written as inline PTX.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda/barrier>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"

using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int kN = 2, kH = 4, kW = 4, kC = 16, kK = 3, kPixels = 16;

__device__ void init_barrier(barrier& bar) {
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
}

__device__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// out[pixel] = sum over (r, s, c) of in[n, oh + r - 1, ow + s - 1, c] * weight[r][s][c] (zero
// outside).
__global__ void conv(const __grid_constant__ CUtensorMap in, const float* weight, float* out) {
  __shared__ alignas(128) float tile[kPixels][kC];
  __shared__ barrier bar;
  init_barrier(bar);
  const int first = blockIdx.x * kPixels;  // output pixels are (n, oh, ow) in row-major order
  const int n = first / (kH * kW), oh = first / kW % kH, ow = first % kW;
  float sum = 0;
  for (int r = 0; r < kK; ++r)
    for (int s = 0; s < kK; ++s) {
      barrier::arrival_token token;
      if (threadIdx.x == 0) {
        const uint16_t off_w = s, off_h = r;
        asm volatile(
            "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col [%0, {%1, %2, %3, %4}], {%5, %6};" ::
                "l"(&in),
            "r"(0), "r"(ow - 1), "r"(oh - 1), "r"(n), "h"(off_w), "h"(off_h)
            : "memory");
        asm volatile(
            "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
            "[%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(shared_address(tile)),
            "l"(&in), "r"(0), "r"(ow - 1), "r"(oh - 1), "r"(n),
            "r"(shared_address(cuda::device::barrier_native_handle(bar))), "h"(off_w), "h"(off_h)
            : "memory");
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
      } else {
        token = bar.arrive();
      }
      bar.wait(std::move(token));
      if (threadIdx.x < kPixels)
        for (int c = 0; c < kC; ++c) sum += tile[threadIdx.x][c] * weight[(r * kK + s) * kC + c];
      __syncthreads();  // the tile is loaded again for the next tap
    }
  if (threadIdx.x < kPixels) out[first + threadIdx.x] = sum;
}

// An NC/8HWC8 tensor of 8 x 8 pixels (one slice of 8 half channels each), box 8 channels x 4 W
// (element stride 2: W 0, 2, 4, 6) x 2 H from (0, 0, 2); out[i] = the box's half i as a float.
__global__ void interleaved(const __grid_constant__ CUtensorMap in, float* out) {
  __shared__ alignas(128) __half tile[2][4][8];
  __shared__ barrier bar;
  init_barrier(bar);
  barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_3d_global_to_shared(&tile, &in, 0, 0, 2, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < 2 * 4 * 8; i += blockDim.x)
    out[i] = __half2float(tile[i / 32][i / 8 % 4][i % 8]);
}

int main() {
  int bad = 0;
  PFN_cuTensorMapEncodeIm2col_v12000 encode_im2col = nullptr;
  PFN_cuTensorMapEncodeTiled_v12000 encode_tiled = nullptr;
  cudaDriverEntryPointQueryResult found1, found2;
  CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col",
                                              reinterpret_cast<void**>(&encode_im2col), 12000,
                                              cudaEnableDefault, &found1));
  CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                              reinterpret_cast<void**>(&encode_tiled), 12000,
                                              cudaEnableDefault, &found2));
  if (found1 != cudaDriverEntryPointSuccess || found2 != cudaDriverEntryPointSuccess) {
    printf("tensor_im2col: the tensor map encoders were not found\n");
    return 1;
  }

  std::vector<float> h_in(kN * kH * kW * kC), h_weight(kK * kK * kC);
  for (size_t i = 0; i < h_in.size(); ++i) h_in[i] = static_cast<float>(i % 13) - 6;
  for (size_t i = 0; i < h_weight.size(); ++i)
    h_weight[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
  float *in, *weight, *out;
  CUDA_CHECK(cudaMalloc(&in, h_in.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&weight, h_weight.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, 256 * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(weight, h_weight.data(), h_weight.size() * sizeof(float), cudaMemcpyHostToDevice));

  // Dimensions C, W, H, N; corners in W, H order.
  const cuuint64_t dims[4] = {kC, kW, kH, kN};
  const cuuint64_t strides[3] = {kC * sizeof(float), kW * kC * sizeof(float),
                                 kH * kW * kC * sizeof(float)};
  const cuuint32_t steps[4] = {1, 1, 1, 1};
  const int lower[2] = {-1, -1}, upper[2] = {1 - (kK - 1), 1 - (kK - 1)};
  CUtensorMap map;
  if (encode_im2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, in, dims, strides, lower, upper, kC,
                    kPixels, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
    printf("tensor_im2col: cuTensorMapEncodeIm2col failed\n");
    return 1;
  }
  conv<<<kN * kH * kW / kPixels, 32>>>(map, weight, out);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> got(64);  // the convolution's 32 outputs, then the interleaved box's 64 halves
  CUDA_CHECK(cudaMemcpy(got.data(), out, kN * kH * kW * sizeof(float), cudaMemcpyDeviceToHost));
  for (int n = 0; n < kN; ++n)
    for (int oh = 0; oh < kH; ++oh)
      for (int ow = 0; ow < kW; ++ow) {
        float want = 0;
        for (int r = 0; r < kK; ++r)
          for (int s = 0; s < kK; ++s) {
            const int ih = oh + r - 1, iw = ow + s - 1;
            if (ih < 0 || ih >= kH || iw < 0 || iw >= kW) continue;
            for (int c = 0; c < kC; ++c)
              want += h_in[((n * kH + ih) * kW + iw) * kC + c] * h_weight[(r * kK + s) * kC + c];
          }
        const int p = (n * kH + oh) * kW + ow;
        if (got[p] != want && bad++ < 5)
          printf("tensor_im2col: conv pixel (%d, %d, %d): %g, want %g\n", n, oh, ow, got[p], want);
      }

  {  // NC/8HWC8: 8 x 8 pixels of one 16-byte slice; half (c, w, h) = 100 h + 10 w + c
    std::vector<__half> h_half(8 * 8 * 8);
    for (int i = 0; i < 8 * 8 * 8; ++i)
      h_half[i] = __float2half(static_cast<float>(i / 64 * 100 + i / 8 % 8 * 10 + i % 8));
    __half* half_in;
    CUDA_CHECK(cudaMalloc(&half_in, h_half.size() * sizeof(__half)));
    CUDA_CHECK(
        cudaMemcpy(half_in, h_half.data(), h_half.size() * sizeof(__half), cudaMemcpyHostToDevice));
    const cuuint64_t idims[3] = {8, 8, 8}, istrides[2] = {16, 128};
    const cuuint32_t ibox[3] = {8, 8, 2}, isteps[3] = {1, 2, 1};
    CUtensorMap imap;
    if (encode_tiled(&imap, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, half_in, idims, istrides, ibox,
                     isteps, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE,
                     CU_TENSOR_MAP_L2_PROMOTION_NONE,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
      printf("tensor_im2col: the interleaved map failed\n");
      return 1;
    }
    interleaved<<<1, 64>>>(imap, out);
    CUDA_CHECK(cudaMemcpy(got.data(), out, 64 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; ++i) {
      const float want = static_cast<float>((2 + i / 32) * 100 + (i / 8 % 4) * 2 * 10 + i % 8);
      if (got[i] != want && bad++ < 10)
        printf("tensor_im2col: interleaved %d: %g, want %g\n", i, got[i], want);
    }
    CUDA_CHECK(cudaFree(half_in));
  }

  CUtensorMap refused;
  const int far[2] = {-200, 0};
  if (encode_im2col(&refused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, in, dims, strides, lower, upper,
                    kC, kPixels, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_NONE,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_ERROR_INVALID_VALUE &&
      bad++ < 20)
    printf("tensor_im2col: a rank-2 im2col map was accepted\n");
  if (encode_im2col(&refused, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, in, dims, strides, far, upper, kC,
                    kPixels, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_NONE,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_ERROR_INVALID_VALUE &&
      bad++ < 20)
    printf("tensor_im2col: a 4-D corner of -200 was accepted\n");

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(weight));
  CUDA_CHECK(cudaFree(out));
  printf("tensor_im2col: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
