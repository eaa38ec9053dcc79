// The runtime's graph state (one per Runtime): stream captures in progress, graph memory, and
// whether a graph is running now (its nodes' calls then run as stream calls, never captured).
#pragma once

#include "runtime/capture.h"
#include "runtime/device_memory.h"
#include "runtime/graph_memory.h"

namespace gputlm::runtime {

struct GraphState {
  explicit GraphState(DeviceMemory& device_memory) : memory(device_memory) {}
  Captures captures;
  GraphMemory memory;
  int running = 0;  // graphs being executed (a child graph counts again)
};

// Whether work enqueued on `stream` now goes to capture() instead of running: the stream captures
// and no graph is running, or it is the legacy stream while a blocking stream captures.
bool capturing(void* stream);
// Adds `node` to the capture of `stream` (capturing(stream) holds), recording the result; on the
// legacy stream kErrorStreamCaptureImplicit, the blocking streams' captures invalidated.
CudaError capture(void* stream, std::unique_ptr<GraphNode> node);
// A potentially unsafe call (capture.h): kSuccess, or kErrorStreamCaptureUnsupported.
CudaError check_unsafe_call();

}  // namespace gputlm::runtime
