// Runtime API: the device's resource limits (cudaDeviceSetLimit, cudaDeviceGetLimit; CUDA 13's
// cuda_runtime_api.h). The printf FIFO and the malloc heap size what kernels get
// (func::DeviceServices): each can change only until a kernel that uses it has been launched,
// after which setting it returns cudaErrorInvalidValue, as CUDA documents. The others are stored
// and read back with no effect on the simulation: the stack size (a thread's local memory is what
// its kernel needs), the device runtime's sync depth (at most 24) and pending launch count, and
// the L2 hints (the fetch granularity is clamped to 128 bytes, as CUDA may clamp it).
#include <cstddef>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

// cudaLimit (driver_types.h of CUDA 13).
enum Limit : int {
  kLimitStackSize = 0x00,
  kLimitPrintfFifoSize = 0x01,
  kLimitMallocHeapSize = 0x02,
  kLimitDevRuntimeSyncDepth = 0x03,
  kLimitDevRuntimePendingLaunchCount = 0x04,
  kLimitMaxL2FetchGranularity = 0x05,
  kLimitPersistingL2CacheSize = 0x06,
};

constexpr size_t kMaxSyncDepth = 24;
constexpr size_t kMaxL2FetchGranularity = 128;

CudaError set_limit(int limit, size_t value) {
  Runtime& rt = Runtime::get();
  DeviceLimits& l = rt.limits();
  switch (limit) {
    case kLimitStackSize:
      l.stack_bytes = value;
      return kSuccess;
    case kLimitPrintfFifoSize:
      return rt.services().set_printf_fifo_bytes(value) ? kSuccess : kErrorInvalidValue;
    case kLimitMallocHeapSize:
      return rt.services().set_heap_bytes(value) ? kSuccess : kErrorInvalidValue;
    case kLimitDevRuntimeSyncDepth:
      if (value > kMaxSyncDepth) return kErrorInvalidValue;
      l.sync_depth = value;
      return kSuccess;
    case kLimitDevRuntimePendingLaunchCount:
      l.pending_launches = value;
      return kSuccess;
    case kLimitMaxL2FetchGranularity:
      l.l2_fetch_granularity = value < kMaxL2FetchGranularity ? value : kMaxL2FetchGranularity;
      return kSuccess;
    case kLimitPersistingL2CacheSize:
      l.persisting_l2_bytes = value;
      return kSuccess;
  }
  return kErrorUnsupportedLimit;
}

CudaError get_limit(size_t& value, int limit) {
  Runtime& rt = Runtime::get();
  const DeviceLimits& l = rt.limits();
  switch (limit) {
    case kLimitStackSize:
      value = l.stack_bytes;
      return kSuccess;
    case kLimitPrintfFifoSize:
      value = rt.services().printf_fifo_bytes();
      return kSuccess;
    case kLimitMallocHeapSize:
      value = rt.services().heap_bytes();
      return kSuccess;
    case kLimitDevRuntimeSyncDepth:
      value = l.sync_depth;
      return kSuccess;
    case kLimitDevRuntimePendingLaunchCount:
      value = l.pending_launches;
      return kSuccess;
    case kLimitMaxL2FetchGranularity:
      value = l.l2_fetch_granularity;
      return kSuccess;
    case kLimitPersistingL2CacheSize:
      value = l.persisting_l2_bytes;
      return kSuccess;
  }
  return kErrorUnsupportedLimit;
}

}  // namespace

extern "C" {

int cudaDeviceSetLimit(int limit, size_t value) {
  return guarded("cudaDeviceSetLimit",
                 [&] { return Runtime::get().record(set_limit(limit, value)); });
}

int cudaDeviceGetLimit(size_t* value, int limit) {
  return guarded("cudaDeviceGetLimit", [&] {
    if (!value) return Runtime::get().record(kErrorInvalidValue);
    return Runtime::get().record(get_limit(*value, limit));
  });
}

}  // extern "C"
