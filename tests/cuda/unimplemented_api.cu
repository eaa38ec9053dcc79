// Calls a runtime API function gputlm does not implement (cudaFuncGetAttributes): the run must
// end with exit status 2 and one message naming it, before the program could print a result.
#include "cuda_check.h"

__global__ void empty() {}

int main() {
  cudaFuncAttributes attributes;
  const cudaError_t e = cudaFuncGetAttributes(&attributes, empty);
  std::printf("unimplemented_api: FAILED (cudaFuncGetAttributes returned %d)\n", static_cast<int>(e));
  return 1;
}
