// Hong & Kim ISCA 2009 micro-benchmark Mb6, coalesced (Table 4: 4 global loads and 47
// computation instructions, 20 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb6_c
#define MB_LOADS 4
#define MB_FP 20
#define MB_UNCOALESCED 0
#include "../mb_kernels.cuh"
