// Runtime API: building graphs explicitly (cudaGraphCreate, cudaGraphAdd*Node, dependencies) and
// reading them back. Handles are the objects themselves: cudaGraph_t a Graph, cudaGraphNode_t a
// GraphNode (graph.h). Node parameters are copied when a node is added or set.
#include <algorithm>
#include <vector>

#include "runtime/api_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }
Graph* graph_of(void* h) { return static_cast<Graph*>(h); }
GraphNode* node_of(void* h) { return static_cast<GraphNode*>(h); }

// Adds the node `make` builds to `graph` after `deps`, its handle in *out.
template <typename Make>
int add(const char* api, void** out, void* graph, void* const* deps, size_t count, Make&& make) {
  return guarded(api, [&] {
    if (!out || !graph || (count && !deps)) return record(kErrorInvalidValue);
    NodePtr node;
    if (const CudaError e = make(node)) return record(e);
    std::vector<GraphNode*> d;
    for (size_t i = 0; i < count; ++i) d.push_back(node_of(deps[i]));
    GraphNode* added = nullptr;
    const CudaError e = graph_of(graph)->add(std::move(node), d, &added);
    *out = added;
    return record(e);
  });
}

// Runs `body` on node `h` when it is a node of type `type`, else kErrorInvalidValue.
template <typename Body>
int with_node(const char* api, void* h, NodeType type, Body&& body) {
  return guarded(api, [&] {
    GraphNode* n = node_of(h);
    if (!n || n->type != type) return record(kErrorInvalidValue);
    return record(body(*n));
  });
}

// A list the program reads: `count` entries at most into `out` (null: only the count), *count the
// list's length.
template <typename T>
CudaError fill(const std::vector<T*>& list, void** out, size_t* count) {
  if (!count) return kErrorInvalidValue;
  if (out) {
    for (size_t i = 0; i < *count; ++i) out[i] = i < list.size() ? list[i] : nullptr;
  }
  *count = list.size();
  return kSuccess;
}

void zero_edges(GraphEdgeData* edges, size_t n) {
  if (edges) std::fill(edges, edges + n, GraphEdgeData{});
}

// Programmatic dependencies (non-zero ports or types) need the programmatic launches the model
// does not have.
void default_edges_only(const char* api, const GraphEdgeData* edges, size_t n) {
  for (size_t i = 0; edges && i < n; ++i)
    if (edges[i].from_port || edges[i].to_port || edges[i].type)
      not_implemented(std::string(api) + " with programmatic edge data");
}

}  // namespace

extern "C" {

int cudaGraphCreate(void** graph, unsigned flags) {
  return guarded("cudaGraphCreate", [&] {
    if (!graph || flags) return record(kErrorInvalidValue);
    *graph = new Graph;
    return kSuccess;
  });
}

int cudaGraphDestroy(void* graph) {
  return guarded("cudaGraphDestroy", [&] {
    if (!graph) return record(kErrorInvalidValue);
    delete graph_of(graph);
    return kSuccess;
  });
}

int cudaGraphAddKernelNode(void** node, void* graph, void* const* deps, size_t n,
                           const KernelNodeParams* p) {
  return add("cudaGraphAddKernelNode", node, graph, deps, n,
             [&](NodePtr& out) { return p ? kernel_node(*p, out) : kErrorInvalidValue; });
}

int cudaGraphAddMemcpyNode(void** node, void* graph, void* const* deps, size_t n,
                           const Memcpy3DParms* p) {
  return add("cudaGraphAddMemcpyNode", node, graph, deps, n,
             [&](NodePtr& out) { return p ? memcpy_node(*p, out) : kErrorInvalidValue; });
}

int cudaGraphAddMemcpyNode1D(void** node, void* graph, void* const* deps, size_t n, void* dst,
                             const void* src, size_t bytes, int kind) {
  return add("cudaGraphAddMemcpyNode1D", node, graph, deps, n,
             [&](NodePtr& out) { return memcpy_node(copy_1d(dst, src, bytes, kind), out); });
}

int cudaGraphAddMemsetNode(void** node, void* graph, void* const* deps, size_t n,
                           const MemsetParams* p) {
  return add("cudaGraphAddMemsetNode", node, graph, deps, n,
             [&](NodePtr& out) { return p ? memset_node(*p, out) : kErrorInvalidValue; });
}

int cudaGraphAddHostNode(void** node, void* graph, void* const* deps, size_t n,
                         const HostNodeParams* p) {
  return add("cudaGraphAddHostNode", node, graph, deps, n,
             [&](NodePtr& out) { return p ? host_node(*p, out) : kErrorInvalidValue; });
}

int cudaGraphAddChildGraphNode(void** node, void* graph, void* const* deps, size_t n, void* child) {
  return add("cudaGraphAddChildGraphNode", node, graph, deps, n,
             [&](NodePtr& out) { return child_node(graph_of(child), out); });
}

int cudaGraphAddEmptyNode(void** node, void* graph, void* const* deps, size_t n) {
  return add("cudaGraphAddEmptyNode", node, graph, deps, n,
             [&](NodePtr& out) { return (out = make_node(NodeType::kEmpty)), kSuccess; });
}

int cudaGraphAddEventRecordNode(void** node, void* graph, void* const* deps, size_t n,
                                void* event) {
  return add("cudaGraphAddEventRecordNode", node, graph, deps, n,
             [&](NodePtr& out) { return event_node(NodeType::kEventRecord, event, out); });
}

int cudaGraphAddEventWaitNode(void** node, void* graph, void* const* deps, size_t n, void* event) {
  return add("cudaGraphAddEventWaitNode", node, graph, deps, n,
             [&](NodePtr& out) { return event_node(NodeType::kWaitEvent, event, out); });
}

int cudaGraphAddMemAllocNode(void** node, void* graph, void* const* deps, size_t n,
                             MemAllocNodeParams* p) {
  return add("cudaGraphAddMemAllocNode", node, graph, deps, n,
             [&](NodePtr& out) { return p ? alloc_node(*p, out) : kErrorInvalidValue; });
}

int cudaGraphAddMemFreeNode(void** node, void* graph, void* const* deps, size_t n, void* dptr) {
  return add("cudaGraphAddMemFreeNode", node, graph, deps, n,
             [&](NodePtr& out) { return free_node(dptr, out); });
}

int cudaGraphAddNode(void** node, void* graph, void* const* deps, const GraphEdgeData* edges,
                     size_t n, GraphNodeParams* p) {
  default_edges_only("cudaGraphAddNode", edges, n);
  return add("cudaGraphAddNode", node, graph, deps, n,
             [&](NodePtr& out) { return p ? node_from(*p, out) : kErrorInvalidValue; });
}

// A handle is the device address of the conditional's 32-bit value, which the device side's
// cudaGraphSetConditional stores to (models/func/semantics/service_calls.cpp) and the
// conditional node reads. It holds `default_value` from the start.
int cudaGraphConditionalHandleCreate(uint64_t* handle, void* graph, unsigned default_value,
                                     unsigned flags) {
  return guarded("cudaGraphConditionalHandleCreate", [&] {
    if (!handle || !graph || flags > 1) return record(kErrorInvalidValue);
    DeviceMemory& mem = Runtime::get().memory();
    const uint64_t address = mem.allocate(4, false);
    if (!address) return record(kErrorMemoryAllocation);
    mem.copy(reinterpret_cast<void*>(address), &default_value, 4, kHostToDevice);
    graph_of(graph)->conditional_handles().push_back({address, default_value, flags == 1});
    *handle = address;
    return kSuccess;
  });
}

int cudaGraphNodeGetType(void* node, NodeType* type) {
  return guarded("cudaGraphNodeGetType", [&] {
    if (!node || !type) return record(kErrorInvalidValue);
    *type = node_of(node)->type;
    return kSuccess;
  });
}

int cudaGraphGetNodes(void* graph, void** nodes, size_t* count) {
  return guarded("cudaGraphGetNodes", [&] {
    if (!graph) return record(kErrorInvalidValue);
    std::vector<GraphNode*> list;
    for (const auto& n : graph_of(graph)->nodes()) list.push_back(n.get());
    return record(fill(list, nodes, count));
  });
}

int cudaGraphGetRootNodes(void* graph, void** nodes, size_t* count) {
  return guarded("cudaGraphGetRootNodes", [&] {
    return record(graph ? fill(graph_of(graph)->roots(), nodes, count) : kErrorInvalidValue);
  });
}

int cudaGraphGetEdges(void* graph, void** from, void** to, GraphEdgeData* edges, size_t* count) {
  return guarded("cudaGraphGetEdges", [&] {
    if (!graph || !count || (!from != !to)) return record(kErrorInvalidValue);
    std::vector<GraphNode*> froms, tos;
    for (const auto& n : graph_of(graph)->nodes())
      for (GraphNode* d : n->deps) froms.push_back(d), tos.push_back(n.get());
    size_t n = *count;
    fill(froms, from, &n);
    zero_edges(edges, std::min(*count, froms.size()));
    return record(fill(tos, to, count));
  });
}

int cudaGraphNodeGetDependencies(void* node, void** deps, GraphEdgeData* edges, size_t* count) {
  return guarded("cudaGraphNodeGetDependencies", [&] {
    if (!node || !count) return record(kErrorInvalidValue);
    zero_edges(edges, std::min(*count, node_of(node)->deps.size()));
    return record(fill(node_of(node)->deps, deps, count));
  });
}

int cudaGraphNodeGetDependentNodes(void* node, void** dependents, GraphEdgeData* edges,
                                   size_t* count) {
  return guarded("cudaGraphNodeGetDependentNodes", [&] {
    if (!node || !count) return record(kErrorInvalidValue);
    const std::vector<GraphNode*> list = node_of(node)->owner->dependents(node_of(node));
    zero_edges(edges, std::min(*count, list.size()));
    return record(fill(list, dependents, count));
  });
}

int cudaGraphAddDependencies(void* graph, void* const* from, void* const* to,
                             const GraphEdgeData* edges, size_t n) {
  default_edges_only("cudaGraphAddDependencies", edges, n);
  return guarded("cudaGraphAddDependencies", [&] {
    if (!graph || (n && (!from || !to))) return record(kErrorInvalidValue);
    for (size_t i = 0; i < n; ++i)
      if (const CudaError e = graph_of(graph)->add_edge(node_of(from[i]), node_of(to[i])))
        return record(e);
    return kSuccess;
  });
}

int cudaGraphRemoveDependencies(void* graph, void* const* from, void* const* to,
                                const GraphEdgeData* edges, size_t n) {
  default_edges_only("cudaGraphRemoveDependencies", edges, n);
  return guarded("cudaGraphRemoveDependencies", [&] {
    if (!graph || (n && (!from || !to))) return record(kErrorInvalidValue);
    for (size_t i = 0; i < n; ++i)
      if (const CudaError e = graph_of(graph)->remove_edge(node_of(from[i]), node_of(to[i])))
        return record(e);
    return kSuccess;
  });
}

int cudaGraphDestroyNode(void* node) {
  return guarded("cudaGraphDestroyNode", [&] {
    if (!node) return record(kErrorInvalidValue);
    node_of(node)->owner->remove(node_of(node));
    return kSuccess;
  });
}

int cudaGraphClone(void** clone, void* graph) {
  return guarded("cudaGraphClone", [&] {
    if (!clone || !graph) return record(kErrorInvalidValue);
    *clone = graph_of(graph)->clone().release();
    return kSuccess;
  });
}

int cudaGraphNodeFindInClone(void** node, void* original, void* clone) {
  return guarded("cudaGraphNodeFindInClone", [&] {
    if (!node || !original || !clone) return record(kErrorInvalidValue);
    *node = graph_of(clone)->find(node_of(original)->id);
    return *node ? kSuccess : record(kErrorInvalidValue);
  });
}

int cudaGraphChildGraphNodeGetGraph(void* node, void** graph) {
  return with_node("cudaGraphChildGraphNodeGetGraph", node, NodeType::kGraph, [&](GraphNode& n) {
    if (!graph) return kErrorInvalidValue;
    *graph = n.child.get();
    return kSuccess;
  });
}

}  // extern "C"
