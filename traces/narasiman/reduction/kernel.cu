// Parallel sum of a large vector of boolean values (bytes that are 0 or 1). Optimised as the
// papers' benchmarks were ("memory coalescing", Ryoo et al. PPoPP 2008): each thread streams 16
// booleans a trip as one 128-bit load (a warp reads 512 contiguous bytes, 4 whole lines, per
// load) with a grid-stride loop. The four words are added first (each byte then holds at most 4)
// and one multiply sums the bytes (w * 0x01010101 puts b0+b1+b2+b3 in the top byte; no carries
// since each byte sum is <= 16). Then the CTA reduces: shuffles within each warp, one partial per
// warp in shared memory, the first warp adds those, and one atomicAdd per CTA into the single u32
// result (order-independent). About 2.5 warp instructions per 128-byte line loaded: memory bound.
// Requires blockDim.x % 32 == 0 (full warps for the shuffles) and the byte count to be a multiple
// of 16 (nvec = bytes / 16).
extern "C" __global__ void reduction(const uint4* vec, unsigned* sum, unsigned nvec) {
  __shared__ unsigned warp_sums[32];
  const unsigned tid = threadIdx.x;
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned acc = 0;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < nvec; i += stride) {
    const uint4 v = vec[i];
    acc += ((v.x + v.y + v.z + v.w) * 0x01010101u) >> 24;
  }

  for (unsigned off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  const unsigned lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    unsigned v = lane < (blockDim.x >> 5) ? warp_sums[lane] : 0u;
    for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomicAdd(sum, v);
  }
}
