// Sepia tone ("artificially aged" look) for an RGB image stored as interleaved bytes
// (r, g, b, r, g, b, ...), one pixel per thread: three byte loads, a 3x3 colour matrix applied in
// float with explicit fused multiply-adds (so the CPU reference can repeat the exact roundings),
// clamped to 255 and truncated back to bytes, three byte stores. A warp's 32 pixels are 96
// consecutive bytes read and written one byte per lane at a stride of 3.
extern "C" __global__ void sepia(const unsigned char* in, unsigned char* out, unsigned pixels) {
  const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  const unsigned char* src = in + 3 * p;
  const float r = src[0], g = src[1], b = src[2];
  // Output channel = wr * r + wg * g + wb * b, evaluated as fma(b, wb, fma(g, wg, r * wr)).
  const float nr = __fmaf_rn(b, 0.189f, __fmaf_rn(g, 0.769f, r * 0.393f));
  const float ng = __fmaf_rn(b, 0.168f, __fmaf_rn(g, 0.686f, r * 0.349f));
  const float nb = __fmaf_rn(b, 0.131f, __fmaf_rn(g, 0.534f, r * 0.272f));
  unsigned char* dst = out + 3 * p;
  dst[0] = static_cast<unsigned char>(fminf(nr, 255.0f));
  dst[1] = static_cast<unsigned char>(fminf(ng, 255.0f));
  dst[2] = static_cast<unsigned char>(fminf(nb, 255.0f));
}
