// One 16x16x16 tensor-core product per CTA (one warp): the CTA's 16x16 tile of A (row-major
// halves) and of B (column-major halves) come into shared memory with cp.async (16 bytes a
// thread a copy, one commit group, waited for with wait_group 0), wmma multiplies them into a
// float accumulator, and the 16x16 float tile of C is stored row-major. The instructions of
// issue 40 in one small kernel: cp.async.{cg,commit_group,wait_group}, wmma.load/mma/store.
// nvcc-arch: sm_80 (scripts/regen_ptx.sh: cp.async needs it)
#include <cuda_pipeline.h>
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void tile_mma(const half* a, const half* b, float* c) {
  __shared__ __align__(32) half sa[256], sb[256];
  const unsigned t = threadIdx.x, tile = blockIdx.x * 256;
  for (unsigned i = t * 8; i < 256; i += 32 * 8) {
    __pipeline_memcpy_async(&sa[i], &a[tile + i], 16);
    __pipeline_memcpy_async(&sb[i], &b[tile + i], 16);
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c + tile, fc, 16, wmma::mem_row_major);
}
