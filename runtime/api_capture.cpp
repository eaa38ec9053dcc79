// Runtime API: stream capture (capture.h): beginning and ending it, its state, the dependencies
// of a capturing stream and the thread's capture mode.
#include <vector>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }
Captures& captures() { return Runtime::get().graphs().captures; }

bool valid_stream(void* stream) {
  return reinterpret_cast<uintptr_t>(stream) <= 2 || Runtime::get().streams().count(stream);
}
bool valid_mode(int mode) { return mode >= kCaptureGlobal && mode <= kCaptureRelaxed; }

std::vector<GraphNode*> node_list(void* const* nodes, size_t n) {
  std::vector<GraphNode*> list;
  for (size_t i = 0; i < n; ++i) list.push_back(static_cast<GraphNode*>(nodes[i]));
  return list;
}

}  // namespace

extern "C" {

int cudaStreamBeginCapture(void* stream, int mode) {
  return guarded("cudaStreamBeginCapture", [&] {
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    if (!valid_mode(mode)) return record(kErrorInvalidValue);
    return record(captures().begin(stream, nullptr, {}, static_cast<CaptureMode>(mode)));
  });
}

int cudaStreamBeginCaptureToGraph(void* stream, void* graph, void* const* deps,
                                  const GraphEdgeData* edges, size_t n, int mode) {
  return guarded("cudaStreamBeginCaptureToGraph", [&] {
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    if (!graph || !valid_mode(mode) || (n && !deps)) return record(kErrorInvalidValue);
    for (size_t i = 0; edges && i < n; ++i)
      if (edges[i].from_port || edges[i].to_port || edges[i].type)
        not_implemented("cudaStreamBeginCaptureToGraph with programmatic edge data");
    for (GraphNode* d : node_list(deps, n))
      if (!static_cast<Graph*>(graph)->owns(d)) return record(kErrorInvalidValue);
    return record(captures().begin(stream, static_cast<Graph*>(graph), node_list(deps, n),
                                   static_cast<CaptureMode>(mode)));
  });
}

int cudaStreamEndCapture(void* stream, void** graph) {
  return guarded("cudaStreamEndCapture", [&] {
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    const Capture* c = captures().of(stream);
    if (!graph && (!c || c->owns_graph))
      return record(kErrorInvalidValue);  // only a capture to the program's graph needs none
    Graph* made = nullptr;
    const CudaError e = captures().end(stream, &made);
    if (graph) *graph = made;
    return record(e);
  });
}

int cudaStreamIsCapturing(void* stream, int* status) {
  return guarded("cudaStreamIsCapturing", [&] {
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    if (!status) return record(kErrorInvalidValue);
    *status = captures().status(stream);
    return kSuccess;
  });
}

// CUDA 13's form (the v3 of CUDA 12): status, capture id, graph, dependencies and their edge data.
// The dependency list stays valid until the stream's next call, as CUDA's does.
int cudaStreamGetCaptureInfo(void* stream, int* status, unsigned long long* id, void** graph,
                             const void* const** deps, const GraphEdgeData** edges, size_t* count) {
  return guarded("cudaStreamGetCaptureInfo", [&] {
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    if (!status) return record(kErrorInvalidValue);
    Capture* c = captures().of(stream);
    *status = captures().status(stream);
    if (id) *id = c ? c->id : 0;
    if (graph) *graph = c ? c->graph : nullptr;
    const std::vector<GraphNode*>* list = c ? &captures().dependencies(stream) : nullptr;
    if (deps) *deps = list ? reinterpret_cast<const void* const*>(list->data()) : nullptr;
    if (count) *count = list ? list->size() : 0;
    if (edges) *edges = list ? captures().default_edges(list->size()) : nullptr;
    return kSuccess;
  });
}

// flags: cudaStreamAddCaptureDependencies (0) or cudaStreamSetCaptureDependencies (1).
int cudaStreamUpdateCaptureDependencies(void* stream, void* const* deps, const GraphEdgeData* edges,
                                        size_t n, unsigned flags) {
  return guarded("cudaStreamUpdateCaptureDependencies", [&] {
    if (!valid_stream(stream)) return record(kErrorInvalidResourceHandle);
    Capture* c = captures().of(stream);
    if (!c) return record(kErrorIllegalState);
    if (flags > 1 || (n && !deps)) return record(kErrorInvalidValue);
    for (size_t i = 0; edges && i < n; ++i)
      if (edges[i].from_port || edges[i].to_port || edges[i].type)
        not_implemented("cudaStreamUpdateCaptureDependencies with programmatic edge data");
    std::vector<GraphNode*>& current = captures().dependencies(stream);
    if (flags == 1) current.clear();
    for (GraphNode* d : node_list(deps, n)) {
      if (!c->graph->owns(d)) return record(kErrorInvalidValue);
      current.push_back(d);
    }
    return kSuccess;
  });
}

int cudaThreadExchangeStreamCaptureMode(int* mode) {
  return guarded("cudaThreadExchangeStreamCaptureMode", [&] {
    if (!mode || !valid_mode(*mode)) return record(kErrorInvalidValue);
    *mode = captures().exchange_mode(static_cast<CaptureMode>(*mode));
    return kSuccess;
  });
}

}  // extern "C"
