// Blocked LU decomposition (Rodinia-like), Doolittle without pivoting, in place on a row-major
// n x n float matrix; n is a multiple of the block size B = 16. On return the strict lower
// triangle holds L (its unit diagonal is implied) and the upper triangle holds U.
//
// For each diagonal step i = 0, B, 2B, ..., n - B the host launches
//   lud_diagonal  - one CTA of B threads factorises the B x B diagonal block (i, i) in shared
//                   memory: for each pivot k the threads below k divide their entry of column k
//                   by the pivot, then every row below k updates its entries right of k;
//   lud_perimeter - one CTA of 2B threads per block b to the right of / below the diagonal block
//                   (j = i + B (b + 1)): the first B threads turn the row-strip block (i, j) into
//                   U by forward substitution with the unit lower triangle of the diagonal block
//                   (one column each), the other B threads turn the column-strip block (j, i) into
//                   L with the diagonal block's upper triangle (one row each);
//   lud_internal  - a 2D grid of B x B CTAs over the trailing blocks (r, c): each thread
//                   subtracts the dot product of its row of L(r, i) and its column of U(i, c).
// The last step launches only lud_diagonal. The launch list is written out for the largest size;
// at smaller sizes the launches past the matrix get a one-CTA grid whose threads return at once
// (the checks below are uniform over a CTA, so no thread skips a __syncthreads another waits in).
#define B 16

extern "C" __global__ void lud_diagonal(float* a, int n, int i) {
  __shared__ float d[B][B];
  if (i >= n) return;
  const int t = threadIdx.x;
  for (int r = 0; r < B; ++r) d[r][t] = a[(i + r) * n + i + t];
  __syncthreads();
  for (int k = 0; k < B - 1; ++k) {
    if (t > k) d[t][k] = d[t][k] / d[k][k];
    __syncthreads();
    if (t > k) {
      const float l = d[t][k];
      for (int c = k + 1; c < B; ++c) d[t][c] -= l * d[k][c];
    }
    __syncthreads();
  }
  for (int r = 0; r < B; ++r) a[(i + r) * n + i + t] = d[r][t];
}

extern "C" __global__ void lud_perimeter(float* a, int n, int i) {
  __shared__ float dia[B][B];
  __shared__ float row[B][B];      // block (i, j): rows of the diagonal step, columns of block j
  __shared__ float col[B][B + 1];  // block (j, i), padded: thread r walks along its own row
  const int j = i + B * (blockIdx.x + 1);
  if (j >= n) return;
  const int t = threadIdx.x;
  const int u = t % B;
  const bool upper = t < B;  // first half: the row-strip block; second half: the column strip

  // Loads: each half brings in half of the diagonal block and all of its own strip block.
  const int r0 = upper ? 0 : B / 2;
  for (int r = r0; r < r0 + B / 2; ++r) dia[r][u] = a[(i + r) * n + i + u];
  if (upper) {
    for (int r = 0; r < B; ++r) row[r][u] = a[(i + r) * n + j + u];
  } else {
    for (int r = 0; r < B; ++r) col[r][u] = a[(j + r) * n + i + u];
  }
  __syncthreads();

  if (upper) {
    // Column u of U(i, j) = L(i, i)^-1 A(i, j): forward substitution, unit diagonal.
    for (int r = 1; r < B; ++r) {
      float x = row[r][u];
      for (int k = 0; k < r; ++k) x -= dia[r][k] * row[k][u];
      row[r][u] = x;
    }
  } else {
    // Row u of L(j, i) = A(j, i) U(i, i)^-1: substitution against the upper triangle.
    for (int c = 0; c < B; ++c) {
      float x = col[u][c];
      for (int k = 0; k < c; ++k) x -= col[u][k] * dia[k][c];
      col[u][c] = x / dia[c][c];
    }
  }
  __syncthreads();

  // Stores by rows of the matrix (consecutive threads, consecutive addresses).
  if (upper) {
    for (int r = 0; r < B; ++r) a[(i + r) * n + j + u] = row[r][u];
  } else {
    for (int r = 0; r < B; ++r) a[(j + r) * n + i + u] = col[r][u];
  }
}

extern "C" __global__ void lud_internal(float* a, int n, int i) {
  __shared__ float l[B][B];
  __shared__ float up[B][B];
  const int rb = i + B * (blockIdx.y + 1);  // first row of the trailing block
  const int cb = i + B * (blockIdx.x + 1);  // first column of the trailing block
  if (rb >= n || cb >= n) return;
  const int tx = threadIdx.x, ty = threadIdx.y;
  l[ty][tx] = a[(rb + ty) * n + i + tx];   // L(r, i)
  up[ty][tx] = a[(i + ty) * n + cb + tx];  // U(i, c)
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < B; ++k) sum += l[ty][k] * up[k][tx];
  a[(rb + ty) * n + cb + tx] -= sum;
}
