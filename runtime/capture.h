// Stream capture (CUDA programming guide, "Creating a Graph Using Stream Capture"): while a stream
// captures, the work enqueued on it becomes graph nodes instead of running. A capture begins on its
// origin stream; another stream joins it by waiting on an event recorded in a capturing stream
// (the event then stands for the recording stream's dependencies at that point) and must be joined
// back into the origin stream before the capture ends. Each capturing stream keeps the nodes its
// next node depends on.
//
// Calls that would synchronise with captured work (cudaStreamSynchronize of a capturing stream,
// and, by the capture modes, "potentially unsafe" calls such as cudaMalloc or a synchronous
// cudaMemcpy) return cudaErrorStreamCaptureUnsupported and invalidate the capture: its later
// calls return cudaErrorStreamCaptureInvalidated, and ending it gives no graph.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "runtime/graph.h"
#include "runtime/graph_abi.h"

namespace gputlm::runtime {

struct Capture {
  uint64_t id = 0;
  Graph* graph = nullptr;
  bool owns_graph = true;  // false for cudaStreamBeginCaptureToGraph's graph
  CaptureMode mode = kCaptureGlobal;
  std::thread::id thread;
  void* origin = nullptr;
  bool invalidated = false;
};

class Captures {
 public:
  Captures() = default;
  Captures(const Captures&) = delete;
  Captures& operator=(const Captures&) = delete;
  ~Captures();

  // cudaStreamBeginCapture(ToGraph): into `graph` after `deps`, or into a new graph when `graph` is
  // null. kErrorStreamCaptureUnsupported for the legacy default stream, kErrorIllegalState when
  // the stream captures already.
  CudaError begin(void* stream, Graph* graph, const std::vector<GraphNode*>& deps,
                  CaptureMode mode);
  // cudaStreamEndCapture: the graph, or an error (the capture ends either way, but for a stream
  // that does not capture (kErrorIllegalState) or a thread-local capture ended by another thread).
  CudaError end(void* stream, Graph** out);

  // The capture `stream` takes part in, or nullptr.
  Capture* of(void* stream);
  CaptureStatus status(void* stream);
  // The nodes the stream's next node will depend on (it captures).
  std::vector<GraphNode*>& dependencies(void* stream) { return m_streams.at(stream).deps; }

  // Adds `node` to the capture of `stream` after its dependencies; the stream then depends on it.
  // kErrorStreamCaptureInvalidated when the capture was invalidated.
  CudaError add(void* stream, std::unique_ptr<GraphNode> node, GraphNode** out = nullptr);
  // cudaEventRecord on a capturing stream; `stream` null or not capturing: the event leaves
  // capture.
  void record_event(void* event, void* stream);
  // cudaStreamWaitEvent: a stream waiting on a captured event joins (or merges with) its capture.
  CudaError wait_event(void* stream, void* event);
  // The streams that capture now.
  std::vector<void*> streams() const;
  // The event was recorded in a capture that is still going on.
  bool captured(void* event);
  // cudaStreamDestroy / cudaEventDestroy: a destroyed origin stream ends its capture (no graph),
  // another capturing stream leaves its capture (invalidated unless its work was joined into the
  // origin stream); a destroyed event is forgotten.
  void stream_destroyed(void* stream);
  void event_destroyed(void* event) { m_events.erase(event); }

  // A potentially unsafe call (cudaMalloc, a synchronous copy, ...) from this thread: kSuccess,
  // or kErrorStreamCaptureUnsupported with the captures forbidding it invalidated.
  CudaError unsafe_call();
  // Invalidates the capture of `stream` and returns `e`.
  CudaError invalidate(void* stream, CudaError e);
  // cudaThreadExchangeStreamCaptureMode.
  CaptureMode exchange_mode(CaptureMode mode);
  // `n` default edges (cudaStreamGetCaptureInfo's edge data), valid until the next call.
  const GraphEdgeData* default_edges(size_t n) {
    m_edges.assign(n, GraphEdgeData{});
    return m_edges.data();
  }

 private:
  struct Member {
    uint64_t capture = 0;
    std::vector<GraphNode*> deps;
  };
  Capture* capture(uint64_t id);
  bool joined(const Capture& c, void* stream = nullptr);
  void finish(Capture& c);

  std::map<uint64_t, std::unique_ptr<Capture>> m_captures;
  std::map<void*, Member> m_streams, m_events;
  std::map<std::thread::id, CaptureMode> m_thread_modes;
  std::vector<GraphEdgeData> m_edges;
  uint64_t m_next_id = 1;
};

}  // namespace gputlm::runtime
