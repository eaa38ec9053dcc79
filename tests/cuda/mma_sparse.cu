// Sparse tensor-core MMA (PTX ISA 9.7.14.6, sm_80) through inline PTX: a 2:4-sparse 16x16 A (each
// chunk of four columns keeps two) times a 16x8 B plus C with mma.sp.m16n8k16 .f16 into .f32,
// and a 16x32 A with mma.sp::ordered_metadata.m16n8k32 .bf16. The host compresses A, writes each
// lane's registers as the ISA's fragment layouts place them (metadata: the holder threads of each
// quad keep four chunks of row groupID in bits 0-15 and of row groupID + 8 in bits 16-31, the
// reading models/func/semantics/sparse_mma_ops.cpp states) and checks D against its dense product.
// On a GPU this program checks that reading too.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <vector>

#include "cuda_check.h"

struct Lane {
  unsigned a[4], b[4], e;
  float c[4];
};

__global__ void sparse_k16(const Lane* in, float* out) {
  const Lane& l = in[threadIdx.x];
  float d[4];
  asm volatile(
      "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, "
      "{%8, %9, %10, %11}, %12, 1;"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(l.a[0]), "r"(l.a[1]), "r"(l.b[0]), "r"(l.b[1]), "f"(l.c[0]), "f"(l.c[1]), "f"(l.c[2]),
        "f"(l.c[3]), "r"(l.e));
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = d[i];
}

__global__ void sparse_k32(const Lane* in, float* out) {
  const Lane& l = in[threadIdx.x];
  float d[4];
  asm volatile(
      "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
      "{%4, %5, %6, %7}, "
      "{%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(l.a[0]), "r"(l.a[1]), "r"(l.a[2]), "r"(l.a[3]), "r"(l.b[0]), "r"(l.b[1]), "r"(l.b[2]),
        "r"(l.b[3]), "f"(l.c[0]), "f"(l.c[1]), "f"(l.c[2]), "f"(l.c[3]), "r"(l.e));
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = d[i];
}

unsigned short bits16(float x, bool bf16) {
  if (bf16) {
    const __nv_bfloat16 h = __float2bfloat16(x);
    return *reinterpret_cast<const unsigned short*>(&h);
  }
  const __half h = __float2half(x);
  return *reinterpret_cast<const unsigned short*>(&h);
}

// Builds the lanes of a 16 x k sparse product, runs `kernel`, returns the number of wrong elements.
int check(int k, bool bf16, int selector, void (*kernel)(const Lane*, float*), const char* name) {
  const int chunks = k / 4, holders = chunks / 4;
  std::vector<float> dense(16 * k, 0.f), packed(16 * k / 2), B(k * 8), C(16 * 8);
  std::vector<unsigned> nibble(16 * chunks);
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (int r = 0; r < 16; ++r)
    for (int ch = 0; ch < chunks; ++ch) {
      const int* p = pairs[(r * 5 + ch * 3) % 6];
      for (int j = 0; j < 2; ++j) {
        const float v = static_cast<float>((r * 3 + ch * 7 + j * 5) % 7 - 3);
        dense[r * k + ch * 4 + p[j]] = v;
        packed[r * k / 2 + ch * 2 + j] = v;
      }
      nibble[r * chunks + ch] = p[0] | p[1] << 2;
    }
  for (int i = 0; i < k * 8; ++i) B[i] = static_cast<float>(i % 5 - 2);
  for (int i = 0; i < 16 * 8; ++i) C[i] = static_cast<float>(i % 9 - 4);
  std::vector<Lane> lanes(32);
  for (int l = 0; l < 32; ++l) {
    const int g = l / 4, t = l % 4;
    Lane& x = lanes[l];
    for (int reg = 0; reg < k / 8; ++reg) {  // packed A: row g (+8 for odd registers), columns t*2,
                                             // t*2+1 (+8 for registers 2, 3)
      const int row = g + 8 * (reg & 1), col = t * 2 + 8 * (reg >> 1);
      x.a[reg] = bits16(packed[row * k / 2 + col], bf16) |
                 unsigned(bits16(packed[row * k / 2 + col + 1], bf16)) << 16;
    }
    for (int reg = 0; reg < k / 8; ++reg) {  // B: rows t*2, t*2+1 (+8 per register), column g
      const int row = t * 2 + 8 * reg;
      x.b[reg] = bits16(B[row * 8 + g], bf16) | unsigned(bits16(B[(row + 1) * 8 + g], bf16)) << 16;
    }
    for (int i = 0; i < 4; ++i) x.c[i] = C[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)];
    x.e = 0;
    if (t >= selector * holders && t < (selector + 1) * holders)
      for (int c = 0; c < 4; ++c) {
        const int j = t - selector * holders;
        x.e |= nibble[g * chunks + 4 * j + c] << (4 * c) | nibble[(g + 8) * chunks + 4 * j + c]
                                                               << (16 + 4 * c);
      }
  }
  Lane* d_in;
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_in, sizeof(Lane) * 32));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(float) * 128));
  CUDA_CHECK(cudaMemcpy(d_in, lanes.data(), sizeof(Lane) * 32, cudaMemcpyHostToDevice));
  kernel<<<1, 32>>>(d_in, d_out);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> got(128);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, sizeof(float) * 128, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      const int row = l / 4 + 8 * (i / 2), col = (l % 4) * 2 + (i & 1);
      float want = C[row * 8 + col];
      for (int x = 0; x < k; ++x) want += dense[row * k + x] * B[x * 8 + col];
      if (got[l * 4 + i] != want && bad++ < 5)
        printf("mma_sparse: %s D[%d][%d] = %g, want %g\n", name, row, col, got[l * 4 + i], want);
    }
  return bad;
}

int main() {
  const int bad = check(16, false, 1, sparse_k16, "m16n8k16.f16") +
                  check(32, true, 0, sparse_k32, "m16n8k32.bf16");
  printf("mma_sparse: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
