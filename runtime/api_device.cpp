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
#include "runtime/device_attributes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }

struct Event {
  double ms = 0;  // simulated time when recorded
  bool recorded = false;
};
std::set<const void*>& streams() { return Runtime::get().streams(); }
Captures& captures() { return Runtime::get().graphs().captures; }

// cudaGetErrorName and cudaGetErrorString of the codes this runtime returns (CUDA 13's texts).
struct ErrorText {
  CudaError code;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {kSuccess, "cudaSuccess", "no error"},
    {kErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {kErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {kErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {kErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {kErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {kErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {kErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {kErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {kErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {kErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {kErrorUnsupportedLimit, "cudaErrorUnsupportedLimit",
     "limit is not supported on this architecture"},
    {kErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported",
     "peer access is not supported between these two devices"},
    {kErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {kErrorIllegalState, "cudaErrorIllegalState",
     "the operation cannot be performed in the present state"},
    {kErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {kErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {kErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {kErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {kErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {kErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {kErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {kErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {kErrorInvalidClusterSize, "cudaErrorInvalidClusterSize", "cluster misconfiguration"},
    {kErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {kErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {kErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge",
     "operation would result in a merge of separate capture sequences"},
    {kErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
     "capture was not ended in the same stream as it began"},
    {kErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined",
     "capturing stream has unjoined work"},
    {kErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation",
     "dependency created on uncaptured work in another stream"},
    {kErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",
     "operation would make the legacy stream depend on a capturing blocking stream"},
    {kErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread",
     "attempt to terminate a thread-local capture sequence from another thread"},
    {kErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
     "the graph update was not performed because it included changes which violated constraints "
     "specific to instantiated graph update"},
};

const ErrorText* error_text(int e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

}  // namespace

extern "C" {

// The CUDA version the stand-in implements (13.0), for the driver as for the runtime.
int cudaDriverGetVersion(int* version) {
  if (!version) return record(kErrorInvalidValue);
  *version = 13000;
  return kSuccess;
}
int cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }

int cudaGetDeviceCount(int* count) {
  *count = 1;
  return kSuccess;
}

int cudaGetDevice(int* device) {
  *device = 0;
  return kSuccess;
}

int cudaSetDevice(int device) {
  return guarded("cudaSetDevice",
                 [&] { return record(device == 0 ? kSuccess : kErrorInvalidDevice); });
}

int cudaGetDeviceProperties(DeviceProp* prop, int device) {
  return guarded("cudaGetDeviceProperties", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    if (!prop) return record(kErrorInvalidValue);
    fill_properties(Runtime::get().program().spec(), *prop);
    return kSuccess;
  });
}

int cudaDeviceGetAttribute(int* value, int attr, int device) {
  return guarded("cudaDeviceGetAttribute", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    const std::optional<int> v = device_attribute(Runtime::get().program().spec(), attr);
    if (!value || !v) return record(kErrorInvalidValue);
    *value = *v;
    return kSuccess;
  });
}

// Preferences a GPU may ignore: the config fixes the L1/shared split and the device's flags
// (cudaFuncSetCacheConfig: api_function.cpp).
int cudaDeviceSetCacheConfig(int) { return kSuccess; }
int cudaSetDeviceFlags(unsigned) { return kSuccess; }

// Synchronisation points: the device printf output so far reaches stdout (Runtime::synchronize).
int cudaDeviceSynchronize() {
  return guarded("cudaDeviceSynchronize", [] {
    if (const CudaError e = check_unsafe_call()) return e;
    return Runtime::get().synchronize();
  });
}
int cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

// Memory, modules and the simulation's statistics stay: the reports cover the whole program.
int cudaDeviceReset() {
  return guarded("cudaDeviceReset", [] { return Runtime::get().synchronize(); });
}

int cudaGetLastError() {
  return guarded("cudaGetLastError", [] { return Runtime::get().last_error(true); });
}
int cudaPeekAtLastError() {
  return guarded("cudaPeekAtLastError", [] { return Runtime::get().last_error(false); });
}
const char* cudaGetErrorString(int e) {
  const ErrorText* t = error_text(e);
  return t ? t->text : "unrecognized error code";
}
const char* cudaGetErrorName(int e) {
  const ErrorText* t = error_text(e);
  return t ? t->name : "cudaErrorUnknown";
}

int cudaStreamCreate(void** stream) {
  return guarded("cudaStreamCreate", [&] {
    if (!stream) return record(kErrorInvalidValue);
    *stream = new Stream{0, 0, streams().size() + 3};
    streams().insert(*stream);
    return kSuccess;
  });
}

int cudaStreamDestroy(void* stream) {
  return guarded("cudaStreamDestroy", [&] {
    if (!streams().erase(stream)) return record(kErrorInvalidResourceHandle);
    captures().stream_destroyed(stream);
    delete static_cast<const Stream*>(stream);
    return kSuccess;
  });
}

// Stream 0 and the legacy/per-thread default streams (handles 1 and 2) are always valid.
int cudaStreamSynchronize(void* stream) {
  return guarded("cudaStreamSynchronize", [&] {
    const auto h = reinterpret_cast<uintptr_t>(stream);
    if (h > 2 && !streams().count(stream)) return record(kErrorInvalidResourceHandle);
    if (capturing(stream))
      return record(captures().invalidate(
          stream, kErrorStreamCaptureUnsupported));  // would wait for captured work
    return Runtime::get().synchronize();
  });
}

int cudaStreamQuery(void* stream) { return cudaStreamSynchronize(stream); }
// Streams are serialised: only a capture needs the dependency (a stream joining a capture).
int cudaStreamWaitEvent(void* stream, void* event, unsigned) {
  return guarded("cudaStreamWaitEvent", [&] {
    if (!event) return record(kErrorInvalidResourceHandle);
    return Runtime::get().graphs().running ? kSuccess
                                           : record(captures().wait_event(stream, event));
  });
}

int cudaEventCreate(void** event) {
  if (!event) return record(kErrorInvalidValue);
  *event = new Event;
  return kSuccess;
}

int cudaEventCreateWithFlags(void** event, unsigned) { return cudaEventCreate(event); }

int cudaEventDestroy(void* event) {
  return guarded("cudaEventDestroy", [&] {
    captures().event_destroyed(event);
    delete static_cast<Event*>(event);
    return kSuccess;
  });
}

// In a capturing stream the event marks the stream's place in the capture (capture.h) instead.
int cudaEventRecord(void* event, void* stream) {
  return guarded("cudaEventRecord", [&] {
    if (!event) return record(kErrorInvalidResourceHandle);
    if (capturing(stream)) {
      const Capture* c = captures().of(stream);
      if (!c)
        return capture(stream,
                       nullptr);  // the legacy stream while a blocking stream captures: refused
      if (c->invalidated) return record(kErrorStreamCaptureInvalidated);
      return captures().record_event(event, stream), kSuccess;
    }
    captures().record_event(event, nullptr);
    auto* e = static_cast<Event*>(event);
    e->ms = Runtime::get().elapsed_ms();
    e->recorded = true;
    return kSuccess;
  });
}

// An event recorded in a capture stands for work that has not run (and will not, as such).
int cudaEventSynchronize(void* event) {
  return guarded("cudaEventSynchronize", [&] {
    if (captures().captured(event)) return record(kErrorStreamCaptureUnsupported);
    return Runtime::get().synchronize();
  });
}
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
