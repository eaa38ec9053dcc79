// Shared by the driver-API test programs: CU_CHECK stops with a message naming a failed call,
// EXPECT_CU checks that a call returns the CUresult cuda.h documents for a misuse, and ptx_of
// compiles a kernel source to PTX with NVRTC (the toolkit's, on the host) for cuModuleLoadData.
#pragma once

#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CU_CHECK(call)                                                                   \
  do {                                                                                   \
    const CUresult r_ = (call);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                            \
      const char* name_ = nullptr;                                                       \
      cuGetErrorName(r_, &name_);                                                        \
      std::printf("%s: FAILED at line %d: %s = %s\n", kProgram, __LINE__, #call, name_); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

#define EXPECT_CU(expected, call)                                                             \
  do {                                                                                        \
    const CUresult r_ = (call);                                                               \
    if (r_ != (expected)) {                                                                   \
      std::printf("%s: FAILED at line %d: %s = %d, expected %s\n", kProgram, __LINE__, #call, \
                  int(r_), #expected);                                                        \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

inline std::vector<char> ptx_of(const char* program, const char* source) {
  nvrtcProgram prog;
  const char* options[] = {"--gpu-architecture=compute_75"};
  if (nvrtcCreateProgram(&prog, source, "kernels.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS ||
      nvrtcCompileProgram(prog, 1, options) != NVRTC_SUCCESS) {
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    nvrtcGetProgramLog(prog, log.data());
    std::printf("%s: FAILED (NVRTC could not compile)\n%s\n", program, log.c_str());
    std::exit(1);
  }
  size_t size = 0;
  nvrtcGetPTXSize(prog, &size);
  std::vector<char> ptx(size);
  nvrtcGetPTX(prog, ptx.data());
  nvrtcDestroyProgram(&prog);
  return ptx;
}
