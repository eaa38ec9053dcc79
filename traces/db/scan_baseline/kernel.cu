// Full table scan, baseline step 3 (ballot, popc, branch): see ../scan_kernels.cuh.
#include "../scan_kernels.cuh"

extern "C" __global__ void scan_baseline(const unsigned* __restrict__ column, unsigned* __restrict__ out,
                                         unsigned* __restrict__ out_count, unsigned rows, unsigned max_value) {
  full_table_scan<false>(column, out, out_count, rows, max_value);
}
