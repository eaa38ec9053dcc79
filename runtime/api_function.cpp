// Runtime API: what a program asks about its kernels and their occupancy. cudaFuncGetAttributes
// reports the kernel's PTX (the PTX target as ptxVersion, which CUB and Thrust read to pick their
// tuning); the occupancy calculator is the timing model's own CTA limit (kernel_attributes.h).
#include <algorithm>
#include <cstdlib>
#include <string>

#include "runtime/api_support.h"
#include "runtime/device_attributes.h"
#include "runtime/kernel_attributes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }

// The kernel a host function names, with its PTX (throws the kernel's front-end error, as its
// launch would); nullptr when the function is not a registered kernel.
RegisteredKernel* kernel_of(const void* host_fun) {
  RegisteredKernel* k = Runtime::get().kernel(host_fun);
  if (k && !k->kernel) k->module->ptx->get(k->name);
  return k;
}

}  // namespace

extern "C" {

int cudaFuncGetAttributes(FuncAttributes* attr, const void* host_fun) {
  return guarded("cudaFuncGetAttributes", [&] {
    if (!attr) return record(kErrorInvalidValue);
    const RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    *attr = kernel_attributes(*k);
    return kSuccess;
  });
}

int cudaFuncSetAttribute(const void* host_fun, int attr, int value) {
  return guarded("cudaFuncSetAttribute", [&] {
    RegisteredKernel* k = kernel_of(host_fun);
    return record(k ? set_kernel_attribute(*k, attr, value) : kErrorInvalidDeviceFunction);
  });
}

int cudaFuncSetCacheConfig(const void* host_fun, int) {
  return guarded("cudaFuncSetCacheConfig", [&] {
    return record(kernel_of(host_fun) ? kSuccess : kErrorInvalidDeviceFunction);
  });
}

int cudaFuncSetSharedMemConfig(const void* host_fun, int) {
  return guarded("cudaFuncSetSharedMemConfig", [&] {
    return record(kernel_of(host_fun) ? kSuccess : kErrorInvalidDeviceFunction);
  });
}

int cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* host_fun,
                                                           int threads, size_t dynamic_shared,
                                                           unsigned flags) {
  return guarded("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&] {
    if (!blocks || threads <= 0 || flags > 1) return record(kErrorInvalidValue);
    const RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    *blocks = occupancy(*k, threads, dynamic_shared);
    return kSuccess;
  });
}

int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* host_fun, int threads,
                                                  size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, host_fun, threads,
                                                                dynamic_shared, 0);
}

// The most dynamic shared memory a CTA may have so that `ctas` CTAs of `threads` threads fit on
// a core at once.
int cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* host_fun, int ctas,
                                              int threads) {
  return guarded("cudaOccupancyAvailableDynamicSMemPerBlock", [&] {
    if (!bytes || ctas <= 0 || threads <= 0) return record(kErrorInvalidValue);
    const RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    size_t lo = 0, hi = static_cast<size_t>(shared_room(*k));
    if (occupancy(*k, threads, 0) < ctas) hi = 0;
    while (lo < hi) {  // the largest size that still fits `ctas`
      const size_t mid = (lo + hi + 1) / 2;
      if (occupancy(*k, threads, mid) >= ctas)
        lo = mid;
      else
        hi = mid - 1;
    }
    *bytes = lo;
    return kSuccess;
  });
}

// cuda_profiler_api.h: the launches between a start and a stop form a profiler range in the
// statistics (ProgramRun::profiler_start).
int cudaProfilerStart() {
  return guarded("cudaProfilerStart", [] {
    Runtime::get().program().profiler_start();
    return kSuccess;
  });
}
int cudaProfilerStop() {
  return guarded("cudaProfilerStop", [] {
    Runtime::get().program().profiler_stop();
    return kSuccess;
  });
}

}  // extern "C"
