// How the driver API's C functions run (driver_api.cpp, driver_api_module.cpp): as the runtime's
// (api_support.h guarded()), after checking that cuInit was called.
#pragma once

#include "runtime/api_support.h"
#include "runtime/driver_abi.h"
#include "runtime/runtime.h"

namespace gputlm::runtime {

// Runs `body` (returning a CUresult as CudaError) as guarded() does; CUDA_ERROR_NOT_INITIALIZED
// before cuInit.
template <typename Body>
int driver(const char* api, Body&& body) {
  return guarded(
      api, [&] { return Runtime::get().driver_initialised() ? body() : kDriverNotInitialized; });
}

}  // namespace gputlm::runtime
