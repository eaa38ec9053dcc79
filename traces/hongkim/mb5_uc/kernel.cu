// Hong & Kim ISCA 2009 micro-benchmark Mb5, uncoalesced (Table 4: 2 global loads and 35
// computation instructions, 20 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb5_uc
#define MB_LOADS 2
#define MB_FP 20
#define MB_UNCOALESCED 1
#include "../mb_kernels.cuh"
