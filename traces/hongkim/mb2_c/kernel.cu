// Hong & Kim ISCA 2009 micro-benchmark Mb2, coalesced (Table 4: 1 global load and 17
// computation instructions, 8 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb2_c
#define MB_LOADS 1
#define MB_FP 8
#define MB_UNCOALESCED 0
#include "../mb_kernels.cuh"
