#include "runtime/graph_state.h"

#include "runtime/runtime.h"

namespace gputlm::runtime {

bool capturing(void* stream) {
  GraphState& g = Runtime::get().graphs();
  return g.running == 0 && g.captures.of(stream);
}

CudaError capture(void* stream, std::unique_ptr<GraphNode> node) {
  return Runtime::get().record(Runtime::get().graphs().captures.add(stream, std::move(node)));
}

CudaError check_unsafe_call() {
  GraphState& g = Runtime::get().graphs();
  return g.running ? kSuccess : Runtime::get().record(g.captures.unsafe_call());
}

}  // namespace gputlm::runtime
