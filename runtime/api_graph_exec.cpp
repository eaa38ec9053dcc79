// Runtime API: executable graphs (instantiate, launch, upload, update, destroy), the DOT dump of a
// graph and graph memory's footprint. cudaGraphExec_t is a GraphExec (graph_exec.h). A launch runs
// the whole graph to its end before it returns (launches are serialised); a launch into a
// capturing stream is captured as a child graph node instead.
#include <fstream>

#include "runtime/api_support.h"
#include "runtime/graph_exec.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }
GraphExec* exec_of(void* h) { return static_cast<GraphExec*>(h); }

bool valid_stream(void* stream) {
  return reinterpret_cast<uintptr_t>(stream) <= 2 || Runtime::get().streams().count(stream);
}

// cudaGraphInstantiateFlagAutoFreeOnLaunch (1), Upload (2), UseNodePriority (8) change nothing
// that a serialised device runs; DeviceLaunch (4) needs device-side graph launches.
int instantiate(const char* api, void** exec, void* graph, unsigned long long flags,
                GraphInstantiateParams* params = nullptr) {
  return guarded(api, [&] {
    if (!exec || !graph) return record(kErrorInvalidValue);
    if (flags & 4) not_implemented(std::string(api) + " with cudaGraphInstantiateFlagDeviceLaunch");
    std::unique_ptr<GraphExec> made;
    const CudaError e = GraphExec::instantiate(*static_cast<Graph*>(graph), flags, made);
    if (params) params->result_out = e ? kInstantiateInvalidStructure : kInstantiateSuccess;
    *exec = made.release();
    return record(e);
  });
}

}  // namespace

extern "C" {

int cudaGraphInstantiate(void** exec, void* graph, unsigned long long flags) {
  return instantiate("cudaGraphInstantiate", exec, graph, flags);
}
int cudaGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long flags) {
  return instantiate("cudaGraphInstantiateWithFlags", exec, graph, flags);
}
int cudaGraphInstantiateWithParams(void** exec, void* graph, GraphInstantiateParams* p) {
  if (!p) return record(kErrorInvalidValue);
  p->errNode_out = nullptr;
  return instantiate("cudaGraphInstantiateWithParams", exec, graph, p->flags, p);
}

int cudaGraphExecGetFlags(void* exec, unsigned long long* flags) {
  return guarded("cudaGraphExecGetFlags", [&] {
    if (!exec || !flags) return record(kErrorInvalidValue);
    *flags = exec_of(exec)->flags();
    return kSuccess;
  });
}

int cudaGraphLaunch(void* exec, void* stream) {
  return guarded("cudaGraphLaunch", [&] {
    if (!exec) return record(kErrorInvalidValue);
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    if (capturing(stream)) {
      NodePtr node;
      child_node(&exec_of(exec)->graph(), node);
      return capture(stream, std::move(node));
    }
    return record(exec_of(exec)->launch());
  });
}

// Uploading makes the first launch faster on a GPU; here every launch starts the same way.
int cudaGraphUpload(void* exec, void* stream) {
  return guarded("cudaGraphUpload", [&] {
    return record(!exec                  ? kErrorInvalidValue
                  : valid_stream(stream) ? kSuccess
                                         : kErrorInvalidResourceHandle);
  });
}

int cudaGraphExecDestroy(void* exec) {
  return guarded("cudaGraphExecDestroy", [&] {
    if (!exec) return record(kErrorInvalidValue);
    delete exec_of(exec);
    return kSuccess;
  });
}

int cudaGraphExecUpdate(void* exec, void* graph, GraphExecUpdateResultInfo* info) {
  return guarded("cudaGraphExecUpdate", [&] {
    if (!exec || !graph) return record(kErrorInvalidValue);
    GraphExecUpdateResultInfo result{};
    const CudaError e = exec_of(exec)->update(*static_cast<Graph*>(graph), result);
    if (info) *info = result;
    return record(e);
  });
}

// The DOT file whatever the flags: every node's type and main parameters.
int cudaGraphDebugDotPrint(void* graph, const char* path, unsigned) {
  return guarded("cudaGraphDebugDotPrint", [&] {
    if (!graph || !path) return record(kErrorInvalidValue);
    std::ofstream out(path);
    if (!out) return record(kErrorInvalidValue);
    static_cast<Graph*>(graph)->write_dot(out, "cudaGraph");
    return record(out ? kSuccess : kErrorInvalidValue);
  });
}

int cudaDeviceGraphMemTrim(int device) {
  return guarded("cudaDeviceGraphMemTrim", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    Runtime::get().graphs().memory.trim();
    return kSuccess;
  });
}

int cudaDeviceGetGraphMemAttribute(int device, int attr, void* value) {
  return guarded("cudaDeviceGetGraphMemAttribute", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    if (!value || attr < kUsedMemCurrent || attr > kReservedMemHigh)
      return record(kErrorInvalidValue);
    *static_cast<uint64_t*>(value) =
        Runtime::get().graphs().memory.attribute(static_cast<GraphMemAttribute>(attr));
    return kSuccess;
  });
}

// Only the high watermarks can be set, and only to 0 (which resets them to the current value).
int cudaDeviceSetGraphMemAttribute(int device, int attr, void* value) {
  return guarded("cudaDeviceSetGraphMemAttribute", [&] {
    if (device != 0) return record(kErrorInvalidDevice);
    if (!value || (attr != kUsedMemHigh && attr != kReservedMemHigh) ||
        *static_cast<uint64_t*>(value) != 0)
      return record(kErrorInvalidValue);
    Runtime::get().graphs().memory.reset_high(static_cast<GraphMemAttribute>(attr));
    return kSuccess;
  });
}

}  // extern "C"
