// Hong & Kim ISCA 2009 micro-benchmark Mb1, coalesced (Table 4: 0 global loads and 23
// computation instructions, 20 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb1_c
#define MB_LOADS 0
#define MB_FP 20
#define MB_UNCOALESCED 0
#include "../mb_kernels.cuh"
