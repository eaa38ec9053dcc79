// Classic integer matrix multiplication C = A x B for n x n row-major matrices, one output element
// per thread iteration, no shared-memory tiling: every product term is two global loads and one
// multiply-add. Outputs are walked in row-major order with a grid-stride loop (element i is row
// i / n, column i % n), so a warp computes 32 adjacent outputs of a row: A[row][k] is one address
// for the whole warp (a broadcast, the line is reused for 32 k) and B[k][col..col+31] is one
// coalesced 128-byte line. The 1024 threads of the core cover only a few rows at a time, so each
// step of k needs a whole row of B; once B is larger than the L1 it is streamed from DRAM again for
// every group of rows. That gives the kernel some long-latency stalls between runs of hits.
extern "C" __global__ void matrix_mult(const int* a, const int* b, int* c, unsigned n) {
  const unsigned total = n * n;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const unsigned row = i / n;
    const unsigned col = i - row * n;
    const int* ap = a + row * n;  // walks along row `row` of A
    const int* bp = b + col;      // walks down column `col` of B
    int sum = 0;
    for (unsigned k = 0; k < n; ++k) {
      sum += *ap * *bp;
      ap += 1;
      bp += n;
    }
    c[i] = sum;
  }
}
