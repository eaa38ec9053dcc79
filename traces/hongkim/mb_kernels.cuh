// The Hong & Kim (ISCA 2009) micro-benchmarks, Table 4: one thread computes alone and repeats a
// loop `loops` times; each trip makes MB_LOADS global loads and MB_FP floating-point
// instructions. Each kernel.cu defines MB_NAME, MB_LOADS, MB_FP and MB_UNCOALESCED, then
// includes this file (mb_reference.h is the CPU side: keep the two in step).
//
// Addresses are lines of 32 words (128 B) of `in`, which holds `lines` lines (a power of two,
// lmask = lines - 1). A thread reads word 32 * line + lane. Coalesced: the 32 threads of a warp
// share one line index (their warp's), so a warp load is one line. Uncoalesced: every thread has
// its own line index, so a warp load is 32 lines. A slot is one load of the whole grid and
// covers `slot_lines` lines (span / 32 warps' lines or span threads' lines; span >= the grid's
// threads, a power of two). The load before the loop is slot 0; load k of trip j is slot
// 1 + j * MB_LOADS + k, so every load of every trip reads lines no other trip nearby reads; the
// line index wraps at `lines`.
//
// The floating-point work is 4 independent chains of a = a * h + b (fmaf; h = 0.75 is a parameter
// so that no constant is moved into a register inside the loop): the first MB_LOADS operations of
// a trip take b from the loads, the others from x0, the value loaded before the loop. The chains
// start at x0, 1, 2 and 3 (distinct, so that the compiler cannot merge them). The result
// (a0 + a1) + (a2 + a3) is stored once, coalesced (out[tid]) or not (out[32 * tid]). Blocks must
// be whole warps (lane = threadIdx.x & 31).
#if MB_LOADS > MB_FP
#error "each load feeds one floating-point operation"
#endif

extern "C" __global__ void MB_NAME(const float* in, float* out, unsigned loops, unsigned span, unsigned lmask,
                                   float h) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31;
  const unsigned line = MB_UNCOALESCED ? tid : tid >> 5;
  const float x0 = in[32 * (line & lmask) + lane];
  float a[4] = {x0, 1.0f, 2.0f, 3.0f};
#if MB_LOADS > 0
  const unsigned slot_lines = MB_UNCOALESCED ? span : span >> 5;
  unsigned l[MB_LOADS];
#pragma unroll
  for (int k = 0; k < MB_LOADS; ++k) l[k] = (line + (1 + k) * slot_lines) & lmask;
  const unsigned step = MB_LOADS * slot_lines;
#endif
#pragma unroll 1
  for (unsigned j = 0; j < loops; ++j) {
#pragma unroll
    for (int n = 0; n < MB_FP; ++n) {
      float b = x0;
#if MB_LOADS > 0
      if (n < MB_LOADS) {
        b = in[32 * l[n] + lane];
        l[n] = (l[n] + step) & lmask;
      }
#endif
      a[n % 4] = fmaf(a[n % 4], h, b);
    }
  }
  out[MB_UNCOALESCED ? 32 * tid : tid] = (a[0] + a[1]) + (a[2] + a[3]);
}
