// Block-level sum reduction of u32 values in shared memory: each thread first sums its
// grid-stride slice of the input, then the CTA combines the 256 partial sums with a
// __syncthreads() tree, and thread 0 writes the CTA's sum to out[blockIdx.x] (wrapping u32
// arithmetic, no atomics). The block size must be 256 (the size of the shared array).
#define BLOCK 256

extern "C" __global__ void shared_reduction(const unsigned* in, unsigned* out, unsigned n) {
  __shared__ unsigned partial[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned stride = gridDim.x * BLOCK;
  unsigned sum = 0;
  for (unsigned i = blockIdx.x * BLOCK + tid; i < n; i += stride) sum += in[i];
  partial[tid] = sum;
  __syncthreads();
  // Every thread runs every step (the bound is the same for the whole CTA); only the lower
  // half of the remaining range adds.
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
