// Runtime API: the device (one GPU, its properties from the gputlm config), errors,
// synchronisation, streams and events. Streams are serialised: every call has finished when it
// returns, so synchronising waits for nothing and an event's time is the simulated time of the
// launches before it (core cycles at the config's clock).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }

struct Event {
  double ms = 0;  // simulated time when recorded
  bool recorded = false;
};
std::set<const void*>& streams() { return Runtime::get().streams(); }

uint32_t max_threads_per_block() { return Runtime::get().max_threads_per_block(); }

void fill_properties(DeviceProp& p) {
  const auto& spec = Runtime::get().program().spec();
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "gputlm %s", spec.name.c_str());
  p.totalGlobalMem = kDeviceMemoryBytes;
  p.sharedMemPerBlock = spec.core.shared_bytes;
  p.sharedMemPerBlockOptin = spec.core.shared_bytes;
  p.sharedMemPerMultiprocessor = spec.core.shared_bytes;
  p.regsPerBlock = static_cast<int>(spec.core.registers);
  p.regsPerMultiprocessor = static_cast<int>(spec.core.registers);
  p.warpSize = 32;
  p.memPitch = SIZE_MAX;
  p.maxThreadsPerBlock = static_cast<int>(max_threads_per_block());
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsPerBlock;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 0x7fffffff;
  p.maxGridSize[1] = p.maxGridSize[2] = 65535;
  p.totalConstMem = 65536;
  p.major = 7;  // the PTX gputlm runs is compute_75
  p.minor = 5;
  p.multiProcessorCount = static_cast<int>(spec.cores);
  p.maxThreadsPerMultiProcessor = static_cast<int>(spec.core.max_threads);
  p.maxBlocksPerMultiProcessor = static_cast<int>(spec.core.max_ctas);
  p.unifiedAddressing = 1;
  p.managedMemory = 1;
}

int attribute(int attr) {
  const auto& spec = Runtime::get().program().spec();
  switch (attr) {
    case kAttrMaxThreadsPerBlock: return static_cast<int>(max_threads_per_block());
    case kAttrMaxThreadsPerMultiProcessor: return static_cast<int>(spec.core.max_threads);
    case kAttrMaxSharedMemoryPerBlock:
    case kAttrMaxSharedMemoryPerMultiprocessor:
    case kAttrMaxSharedMemoryPerBlockOptin: return static_cast<int>(spec.core.shared_bytes);
    case kAttrWarpSize: return 32;
    case kAttrMaxRegistersPerBlock: return static_cast<int>(spec.core.registers);
    case kAttrClockRate: return static_cast<int>(spec.core_clock_mhz() * 1000);
    case kAttrMultiProcessorCount: return static_cast<int>(spec.cores);
    case kAttrComputeCapabilityMajor: return 7;
    case kAttrComputeCapabilityMinor: return 5;
    case kAttrMaxBlocksPerMultiprocessor: return static_cast<int>(spec.core.max_ctas);
  }
  not_implemented("cudaDeviceGetAttribute of attribute " + std::to_string(attr));
}

const char* error_name(int e) {
  switch (e) {
    case kSuccess: return "cudaSuccess";
    case kErrorInvalidValue: return "cudaErrorInvalidValue";
    case kErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case kErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case kErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case kErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case kErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case kErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case kErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case kErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case kErrorNotReady: return "cudaErrorNotReady";
    case kErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

const char* error_string(int e) {
  switch (e) {
    case kSuccess: return "no error";
    case kErrorInvalidValue: return "invalid argument";
    case kErrorMemoryAllocation: return "out of memory";
    case kErrorInvalidConfiguration: return "invalid configuration argument";
    case kErrorInvalidSymbol: return "invalid device symbol";
    case kErrorInvalidDevicePointer: return "invalid device pointer";
    case kErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case kErrorInvalidDeviceFunction: return "invalid device function";
    case kErrorInvalidDevice: return "invalid device ordinal";
    case kErrorInvalidResourceHandle: return "invalid resource handle";
    case kErrorNotReady: return "device not ready";
    case kErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unrecognized error code";
}

}  // namespace

extern "C" {

int cudaGetDeviceCount(int* count) {
  *count = 1;
  return kSuccess;
}

int cudaGetDevice(int* device) {
  *device = 0;
  return kSuccess;
}

int cudaSetDevice(int device) {
  return guarded("cudaSetDevice", [&] { return record(device == 0 ? kSuccess : kErrorInvalidDevice); });
}

int cudaGetDeviceProperties(DeviceProp* prop, int device) {
  return guarded("cudaGetDeviceProperties", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    fill_properties(*prop);
    return kSuccess;
  });
}

int cudaDeviceGetAttribute(int* value, int attr, int device) {
  return guarded("cudaDeviceGetAttribute", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    *value = attribute(attr);
    return kSuccess;
  });
}

// Preferences a GPU may ignore: the config fixes the L1/shared split and the device's flags.
int cudaDeviceSetCacheConfig(int) { return kSuccess; }
int cudaFuncSetCacheConfig(const void* host_fun, int) {
  return guarded("cudaFuncSetCacheConfig", [&] { return record(Runtime::get().kernel(host_fun) ? kSuccess : kErrorInvalidDeviceFunction); });
}
int cudaSetDeviceFlags(unsigned) { return kSuccess; }

int cudaDeviceSynchronize() { return kSuccess; }
int cudaThreadSynchronize() { return kSuccess; }

// Memory, modules and the simulation's statistics stay: the reports cover the whole program.
int cudaDeviceReset() { return kSuccess; }

int cudaGetLastError() {
  return guarded("cudaGetLastError", [] { return Runtime::get().last_error(true); });
}
int cudaPeekAtLastError() {
  return guarded("cudaPeekAtLastError", [] { return Runtime::get().last_error(false); });
}
const char* cudaGetErrorString(int e) { return error_string(e); }
const char* cudaGetErrorName(int e) { return error_name(e); }

int cudaStreamCreate(void** stream) {
  return guarded("cudaStreamCreate", [&] {
    if (!stream) return record(kErrorInvalidValue);
    *stream = new char;
    streams().insert(*stream);
    return kSuccess;
  });
}

int cudaStreamCreateWithFlags(void** stream, unsigned) { return cudaStreamCreate(stream); }

int cudaStreamDestroy(void* stream) {
  return guarded("cudaStreamDestroy", [&] {
    if (!streams().erase(stream)) return record(kErrorInvalidResourceHandle);
    delete static_cast<char*>(stream);
    return kSuccess;
  });
}

// Stream 0 and the legacy/per-thread default streams (handles 1 and 2) are always valid.
int cudaStreamSynchronize(void* stream) {
  return guarded("cudaStreamSynchronize", [&] {
    const auto h = reinterpret_cast<uintptr_t>(stream);
    return record(h <= 2 || streams().count(stream) ? kSuccess : kErrorInvalidResourceHandle);
  });
}

int cudaStreamQuery(void* stream) { return cudaStreamSynchronize(stream); }
int cudaStreamWaitEvent(void*, void*, unsigned) { return kSuccess; }

int cudaEventCreate(void** event) {
  if (!event) return record(kErrorInvalidValue);
  *event = new Event;
  return kSuccess;
}

int cudaEventCreateWithFlags(void** event, unsigned) { return cudaEventCreate(event); }

int cudaEventDestroy(void* event) {
  delete static_cast<Event*>(event);
  return kSuccess;
}

int cudaEventRecord(void* event, void*) {
  return guarded("cudaEventRecord", [&] {
    auto* e = static_cast<Event*>(event);
    e->ms = Runtime::get().elapsed_ms();
    e->recorded = true;
    return kSuccess;
  });
}

int cudaEventSynchronize(void*) { return kSuccess; }
int cudaEventQuery(void*) { return kSuccess; }

int cudaEventElapsedTime(float* ms, void* start, void* end) {
  return guarded("cudaEventElapsedTime", [&] {
    const auto *s = static_cast<Event*>(start), *e = static_cast<Event*>(end);
    if (!ms || !s || !e) return record(kErrorInvalidValue);
    if (!s->recorded || !e->recorded) return record(kErrorInvalidResourceHandle);
    *ms = static_cast<float>(e->ms - s->ms);
    return kSuccess;
  });
}

}  // extern "C"
