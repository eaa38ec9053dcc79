// Hong & Kim ISCA 2009 micro-benchmark Mb3, uncoalesced (Table 4: 1 global load and 29
// computation instructions, 20 of them floating-point, per loop trip). See mb_kernels.cuh.
#define MB_NAME mb3_uc
#define MB_LOADS 1
#define MB_FP 20
#define MB_UNCOALESCED 1
#include "../mb_kernels.cuh"
