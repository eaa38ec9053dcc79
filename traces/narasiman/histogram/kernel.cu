// Histogram of the bytes (ASCII characters) of a large text. Each CTA keeps 256 bins in shared
// memory: it zeroes them, streams the text as 32-bit words with a grid-stride loop (one coalesced
// 128-byte line per warp load), unpacks the 4 characters of each word and counts each with a
// shared-memory atomicAdd, then adds its bins into the global histogram with global atomicAdd
// (order-independent, so the result is deterministic). No data-dependent branches: every lane of a
// warp follows the same path. Requires the byte count to be a multiple of 4 (nwords = bytes / 4).
extern "C" __global__ void histogram(const unsigned* text, unsigned* hist, unsigned nwords) {
  __shared__ unsigned bins[256];
  const unsigned tid = threadIdx.x;
  for (unsigned b = tid; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();

  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < nwords; i += stride) {
    const unsigned w = text[i];
    atomicAdd(&bins[w & 0xffu], 1u);
    atomicAdd(&bins[(w >> 8) & 0xffu], 1u);
    atomicAdd(&bins[(w >> 16) & 0xffu], 1u);
    atomicAdd(&bins[w >> 24], 1u);
  }
  __syncthreads();

  for (unsigned b = tid; b < 256; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
}
