// Tiled float matrix multiplication C = A x B for n x n row-major matrices. A CTA of TX x TY
// threads (blockDim) computes a TY-row, TX-column tile of C, one element per thread, and walks k
// in windows of tk: each window stages a TY x tk slice of A and a tk x TX slice of B in shared
// memory (extern __shared__, (TY + TX) * tk floats), then every thread runs tk fused
// multiply-adds out of shared memory. The staging loops stride by the block's width and height,
// so any tile shape works; with tk = max(TX, TY) and one side dividing the other, a thread makes
// tk/TX + tk/TY global loads per window, two for a square tile. n must be a multiple of TX, TY
// and tk (the grid is n/TX x n/TY CTAs, no bounds checks).
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, unsigned n, unsigned tk) {
  extern __shared__ float tiles[];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned width = blockDim.x, height = blockDim.y;
  float* a_tile = tiles;                  // [height][tk]
  float* b_tile = tiles + height * tk;    // [tk][width]
  const unsigned row = blockIdx.y * height + ty;
  const unsigned col = blockIdx.x * width + tx;
  const float* a_row = a + row * n;       // row `row` of A
  const float* b_col = b + col;           // column `col` of B
  float sum = 0.0f;
  for (unsigned k0 = 0; k0 < n; k0 += tk) {
    for (unsigned k = tx; k < tk; k += width) a_tile[ty * tk + k] = a_row[k0 + k];
    for (unsigned k = ty; k < tk; k += height) b_tile[k * width + tx] = b_col[(k0 + k) * n];
    __syncthreads();
    for (unsigned k = 0; k < tk; ++k) sum = __fmaf_rn(a_tile[ty * tk + k], b_tile[k * width + tx], sum);
    __syncthreads();
  }
  c[row * n + col] = sum;
}
