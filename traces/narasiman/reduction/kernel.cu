// Parallel sum of a large vector of boolean values (bytes that are 0 or 1). Each thread streams
// 32-bit words (4 booleans) with a grid-stride loop and adds the bytes of each word with one
// multiply (w * 0x01010101 puts b0+b1+b2+b3 in the top byte; no carries since each sum is <= 4);
// then the CTA reduces: shuffles within each warp, one partial per warp in shared memory, the
// first warp adds those, and one atomicAdd per CTA into the single u32 result (order-independent).
// Very little work per byte loaded: memory bound. Requires blockDim.x % 32 == 0 (full warps for
// the shuffles) and the byte count to be a multiple of 4 (nwords = bytes / 4).
extern "C" __global__ void reduction(const unsigned* words, unsigned* sum, unsigned nwords) {
  __shared__ unsigned warp_sums[32];
  const unsigned tid = threadIdx.x;
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned acc = 0;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < nwords; i += stride)
    acc += (words[i] * 0x01010101u) >> 24;

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
