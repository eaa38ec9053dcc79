#include "runtime/capture.h"

#include <algorithm>
#include <set>

namespace gputlm::runtime {

namespace {
bool legacy(void* stream) { return reinterpret_cast<uintptr_t>(stream) <= 1; }
}  // namespace

Captures::~Captures() {
  for (auto& [id, c] : m_captures)
    if (c->owns_graph) delete c->graph;
}

Capture* Captures::capture(uint64_t id) {
  auto it = m_captures.find(id);
  return it == m_captures.end() ? nullptr : it->second.get();
}

Capture* Captures::of(void* stream) {
  auto it = m_streams.find(stream);
  return it == m_streams.end() ? nullptr : capture(it->second.capture);
}

CaptureStatus Captures::status(void* stream) {
  const Capture* c = of(stream);
  return !c ? kCaptureNone : c->invalidated ? kCaptureInvalidated : kCaptureActive;
}

CudaError Captures::begin(void* stream, Graph* graph, const std::vector<GraphNode*>& deps,
                          CaptureMode mode) {
  if (legacy(stream)) return kErrorStreamCaptureUnsupported;
  if (of(stream)) return kErrorIllegalState;
  auto c = std::make_unique<Capture>();
  c->id = m_next_id++;
  c->owns_graph = !graph;
  c->graph = graph ? graph : new Graph;
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->origin = stream;
  m_streams[stream] = {c->id, deps};
  m_captures[c->id] = std::move(c);
  return kSuccess;
}

// Every stream of the capture (or only `stream`) has its work joined into the origin stream: its
// dependencies are the origin's or their ancestors.
bool Captures::joined(const Capture& c, void* stream) {
  std::set<const GraphNode*> reached;
  std::vector<const GraphNode*> todo(m_streams[c.origin].deps.begin(),
                                     m_streams[c.origin].deps.end());
  while (!todo.empty()) {
    const GraphNode* n = todo.back();
    todo.pop_back();
    if (reached.insert(n).second) todo.insert(todo.end(), n->deps.begin(), n->deps.end());
  }
  for (const auto& [s, m] : m_streams)
    if (m.capture == c.id && (!stream || s == stream))
      for (const GraphNode* d : m.deps)
        if (!reached.count(d)) return false;
  return true;
}

void Captures::finish(Capture& c) {
  for (auto it = m_streams.begin(); it != m_streams.end();)
    it = it->second.capture == c.id ? m_streams.erase(it) : std::next(it);
  m_captures.erase(c.id);
}

CudaError Captures::end(void* stream, Graph** out) {
  Capture* c = of(stream);
  if (!c) return kErrorIllegalState;
  if (c->mode == kCaptureThreadLocal && c->thread != std::this_thread::get_id())
    return kErrorStreamCaptureWrongThread;
  CudaError e = c->invalidated        ? kErrorStreamCaptureInvalidated
                : c->origin != stream ? kErrorStreamCaptureUnmatched
                : !joined(*c)         ? kErrorStreamCaptureUnjoined
                                      : kSuccess;
  if (e != kSuccess && c->owns_graph) delete c->graph;
  *out = e == kSuccess ? c->graph : nullptr;
  finish(*c);
  return e;
}

CudaError Captures::add(void* stream, std::unique_ptr<GraphNode> node, GraphNode** out) {
  Capture* c = of(stream);
  if (c->invalidated) return kErrorStreamCaptureInvalidated;
  std::vector<GraphNode*>& deps = m_streams[stream].deps;
  GraphNode* added = nullptr;
  if (const CudaError e = c->graph->add(std::move(node), deps, &added)) return e;
  deps.assign(1, added);
  if (out) *out = added;
  return kSuccess;
}

void Captures::record_event(void* event, void* stream) {
  auto it = m_streams.find(stream);
  if (it == m_streams.end()) {
    m_events.erase(event);
    return;
  }
  m_events[event] = it->second;
}

std::vector<void*> Captures::streams() const {
  std::vector<void*> out;
  for (const auto& [stream, m] : m_streams) out.push_back(stream);
  return out;
}

bool Captures::captured(void* event) {
  auto it = m_events.find(event);
  return it != m_events.end() && capture(it->second.capture);
}

CudaError Captures::wait_event(void* stream, void* event) {
  if (!captured(event)) return kSuccess;  // work that has run: nothing to wait for
  const Member& e = m_events[event];
  Capture* c = capture(e.capture);
  if (c->invalidated) return kErrorStreamCaptureInvalidated;
  auto it = m_streams.find(stream);
  if (it == m_streams.end()) {
    if (legacy(stream)) return invalidate(c->origin, kErrorStreamCaptureImplicit);
    m_streams[stream] = e;  // the stream joins the capture
    return kSuccess;
  }
  if (it->second.capture != e.capture) return kErrorStreamCaptureMerge;
  for (GraphNode* d : e.deps)
    if (std::find(it->second.deps.begin(), it->second.deps.end(), d) == it->second.deps.end())
      it->second.deps.push_back(d);
  return kSuccess;
}

CaptureMode Captures::exchange_mode(CaptureMode mode) {
  auto it = m_thread_modes.find(std::this_thread::get_id());
  const CaptureMode old = it == m_thread_modes.end() ? kCaptureGlobal : it->second;
  m_thread_modes[std::this_thread::get_id()] = mode;
  return old;
}

// The rules of cudaStreamCaptureMode, by the calling thread's mode: Global forbids unsafe calls
// while this thread has a capture not begun as Relaxed or any thread has a Global one; ThreadLocal
// only the former; Relaxed nothing.
CudaError Captures::unsafe_call() {
  const CaptureMode mine = exchange_mode(kCaptureGlobal);
  exchange_mode(mine);
  if (mine == kCaptureRelaxed) return kSuccess;
  CudaError e = kSuccess;
  for (auto& [id, c] : m_captures) {
    const bool own = c->thread == std::this_thread::get_id() && c->mode != kCaptureRelaxed;
    if (own || (mine == kCaptureGlobal && c->mode == kCaptureGlobal)) {
      c->invalidated = true;
      e = kErrorStreamCaptureUnsupported;
    }
  }
  return e;
}

void Captures::stream_destroyed(void* stream) {
  Capture* c = of(stream);
  if (!c) return;
  if (c->origin == stream) {
    if (c->owns_graph) delete c->graph;
    finish(*c);
    return;
  }
  if (!joined(*c, stream)) c->invalidated = true;
  m_streams.erase(stream);
}

CudaError Captures::invalidate(void* stream, CudaError e) {
  if (Capture* c = of(stream)) c->invalidated = true;
  return e;
}

}  // namespace gputlm::runtime
