// Test fixture for a workload without a CPU reference (tests/system/test_noref.cpp): a struct
// parameter (with a pointer field), a pointer into the middle of a buffer, a 64-bit scalar and a
// float4. out[i] = in[i] * s.scale + s.bias + (i < s.n ? s.extra[i] : 0) + (uint32_t)(big >> 32) + (uint32_t)v.y
// for i < n; the pointer `in` points 64 bytes into buffer "a".
#include <cstdint>

struct Affine {
  uint32_t scale;
  int32_t bias;
  const uint32_t* extra;  // 8-byte aligned: the struct is .align 8, 24 bytes
  uint32_t n;
};

extern "C" __global__ void affine(Affine s, const uint32_t* in, uint32_t* out, uint64_t big, float4 v, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t r = in[i] * s.scale + static_cast<uint32_t>(s.bias);
  if (i < s.n) r += s.extra[i];
  r += static_cast<uint32_t>(big >> 32) + static_cast<uint32_t>(v.y);
  out[i] = r;
}
