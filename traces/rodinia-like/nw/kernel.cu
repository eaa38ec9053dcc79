// Needleman-Wunsch (Rodinia-like): the global alignment score matrix of two sequences of length n,
// computed one diagonal of 16x16 blocks at a time.
//
// score is (n+1) x (n+1) row-major; row 0 and column 0 hold the gap borders (-i * penalty).
// Cell (i, j), 1 <= i, j <= n, is max(score[i-1][j-1] + similarity[i-1][j-1],
// score[i-1][j] - penalty, score[i][j-1] - penalty); similarity is n x n row-major.
//
// Block (bi, bj) covers cells (bi*B + 1 .. bi*B + B, bj*B + 1 .. bj*B + B). It depends on the
// blocks above and to the left, so the blocks of one anti-diagonal bi + bj = const are
// independent: the host launches needle_cuda_shared_1 for the diagonals with d = 1 .. nb blocks (the
// upper-left triangle) and needle_cuda_shared_2 for d = nb-1 .. 1 (the lower-right one), nb = n / B.
// One CTA of B threads per block: it stages the block's similarities and the score row above and
// column left of it in shared memory, sweeps the block's 2B-1 anti-diagonals there (thread t owns
// row t, __syncthreads between steps) and stores the B x B results.
//
// A launch listed for a diagonal that does not exist at this n (d > nb, or d < 1 for needle_cuda_shared_2)
// runs one CTA that returns at once, so one launch list serves every n up to 32 * B.
#define B 16

__device__ __forceinline__ void nw_block(const int* similarity, int* score, int n, int penalty,
                                         int bi, int bj) {
  __shared__ int sim[B][B];
  __shared__ int s[B + 1][B + 1];

  const int t = threadIdx.x;
  const int w = n + 1;  // row stride of score
  const int row0 = bi * B, col0 = bj * B;  // score cell (row0, col0) is the corner above-left

  if (t == 0) s[0][0] = score[row0 * w + col0];
  s[0][t + 1] = score[row0 * w + col0 + t + 1];
  s[t + 1][0] = score[(row0 + t + 1) * w + col0];
  for (int r = 0; r < B; ++r) sim[r][t] = similarity[(row0 + r) * n + col0 + t];
  __syncthreads();

  for (int step = 0; step < 2 * B - 1; ++step) {
    const int j = step - t;
    if (j >= 0 && j < B) {
      const int diag = s[t][j] + sim[t][j];
      const int up = s[t][j + 1] - penalty;
      const int left = s[t + 1][j] - penalty;
      s[t + 1][j + 1] = max(diag, max(up, left));
    }
    __syncthreads();
  }

  for (int r = 0; r < B; ++r) score[(row0 + r + 1) * w + col0 + t + 1] = s[r + 1][t + 1];
}

// Diagonal with d blocks in the upper-left triangle: blocks (b, d-1-b), b = 0 .. d-1.
extern "C" __global__ void needle_cuda_shared_1(const int* similarity, int* score, int n, int penalty, int d) {
  const int nb = n / B;
  if (d < 1 || d > nb) return;
  const int b = blockIdx.x;
  nw_block(similarity, score, n, penalty, b, d - 1 - b);
}

// Diagonal with d blocks in the lower-right triangle: blocks (nb-d+b, nb-1-b), b = 0 .. d-1.
extern "C" __global__ void needle_cuda_shared_2(const int* similarity, int* score, int n, int penalty, int d) {
  const int nb = n / B;
  if (d < 1 || d >= nb) return;
  const int b = blockIdx.x;
  nw_block(similarity, score, n, penalty, nb - d + b, nb - 1 - b);
}
