// Tensor memory access (TMA) as sm_90 programs use it (CUDA C++ Programming Guide, "Using TMA to
// transfer multi-dimensional arrays"; PTX ISA 9.7.9.25.5 cp.async.bulk.tensor), built with
// -arch=sm_90: the tensor maps come from cuTensorMapEncodeTiled, fetched with
// cudaGetDriverEntryPointByVersion as the guide does, and reach the kernel as __grid_constant__
// parameters.
//   1. shift: each block loads a 16x8 box of a 64x48 int tensor starting 4 columns left and 2 rows
//      up of its tile (outside the tensor: zeros), adds one, and stores it at its tile of a second
//      tensor (cde::cp_async_bulk_tensor_2d_global_to_shared / _shared_to_global).
//   2. swizzled: a 32x8 int box loaded with the 128-byte swizzle; each thread finds its element at
//      the swizzled address (16-byte chunk XOR 128-byte row) and writes it out unswizzled.
//   3. strided: a 3-D box with element stride 2 in dimension 1 (every other row).
//   4. cuTensorMapEncodeTiled's CUDA_ERROR_INVALID_VALUE for a box row that is not a multiple of 16
//   bytes.
//   5. accumulate: each block adds a 16x8 tile to its tile of the tensor with
//      cp.reduce.async.bulk.tensor .add (cuda::ptx::cp_reduce_async_bulk_tensor), launched twice.
// The host checks every result.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cuda/ptx>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int kW = 64, kH = 48;

// Thread 0 starts the box load into `tile`; every thread waits for it.
template <class Tile, class... Coords>
__device__ void load_box(Tile& tile, const CUtensorMap& map, barrier& bar, Coords... coords) {
  barrier::arrival_token token;
  if (threadIdx.x == 0) {
    if constexpr (sizeof...(Coords) == 2)
      cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &map, coords..., bar);
    else
      cde::cp_async_bulk_tensor_3d_global_to_shared(&tile, &map, coords..., bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
}

__device__ void init_barrier(barrier& bar) {
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
}

__global__ void shift(const __grid_constant__ CUtensorMap in,
                      const __grid_constant__ CUtensorMap out) {
  __shared__ alignas(128) int tile[8][16];
  __shared__ barrier bar;
  init_barrier(bar);
  const int x = blockIdx.x * 16, y = blockIdx.y * 8;
  load_box(tile, in, bar, x - 4, y - 2);
  for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x) tile[i / 16][i % 16] += 1;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&out, x, y, &tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// Adds (row + 1) * 100 + column to element (row, column) of the block's 16x8 tile of the tensor.
__global__ void accumulate(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) int tile[8][16];
  for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x)
    tile[i / 16][i % 16] = (i / 16 + 1) * 100 + i % 16;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    const int32_t coords[2] = {static_cast<int32_t>(blockIdx.x * 16),
                               static_cast<int32_t>(blockIdx.y * 8)};
    cuda::ptx::cp_reduce_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared,
                                           cuda::ptx::op_add, &map, coords, &tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// out[(y0 + r) * kW + x0 + c] = the box element (r, c), read at its 128B-swizzled place.
__global__ void swizzled(const __grid_constant__ CUtensorMap in, int* out) {
  __shared__ alignas(1024) int tile[8][32];
  __shared__ barrier bar;
  init_barrier(bar);
  const int x = blockIdx.x * 32, y = blockIdx.y * 8;
  load_box(tile, in, bar, x, y);
  const char* base = reinterpret_cast<const char*>(tile);
  for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x) {
    const unsigned offset = i * 4, at = offset ^ (((offset >> 7) & 7) << 4);
    out[(y + i / 32) * kW + x + i % 32] = *reinterpret_cast<const int*>(base + at);
  }
}

// A 16 x 4 x 2 box over a kW x kH/2 x 2 view with element stride 2 in dimension 1: rows 0, 2, 4, 6.
__global__ void strided(const __grid_constant__ CUtensorMap in, int* out) {
  __shared__ alignas(128) int tile[2][2][16];
  __shared__ barrier bar;
  init_barrier(bar);
  load_box(tile, in, bar, 8, 4, 0);
  for (int i = threadIdx.x; i < 2 * 2 * 16; i += blockDim.x)
    out[i] = tile[i / 32][i / 16 % 2][i % 16];
}

int main() {
  int bad = 0;
  std::vector<int> h(kW * kH);
  for (int i = 0; i < kW * kH; ++i) h[i] = i * 3 + 1;
  int *in, *out;
  CUDA_CHECK(cudaMalloc(&in, h.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, h.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(in, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));

  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult found;
  CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                              reinterpret_cast<void**>(&encode), 12000,
                                              cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !encode) {
    printf("tensor_copy: cuTensorMapEncodeTiled not found\n");
    return 1;
  }
  auto map2d = [&](CUtensorMap* map, int* base, cuuint32_t bw, cuuint32_t bh,
                   CUtensorMapSwizzle swizzle) {
    const cuuint64_t dims[2] = {kW, kH}, strides[1] = {kW * sizeof(int)};
    const cuuint32_t box[2] = {bw, bh}, steps[2] = {1, 1};
    return encode(map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, base, dims, strides, box, steps,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };

  CUtensorMap in_map, out_map, swizzled_map, strided_map;
  if (map2d(&in_map, in, 16, 8, CU_TENSOR_MAP_SWIZZLE_NONE) != CUDA_SUCCESS ||
      map2d(&out_map, out, 16, 8, CU_TENSOR_MAP_SWIZZLE_NONE) != CUDA_SUCCESS ||
      map2d(&swizzled_map, in, 32, 8, CU_TENSOR_MAP_SWIZZLE_128B) != CUDA_SUCCESS) {
    printf("tensor_copy: cuTensorMapEncodeTiled failed\n");
    return 1;
  }
  shift<<<dim3(kW / 16, kH / 8), 128>>>(in_map, out_map);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> got(h.size());
  CUDA_CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const int want = (x >= 4 && y >= 2 ? h[(y - 2) * kW + x - 4] : 0) + 1;
      if (got[y * kW + x] != want && bad++ < 5)
        printf("tensor_copy: shift (%d, %d): %d, want %d\n", x, y, got[y * kW + x], want);
    }

  CUDA_CHECK(cudaMemset(out, 0, got.size() * sizeof(int)));
  swizzled<<<dim3(kW / 32, kH / 8), 128>>>(swizzled_map, out);
  CUDA_CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kW * kH; ++i)
    if (got[i] != h[i] && bad++ < 10)
      printf("tensor_copy: swizzled %d: %d, want %d\n", i, got[i], h[i]);

  {  // the tensor as kW x (kH / 2) x 2: dimension 1 strides two rows' worth, dimension 2 half the
     // tensor
    const cuuint64_t dims[3] = {kW, kH / 2, 2},
                     strides[2] = {kW * sizeof(int), kW * kH / 2 * sizeof(int)};
    const cuuint32_t box[3] = {16, 4, 2}, steps[3] = {1, 2, 1};
    if (encode(&strided_map, CU_TENSOR_MAP_DATA_TYPE_INT32, 3, in, dims, strides, box, steps,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
      printf("tensor_copy: the 3-D map failed\n");
      return 1;
    }
  }
  strided<<<1, 64>>>(strided_map, out);
  CUDA_CHECK(cudaMemcpy(got.data(), out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) {
    const int z = i / 32, r = i / 16 % 2, c = i % 16;
    const int want = h[z * (kW * kH / 2) + (4 + 2 * r) * kW + 8 + c];
    if (got[i] != want && bad++ < 15)
      printf("tensor_copy: strided %d: %d, want %d\n", i, got[i], want);
  }

  CUDA_CHECK(cudaMemcpy(out, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  for (int launch = 0; launch < 2; ++launch) accumulate<<<dim3(kW / 16, kH / 8), 128>>>(out_map);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const int want = h[y * kW + x] + 2 * ((y % 8 + 1) * 100 + x % 16);
      if (got[y * kW + x] != want && bad++ < 18)
        printf("tensor_copy: accumulate (%d, %d): %d, want %d\n", x, y, got[y * kW + x], want);
    }

  CUtensorMap bad_map;
  if (map2d(&bad_map, in, 3, 8, CU_TENSOR_MAP_SWIZZLE_NONE) != CUDA_ERROR_INVALID_VALUE &&
      bad++ < 20)
    printf("tensor_copy: a 12-byte box row was accepted\n");

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  printf("tensor_copy: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
