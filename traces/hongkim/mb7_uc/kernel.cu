// Hong & Kim ISCA 2009 micro-benchmark Mb7, uncoalesced (Table 4: 6 global loads and 59
// computation instructions, 20 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb7_uc
#define MB_LOADS 6
#define MB_FP 20
#define MB_UNCOALESCED 1
#include "../mb_kernels.cuh"
