#include "runtime/graph_exec.h"

#include <vector>

#include "runtime/runtime.h"

// The stream calls the nodes run as (api_memory_3d.cpp, api_device.cpp).
extern "C" int cudaMemcpy3D(const gputlm::runtime::Memcpy3DParms* p);
extern "C" int cudaEventRecord(void* event, void* stream);

namespace gputlm::runtime {

namespace {

// `height` rows of `width` elements of 1, 2 or 4 bytes, `pitch` bytes apart (cuMemsetD2D*).
CudaError run_memset(const MemsetParams& m) {
  DeviceMemory& mem = Runtime::get().memory();
  const size_t row = m.width * m.elementSize;
  std::vector<uint8_t> pattern(row);
  for (size_t i = 0; i < row; ++i)
    pattern[i] = static_cast<uint8_t>(m.value >> (8 * (i % m.elementSize)));
  for (size_t y = 0; y < m.height; ++y) {
    void* dst = static_cast<char*>(m.dst) + y * m.pitch;
    const CudaError e = m.elementSize == 1 ? mem.set(dst, static_cast<int>(m.value), row)
                                           : mem.copy(dst, pattern.data(), row, kHostToDevice);
    if (e) return e;
  }
  return kSuccess;
}

uint32_t condition(uint64_t address) {
  uint32_t v = 0;
  Runtime::get().memory().copy(&v, reinterpret_cast<void*>(address), 4, kDeviceToHost);
  return v;
}

// cudaGraphCondTypeIf (0): the first body when the condition is not 0, else the second if any;
// cudaGraphCondTypeWhile (1): the body while it is not 0 (read before each run);
// cudaGraphCondTypeSwitch (2): the body the condition numbers, if any.
CudaError run_conditional(GraphNode& n) {
  switch (n.condition_type) {
    case 0:
      if (condition(n.condition)) return run_graph(*n.bodies[0]);
      return n.bodies.size() > 1 ? run_graph(*n.bodies[1]) : kSuccess;
    case 1:
      while (condition(n.condition))
        if (const CudaError e = run_graph(*n.bodies[0])) return e;
      return kSuccess;
    default: {
      const uint32_t v = condition(n.condition);
      return v < n.bodies.size() ? run_graph(*n.bodies[v]) : kSuccess;
    }
  }
}

// cudaGraphCondAssignDefault: a launch starts with the handle's default value.
void assign_defaults(Graph& g) {
  for (const ConditionalHandle& h : g.conditional_handles())
    if (h.assign_default)
      Runtime::get().memory().copy(reinterpret_cast<void*>(h.address), &h.default_value, 4,
                                   kHostToDevice);
  for (const auto& n : g.nodes()) {
    if (n->child) assign_defaults(*n->child);
    for (const auto& b : n->bodies) assign_defaults(*b);
  }
}

CudaError run_node(GraphNode& n) {
  Runtime& rt = Runtime::get();
  if (!n.enabled) return kSuccess;  // a disabled node runs as an empty one
  switch (n.type) {
    case NodeType::kKernel:
      return rt.launch(*n.kernel.kernel, n.kernel.grid, n.kernel.block, n.kernel.args.data(),
                       n.kernel.shared, n.kernel.extras);
    case NodeType::kMemcpy:
      return static_cast<CudaError>(cudaMemcpy3D(&n.copy));
    case NodeType::kMemset:
      return run_memset(n.memset);
    case NodeType::kHost:
      n.host.fn(n.host.userData);
      return kSuccess;
    case NodeType::kGraph:
      return run_graph(*n.child);
    case NodeType::kEventRecord:
      return static_cast<CudaError>(cudaEventRecord(n.event, nullptr));
    case NodeType::kMemAlloc:
      return rt.graphs().memory.allocate(*n.alloc);
    case NodeType::kMemFree:
      return rt.graphs().memory.free(n.free_address);
    case NodeType::kConditional:
      return run_conditional(n);
    default:
      return kSuccess;  // empty and event wait nodes: the work before them has run
  }
}

// cudaGraphInstantiateFlagAutoFreeOnLaunch: allocations still made by the last launch are freed.
void free_allocations(const Graph& g) {
  GraphMemory& memory = Runtime::get().graphs().memory;
  for (const auto& n : g.nodes()) {
    if (n->type == NodeType::kMemAlloc)
      memory.free(n->alloc->address);  // kErrorInvalidValue when not allocated: nothing to do
    if (n->type == NodeType::kGraph) free_allocations(*n->child);
  }
}

constexpr unsigned long long kAutoFreeOnLaunch = 1;

}  // namespace

CudaError run_graph(Graph& graph) {
  std::vector<GraphNode*> order;
  graph.topological_order(order);
  GraphState& state = Runtime::get().graphs();
  ++state.running;
  CudaError e = kSuccess;
  // A failed device assert leaves the context unusable: the nodes after it do not run.
  for (GraphNode* n : order)
    if ((e = run_node(*n)) || (e = Runtime::get().sticky_error())) break;
  --state.running;
  return e;
}

CudaError GraphExec::instantiate(const Graph& graph, unsigned long long flags,
                                 std::unique_ptr<GraphExec>& out) {
  std::vector<GraphNode*> order;
  if (!graph.topological_order(order)) return kErrorInvalidValue;
  auto exec = std::make_unique<GraphExec>();
  exec->m_graph = graph.clone();
  exec->m_flags = flags;
  exec->map_nodes(graph);
  out = std::move(exec);
  return kSuccess;
}

void GraphExec::map_nodes(const Graph& from) {
  for (size_t i = 0; i < from.nodes().size(); ++i)
    m_handles[from.nodes()[i].get()] = m_graph->nodes()[i]->id;
}

GraphNode* GraphExec::node_for(const GraphNode* original) const {
  auto it = m_handles.find(original);
  return it == m_handles.end() ? nullptr : m_graph->find(it->second);
}

CudaError GraphExec::launch() {
  if (m_flags & kAutoFreeOnLaunch) free_allocations(*m_graph);
  assign_defaults(*m_graph);
  return run_graph(*m_graph);
}

CudaError GraphExec::update(const Graph& graph, GraphExecUpdateResultInfo& info) {
  GraphExecUpdateResult why = kUpdateSuccess;
  const GraphNode* where = nullptr;
  info = {kUpdateSuccess, nullptr, nullptr};
  if (!graph.same_topology(*m_graph, why, where)) {
    info.result = why;
    info.errorNode = const_cast<GraphNode*>(where);
    return kErrorGraphExecUpdateFailure;
  }
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    GraphNode& mine = *m_graph->nodes()[i];
    const auto alloc = mine.alloc;  // allocations keep their addresses
    copy_params(*graph.nodes()[i], mine);
    mine.alloc = alloc;
  }
  map_nodes(graph);
  return kSuccess;
}

}  // namespace gputlm::runtime
