// Gaussian elimination (Rodinia-like) of a dense n x n system A x = b, row-major floats, without
// pivoting (the generated matrix is diagonally dominant). For each pivot row t = 0 .. n-2 the host
// launches two kernels:
//   Fan1 - one thread per row below t: the multiplier m[row][t] = a[row][t] / a[t][t];
//   Fan2 - a 2D grid over the rows below t (y) and the columns from t on (x): each thread
//          subtracts m[row][t] times the pivot row's element from its element, and the threads of
//          column t also update the right-hand side b[row].
// Both kernels are launched over a fixed grid and let the threads outside the active part of the
// matrix fall through their bounds checks, as the straightforward port does.
extern "C" __global__ void Fan1(const float* a, float* m, int n, int t) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;  // offset of the row below the pivot
  if (r < n - 1 - t) {
    const int row = t + 1 + r;
    m[row * n + t] = a[row * n + t] / a[t * n + t];
  }
}

extern "C" __global__ void Fan2(float* a, float* b, const float* m, int n, int t) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;  // column offset from the pivot column
  const int r = blockIdx.y * blockDim.y + threadIdx.y;  // offset of the row below the pivot
  if (r >= n - 1 - t) return;
  if (c >= n - t) return;
  const int row = t + 1 + r;
  const int col = t + c;
  const float mult = m[row * n + t];
  a[row * n + col] -= mult * a[t * n + col];
  if (c == 0) b[row] -= mult * b[t];
}
