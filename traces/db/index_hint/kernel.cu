// Index-based search, version "hint" (dissertation Fig. 8.4): see ../index_kernels.cuh.
#include "../index_kernels.cuh"

extern "C" __global__ void index_hint(const unsigned* __restrict__ tree, const unsigned* __restrict__ lookups,
                                    unsigned* __restrict__ results, unsigned queries, unsigned levels) {
  index_search<false, true>(tree, lookups, results, queries, levels);
}
