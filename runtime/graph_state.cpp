#include "runtime/graph_state.h"

#include "runtime/runtime.h"

namespace gputlm::runtime {

namespace {

bool legacy(void* stream) { return reinterpret_cast<uintptr_t>(stream) <= 1; }

// The capturing streams the legacy default stream synchronises with: those made without
// cudaStreamNonBlocking, and the per-thread default stream (handle 2).
std::vector<void*> blocking_captures() {
  Runtime& rt = Runtime::get();
  std::vector<void*> out;
  for (void* s : rt.graphs().captures.streams())
    if (reinterpret_cast<uintptr_t>(s) == 2 ||
        (rt.streams().count(s) && static_cast<const Stream*>(s)->flags == 0))
      out.push_back(s);
  return out;
}

}  // namespace

// Work on the legacy stream while a blocking stream captures would make it wait for captured work
// (CUDA: cudaErrorStreamCaptureImplicit, the capture invalidated); capture() refuses it.
bool capturing(void* stream) {
  GraphState& g = Runtime::get().graphs();
  if (g.running) return false;
  return g.captures.of(stream) || (legacy(stream) && !blocking_captures().empty());
}

CudaError capture(void* stream, std::unique_ptr<GraphNode> node) {
  Captures& captures = Runtime::get().graphs().captures;
  if (legacy(stream)) {
    for (void* s : blocking_captures()) captures.invalidate(s, kErrorStreamCaptureImplicit);
    return Runtime::get().record(kErrorStreamCaptureImplicit);
  }
  return Runtime::get().record(captures.add(stream, std::move(node)));
}

CudaError check_unsafe_call() {
  GraphState& g = Runtime::get().graphs();
  return g.running ? kSuccess : Runtime::get().record(g.captures.unsafe_call());
}

}  // namespace gputlm::runtime
