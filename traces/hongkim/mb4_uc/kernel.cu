// Hong & Kim ISCA 2009 micro-benchmark Mb4, uncoalesced (Table 4: 2 global loads and 27
// computation instructions, 12 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb4_uc
#define MB_LOADS 2
#define MB_FP 12
#define MB_UNCOALESCED 1
#include "../mb_kernels.cuh"
