// Full table scan, step 3 with COND_ACC (dissertation section 7.1): see ../scan_kernels.cuh.
#include "../scan_kernels.cuh"

extern "C" __global__ void scan_condacc(const unsigned* __restrict__ column, unsigned* __restrict__ out,
                                        unsigned* __restrict__ out_count, unsigned rows, unsigned max_value) {
  full_table_scan<true>(column, out, out_count, rows, max_value);
}
