// Naive float matrix multiplication C = A x B for n x n row-major matrices, one output element per
// thread and no shared memory: the thread walks row `row` of A and column `col` of B, two global
// loads and one fused multiply-add per step of k (2n loads and one store per thread). Threads are
// numbered along the rows of C, so a warp reads one A element (the same address for every lane)
// and a run of consecutive B elements at each step.
extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * n) return;
  const unsigned row = i / n;
  const unsigned col = i - row * n;
  float sum = 0.0f;
  for (unsigned k = 0; k < n; ++k) sum = __fmaf_rn(a[row * n + k], b[k * n + col], sum);
  c[i] = sum;
}
