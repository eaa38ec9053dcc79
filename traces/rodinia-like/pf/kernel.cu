// Particle filter (Rodinia-like "pf"), the weight normalisation step, in one CTA.
//
// sum_weights (helper, runs first): one CTA adds up the n particle weights. Each thread sums the
// weights i = t, t + blockDim.x, ... in order, then the per-thread sums are combined by a tree in
// shared memory (halving the active threads each step, __syncthreads between steps); thread 0
// writes the total to sum[0]. blockDim.x must be a power of two, at most 1024.
//
// normalize_weights_kernel: the same CTA shape. Every thread divides its weights by the total,
// then thread 0 alone walks all n normalised weights and writes their running sum (the CDF used
// for resampling), and derives u1 = rand_u[0] / n from the random number in rand_u; after a
// barrier every thread writes u[i] = u1 + i / n for its particles.
extern "C" __global__ void sum_weights(const float* w, float* sum, unsigned n) {
  __shared__ float part[1024];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (unsigned i = t; i < n; i += blockDim.x) acc += w[i];
  part[t] = acc;
  __syncthreads();
  for (unsigned half = blockDim.x >> 1; half > 0; half >>= 1) {
    if (t < half) part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0) sum[0] = part[0];
}

extern "C" __global__ void normalize_weights_kernel(float* w, const float* sum, float* cdf,
                                                    const float* rand_u, float* u, unsigned n) {
  __shared__ float total;
  __shared__ float u1;
  const unsigned t = threadIdx.x;
  if (t == 0) total = sum[0];
  __syncthreads();
  for (unsigned i = t; i < n; i += blockDim.x) w[i] = w[i] / total;
  __syncthreads();
  if (t == 0) {
    float running = 0.0f;
    for (unsigned j = 0; j < n; ++j) {
      running += w[j];
      cdf[j] = running;
    }
    u1 = rand_u[0] / (float)n;
  }
  __syncthreads();
  for (unsigned i = t; i < n; i += blockDim.x) u[i] = u1 + (float)i / (float)n;
}
