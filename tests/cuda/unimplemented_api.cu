// Calls a runtime API function gputlm does not implement (cudaIpcGetMemHandle: memory shared with
// another process): the run must end with exit status 2 and one message naming it, before the
// program could print a result.
#include "cuda_check.h"

int main() {
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, 256));
  cudaIpcMemHandle_t handle;
  const cudaError_t e = cudaIpcGetMemHandle(&handle, p);
  std::printf("unimplemented_api: FAILED (cudaIpcGetMemHandle returned %d)\n", static_cast<int>(e));
  return 1;
}
