// Index-based search, version "tt" (dissertation Fig. 8.4): see ../index_kernels.cuh.
#include "../index_kernels.cuh"

extern "C" __global__ void index_tt(const unsigned* __restrict__ tree, const unsigned* __restrict__ lookups,
                                    unsigned* __restrict__ results, unsigned queries, unsigned levels) {
  index_search<true, false>(tree, lookups, results, queries, levels);
}
