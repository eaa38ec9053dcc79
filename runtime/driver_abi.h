// The parts of the CUDA driver API's binary interface (cuda.h of CUDA 13.0) the stand-in
// implements: CUresult codes where they differ from the runtime's cudaError_t values (those it
// shares, such as CUDA_ERROR_INVALID_VALUE = 1 or CUDA_ERROR_INVALID_HANDLE = 400, are the
// CudaError values of cuda_abi.h), their names and texts, and the launch's parameter-buffer
// markers.
#pragma once

#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

constexpr CudaError kDriverNotInitialized = CudaError(3);    // CUDA_ERROR_NOT_INITIALIZED
constexpr CudaError kDriverInvalidImage = CudaError(200);    // CUDA_ERROR_INVALID_IMAGE
constexpr CudaError kDriverInvalidContext = CudaError(201);  // CUDA_ERROR_INVALID_CONTEXT
constexpr CudaError kDriverNotFound = CudaError(500);        // CUDA_ERROR_NOT_FOUND
constexpr CudaError kDriverInvalidHandle =
    kErrorInvalidResourceHandle;  // CUDA_ERROR_INVALID_HANDLE

// cuLaunchKernel's `extra`: CU_LAUNCH_PARAM_END, _BUFFER_POINTER, _BUFFER_SIZE.
constexpr uintptr_t kLaunchParamEnd = 0, kLaunchParamBufferPointer = 1, kLaunchParamBufferSize = 2;

// cuGetErrorName and cuGetErrorString; nullptr for a code the driver does not define.
const char* driver_error_name(int code);
const char* driver_error_string(int code);

}  // namespace gputlm::runtime
