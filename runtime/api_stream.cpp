// Runtime API: streams with flags and priorities, host functions in stream order, the extended
// and cooperative launches, and the calls that name a second device. Streams are serialised (every
// call has finished when it returns), so a host function runs when it is enqueued, after all the
// work before it, as stream order requires.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/api_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }

// Stream 0 and the legacy/per-thread default streams (handles 1 and 2), with CUDA's defaults.
const Stream* stream_of(void* handle, bool& valid) {
  static const Stream kDefault{};
  const auto h = reinterpret_cast<uintptr_t>(handle);
  valid = h <= 2 || Runtime::get().streams().count(handle);
  return !valid ? nullptr : h <= 2 ? &kDefault : static_cast<const Stream*>(handle);
}

// cudaDeviceGetStreamPriorityRange: 0 (least) to -5 (greatest), as Volta to Hopper report.
constexpr int kLeastPriority = 0, kGreatestPriority = -5;

}  // namespace

extern "C" {

int cudaStreamCreateWithPriority(void** stream, unsigned flags, int priority) {
  return guarded("cudaStreamCreateWithPriority", [&] {
    if (!stream || flags > 1)
      return record(kErrorInvalidValue);  // cudaStreamDefault or cudaStreamNonBlocking
    auto& streams = Runtime::get().streams();
    // Out-of-range priorities are clamped, as CUDA does.
    *stream = new Stream{flags, std::min(kLeastPriority, std::max(kGreatestPriority, priority)),
                         streams.size() + 3};
    streams.insert(*stream);
    return kSuccess;
  });
}

int cudaStreamCreateWithFlags(void** stream, unsigned flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}

int cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = kLeastPriority;
  if (greatest) *greatest = kGreatestPriority;
  return kSuccess;
}

int cudaStreamGetPriority(void* handle, int* priority) {
  return guarded("cudaStreamGetPriority", [&] {
    bool valid = false;
    const Stream* s = stream_of(handle, valid);
    if (!valid) return record(kErrorInvalidResourceHandle);
    if (!priority) return record(kErrorInvalidValue);
    *priority = s->priority;
    return kSuccess;
  });
}

int cudaStreamGetFlags(void* handle, unsigned* flags) {
  return guarded("cudaStreamGetFlags", [&] {
    bool valid = false;
    const Stream* s = stream_of(handle, valid);
    if (!valid) return record(kErrorInvalidResourceHandle);
    if (!flags) return record(kErrorInvalidValue);
    *flags = s->flags;
    return kSuccess;
  });
}

int cudaStreamGetId(void* handle, unsigned long long* id) {
  return guarded("cudaStreamGetId", [&] {
    bool valid = false;
    const Stream* s = stream_of(handle, valid);
    if (!valid) return record(kErrorInvalidResourceHandle);
    if (!id) return record(kErrorInvalidValue);
    *id = reinterpret_cast<uintptr_t>(handle) <= 2 ? reinterpret_cast<uintptr_t>(handle) : s->id;
    return kSuccess;
  });
}

int cudaStreamGetDevice(void* handle, int* device) {
  bool valid = false;
  stream_of(handle, valid);
  if (!valid) return record(kErrorInvalidResourceHandle);
  if (!device) return record(kErrorInvalidValue);
  *device = 0;
  return kSuccess;
}

int cudaLaunchHostFunc(void* handle, void (*fn)(void*), void* data) {
  return guarded("cudaLaunchHostFunc", [&] {
    bool valid = false;
    stream_of(handle, valid);
    if (!valid) return record(kErrorInvalidResourceHandle);
    if (!fn) return record(kErrorInvalidValue);
    NodePtr node;
    if (capturing(handle)) return host_node({fn, data}, node), capture(handle, std::move(node));
    fn(data);
    return kSuccess;
  });
}

int cudaStreamAddCallback(void* handle, void (*fn)(void*, int, void*), void* data, unsigned flags) {
  return guarded("cudaStreamAddCallback", [&] {
    bool valid = false;
    stream_of(handle, valid);
    if (!valid) return record(kErrorInvalidResourceHandle);
    if (!fn || flags != 0) return record(kErrorInvalidValue);
    if (capturing(handle))
      return record(
          Runtime::get().graphs().captures.invalidate(handle, kErrorStreamCaptureUnsupported));
    fn(handle, kSuccess, data);
    return kSuccess;
  });
}

// cudaLaunchAttributeAccessPolicyWindow (1): the persisting-L2 hint, kept as the program set it
// and read back; the model times the stream's accesses as ordinary ones. Other stream attributes
// (synchronisation policy, priority, memory sync domains) need a real device's scheduler.
int cudaStreamSetAttribute(void* handle, int attr, const void* value) {
  return guarded("cudaStreamSetAttribute", [&] {
    bool valid = false;
    auto* s = const_cast<Stream*>(stream_of(handle, valid));
    if (!valid || reinterpret_cast<uintptr_t>(handle) <= 2)
      return record(kErrorInvalidResourceHandle);
    if (!value) return record(kErrorInvalidValue);
    if (attr != 1) not_implemented("cudaStreamSetAttribute of attribute " + std::to_string(attr));
    std::memcpy(s->policy_window, value, sizeof s->policy_window);
    return kSuccess;
  });
}

int cudaStreamGetAttribute(void* handle, int attr, void* value) {
  return guarded("cudaStreamGetAttribute", [&] {
    bool valid = false;
    const Stream* s = stream_of(handle, valid);
    if (!valid) return record(kErrorInvalidResourceHandle);
    if (!value) return record(kErrorInvalidValue);
    if (attr != 1) not_implemented("cudaStreamGetAttribute of attribute " + std::to_string(attr));
    std::memcpy(value, s->policy_window, sizeof s->policy_window);
    return kSuccess;
  });
}

int cudaCtxResetPersistingL2Cache() { return kSuccess; }

// One simulated device: no peers.
int cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (!can) return record(kErrorInvalidValue);
  if (device != 0 || peer != 0) return record(kErrorInvalidDevice);
  *can = 0;
  return kSuccess;
}
int cudaDeviceEnablePeerAccess(int, unsigned) { return record(kErrorInvalidDevice); }

}  // extern "C"
