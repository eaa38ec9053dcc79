// Needleman-Wunsch global alignment score matrix of DNA sequence pairs (Rodinia nw, linear gap
// score). CTA b aligns pair b: a (rows, `rows` bases) against b (columns, 2 * blockDim.x bases).
// H(r, 0) = r * gap, H(0, c) = c * gap,
// H(r, c) = max(H(r-1, c-1) + (a[r-1] == b[c-1] ? match : mismatch), H(r-1, c) + gap, H(r, c-1) + gap).
//
// Tiled wavefront: warp w owns the strip of 64 columns 64w+1..64w+64, lane l its two columns
// c = 64w+2l+1, 64w+2l+2, and the warp sweeps all rows with the lanes skewed by one row (step s:
// lane l computes row s-l+1), taking its left neighbour's values with __shfl_sync. Lane 31 passes
// the strip's last column to the next warp through a ring in shared memory. Warps run in phases
// of 32 steps with a __syncthreads between phases and warp w lagging warp w-1 by two phases, so
// whole warps are either busy or idle and only the first and last 31 steps of a strip have idle
// lanes. Every thread runs every phase and reaches every barrier.
//
// Output: score[b][s][c - 1] = H(r, c) with s = r - 1 + ((c - 1) % 64) / 2 (rows + 31 skewed rows
// of 2 * blockDim.x words per pair), so that each warp step writes 256 contiguous bytes.
#define RING 128
#define MAX_WARPS 32

extern "C" __global__ void needleman(const unsigned char* seq_a, const unsigned char* seq_b,
                                     int* score, int rows, int match, int mismatch, int gap) {
  __shared__ int sedge[MAX_WARPS][RING];  // H(r, 64w + 64) of strip w at [w][r % RING]
  __shared__ int sjunk[MAX_WARPS * 32];   // where the other lanes' edge stores go
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const int nwarps = blockDim.x >> 5;
  const int cols = 2 * blockDim.x;
  const unsigned char* a = seq_a + blockIdx.x * rows;
  const unsigned char* b = seq_b + blockIdx.x * cols;
  int* out = score + (size_t)blockIdx.x * (rows + 31) * cols;

  const int c1 = 64 * warp + 2 * lane + 1;  // my columns c1 and c1 + 1
  const int b1 = b[c1 - 1];
  const int b2 = b[c1];
  int up1 = c1 * gap;          // H(r - 1, c1)
  int up2 = (c1 + 1) * gap;    // H(r - 1, c1 + 1)
  int diag = (c1 - 1) * gap;   // H(r - 1, c1 - 1)
  int* edge_dst = lane == 31 ? &sedge[warp][0] : &sjunk[tid];
  const int edge_mask = lane == 31 ? RING - 1 : 0;
  const int* edge_src = &sedge[warp > 0 ? warp - 1 : 0][0];

  const int strip_phases = (rows + 31 + 31) / 32;  // steps 0 .. rows + 30
  const int phases = strip_phases + 2 * (nwarps - 1);
  for (int p = 0; p < phases; ++p) {
    const int q = p - 2 * warp;  // my phase within the strip (uniform in the warp)
    if (q >= 0 && q < strip_phases) {
      for (int s = 32 * q; s < 32 * q + 32; ++s) {
        const int r = s - lane + 1;
        // H(r, c1 - 1): the left lane's second column, computed in its previous step; lane 0
        // reads the previous strip's edge (or the boundary column for strip 0).
        int left = __shfl_sync(0xffffffffu, up2, (lane + 31) & 31);
        const int e = warp > 0 ? edge_src[r & (RING - 1)] : r * gap;
        if (lane == 0) left = e;
        if (r >= 1 && r <= rows) {
          const int ar = a[r - 1];
          const int h1 = max(diag + (ar == b1 ? match : mismatch), max(up1, left) + gap);
          const int h2 = max(up1 + (ar == b2 ? match : mismatch), max(up2, h1) + gap);
          out[s * cols + c1 - 1] = h1;
          out[s * cols + c1] = h2;
          edge_dst[r & edge_mask] = h2;
          up1 = h1;
          up2 = h2;
        }
        diag = left;
      }
    }
    __syncthreads();
  }
}
