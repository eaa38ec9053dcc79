// Shared by the test programs: stop with a message naming the call when a runtime API call fails.
#pragma once

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    const cudaError_t e_ = (call);                                            \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(e_), cudaGetErrorName(e_));             \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)
