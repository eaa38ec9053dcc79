// Runtime API: a graph node's parameters read and set (cudaGraph*NodeGet/SetParams), and set in an
// executable graph (cudaGraphExec*NodeSetParams: the node of the graph it was made from names the
// node, the graph itself is unchanged). Setting builds the node anew from the parameters, checked
// as when adding one, and copies its parameters over the node's.
#include "runtime/api_support.h"
#include "runtime/graph_exec.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }
GraphNode* node_of(void* h) { return static_cast<GraphNode*>(h); }

// Sets the parameters of `target` (of type `type`, else kErrorInvalidValue) to those of the node
// `make` builds.
template <typename Make>
CudaError set_params(GraphNode* target, NodeType type, Make&& make) {
  if (!target || target->type != type) return kErrorInvalidValue;
  NodePtr n;
  if (const CudaError e = make(n)) return e;
  if (n->type != type) return kErrorInvalidValue;
  copy_params(*n, *target);
  return kSuccess;
}

template <typename Make>
int set_node(const char* api, void* node, NodeType type, Make&& make) {
  return guarded(api, [&] { return record(set_params(node_of(node), type, make)); });
}

// The node of `exec` that `node` (of the graph it came from) is.
template <typename Make>
int set_exec_node(const char* api, void* exec, void* node, NodeType type, Make&& make) {
  return guarded(api, [&] {
    if (!exec || !node) return record(kErrorInvalidValue);
    return record(set_params(static_cast<GraphExec*>(exec)->node_for(node_of(node)), type, make));
  });
}

template <typename Body>
int get_node(const char* api, void* h, NodeType type, bool out_given, Body&& body) {
  return guarded(api, [&] {
    GraphNode* n = node_of(h);
    if (!n || n->type != type || !out_given) return record(kErrorInvalidValue);
    body(*n);
    return kSuccess;
  });
}

}  // namespace

extern "C" {

int cudaGraphKernelNodeGetParams(void* node, KernelNodeParams* p) {
  return get_node("cudaGraphKernelNodeGetParams", node, NodeType::kKernel, p,
                  [&](GraphNode& n) { *p = kernel_params_of(n.kernel); });
}
int cudaGraphKernelNodeSetParams(void* node, const KernelNodeParams* p) {
  return set_node("cudaGraphKernelNodeSetParams", node, NodeType::kKernel,
                  [&](NodePtr& n) { return p ? kernel_node(*p, n) : kErrorInvalidValue; });
}

int cudaGraphMemcpyNodeGetParams(void* node, Memcpy3DParms* p) {
  return get_node("cudaGraphMemcpyNodeGetParams", node, NodeType::kMemcpy, p,
                  [&](GraphNode& n) { *p = n.copy; });
}
int cudaGraphMemcpyNodeSetParams(void* node, const Memcpy3DParms* p) {
  return set_node("cudaGraphMemcpyNodeSetParams", node, NodeType::kMemcpy,
                  [&](NodePtr& n) { return p ? memcpy_node(*p, n) : kErrorInvalidValue; });
}
int cudaGraphMemcpyNodeSetParams1D(void* node, void* dst, const void* src, size_t bytes, int kind) {
  return set_node("cudaGraphMemcpyNodeSetParams1D", node, NodeType::kMemcpy,
                  [&](NodePtr& n) { return memcpy_node(copy_1d(dst, src, bytes, kind), n); });
}

int cudaGraphMemsetNodeGetParams(void* node, MemsetParams* p) {
  return get_node("cudaGraphMemsetNodeGetParams", node, NodeType::kMemset, p,
                  [&](GraphNode& n) { *p = n.memset; });
}
int cudaGraphMemsetNodeSetParams(void* node, const MemsetParams* p) {
  return set_node("cudaGraphMemsetNodeSetParams", node, NodeType::kMemset,
                  [&](NodePtr& n) { return p ? memset_node(*p, n) : kErrorInvalidValue; });
}

int cudaGraphHostNodeGetParams(void* node, HostNodeParams* p) {
  return get_node("cudaGraphHostNodeGetParams", node, NodeType::kHost, p,
                  [&](GraphNode& n) { *p = n.host; });
}
int cudaGraphHostNodeSetParams(void* node, const HostNodeParams* p) {
  return set_node("cudaGraphHostNodeSetParams", node, NodeType::kHost,
                  [&](NodePtr& n) { return p ? host_node(*p, n) : kErrorInvalidValue; });
}

int cudaGraphEventRecordNodeGetEvent(void* node, void** event) {
  return get_node("cudaGraphEventRecordNodeGetEvent", node, NodeType::kEventRecord, event,
                  [&](GraphNode& n) { *event = n.event; });
}
int cudaGraphEventRecordNodeSetEvent(void* node, void* event) {
  return set_node("cudaGraphEventRecordNodeSetEvent", node, NodeType::kEventRecord,
                  [&](NodePtr& n) { return event_node(NodeType::kEventRecord, event, n); });
}
int cudaGraphEventWaitNodeGetEvent(void* node, void** event) {
  return get_node("cudaGraphEventWaitNodeGetEvent", node, NodeType::kWaitEvent, event,
                  [&](GraphNode& n) { *event = n.event; });
}
int cudaGraphEventWaitNodeSetEvent(void* node, void* event) {
  return set_node("cudaGraphEventWaitNodeSetEvent", node, NodeType::kWaitEvent,
                  [&](NodePtr& n) { return event_node(NodeType::kWaitEvent, event, n); });
}

int cudaGraphMemFreeNodeGetParams(void* node, void* dptr) {
  return get_node(
      "cudaGraphMemFreeNodeGetParams", node, NodeType::kMemFree, dptr,
      [&](GraphNode& n) { *static_cast<void**>(dptr) = reinterpret_cast<void*>(n.free_address); });
}

// The generic setter: kernel, memcpy, memset, host and event nodes (others cannot change).
int cudaGraphNodeSetParams(void* node, GraphNodeParams* p) {
  return guarded("cudaGraphNodeSetParams", [&] {
    if (!p) return record(kErrorInvalidValue);
    return record(set_params(node_of(node), p->type, [&](NodePtr& n) { return node_from(*p, n); }));
  });
}

int cudaGraphExecKernelNodeSetParams(void* exec, void* node, const KernelNodeParams* p) {
  return set_exec_node("cudaGraphExecKernelNodeSetParams", exec, node, NodeType::kKernel,
                       [&](NodePtr& n) { return p ? kernel_node(*p, n) : kErrorInvalidValue; });
}
int cudaGraphExecMemcpyNodeSetParams(void* exec, void* node, const Memcpy3DParms* p) {
  return set_exec_node("cudaGraphExecMemcpyNodeSetParams", exec, node, NodeType::kMemcpy,
                       [&](NodePtr& n) { return p ? memcpy_node(*p, n) : kErrorInvalidValue; });
}
int cudaGraphExecMemcpyNodeSetParams1D(void* exec, void* node, void* dst, const void* src,
                                       size_t bytes, int kind) {
  return set_exec_node("cudaGraphExecMemcpyNodeSetParams1D", exec, node, NodeType::kMemcpy,
                       [&](NodePtr& n) { return memcpy_node(copy_1d(dst, src, bytes, kind), n); });
}
int cudaGraphExecMemsetNodeSetParams(void* exec, void* node, const MemsetParams* p) {
  return set_exec_node("cudaGraphExecMemsetNodeSetParams", exec, node, NodeType::kMemset,
                       [&](NodePtr& n) { return p ? memset_node(*p, n) : kErrorInvalidValue; });
}
int cudaGraphExecHostNodeSetParams(void* exec, void* node, const HostNodeParams* p) {
  return set_exec_node("cudaGraphExecHostNodeSetParams", exec, node, NodeType::kHost,
                       [&](NodePtr& n) { return p ? host_node(*p, n) : kErrorInvalidValue; });
}
int cudaGraphExecEventRecordNodeSetEvent(void* exec, void* node, void* event) {
  return set_exec_node("cudaGraphExecEventRecordNodeSetEvent", exec, node, NodeType::kEventRecord,
                       [&](NodePtr& n) { return event_node(NodeType::kEventRecord, event, n); });
}
int cudaGraphExecEventWaitNodeSetEvent(void* exec, void* node, void* event) {
  return set_exec_node("cudaGraphExecEventWaitNodeSetEvent", exec, node, NodeType::kWaitEvent,
                       [&](NodePtr& n) { return event_node(NodeType::kWaitEvent, event, n); });
}
// A child graph of the same topology as the node's (CUDA's rule), its parameters copied.
int cudaGraphExecChildGraphNodeSetParams(void* exec, void* node, void* child) {
  return guarded("cudaGraphExecChildGraphNodeSetParams", [&] {
    GraphNode* n = exec && node ? static_cast<GraphExec*>(exec)->node_for(node_of(node)) : nullptr;
    if (!n || n->type != NodeType::kGraph || !child) return record(kErrorInvalidValue);
    GraphExecUpdateResult why;
    const GraphNode* where = nullptr;
    if (!static_cast<Graph*>(child)->same_topology(*n->child, why, where))
      return record(kErrorInvalidValue);
    n->child = static_cast<Graph*>(child)->clone();
    return kSuccess;
  });
}
// Kernel, memcpy and memset nodes (CUDA's list) may be disabled: they then run as empty nodes.
int cudaGraphNodeSetEnabled(void* exec, void* node, unsigned enabled) {
  return guarded("cudaGraphNodeSetEnabled", [&] {
    GraphNode* n = exec && node ? static_cast<GraphExec*>(exec)->node_for(node_of(node)) : nullptr;
    if (!n || (n->type != NodeType::kKernel && n->type != NodeType::kMemcpy &&
               n->type != NodeType::kMemset))
      return record(kErrorInvalidValue);
    n->enabled = enabled != 0;
    return kSuccess;
  });
}
int cudaGraphNodeGetEnabled(void* exec, void* node, unsigned* enabled) {
  return guarded("cudaGraphNodeGetEnabled", [&] {
    GraphNode* n = exec && node ? static_cast<GraphExec*>(exec)->node_for(node_of(node)) : nullptr;
    if (!n || !enabled) return record(kErrorInvalidValue);
    *enabled = n->enabled;
    return kSuccess;
  });
}

int cudaGraphExecNodeSetParams(void* exec, void* node, GraphNodeParams* p) {
  return guarded("cudaGraphExecNodeSetParams", [&] {
    if (!exec || !node || !p) return record(kErrorInvalidValue);
    return record(set_params(static_cast<GraphExec*>(exec)->node_for(node_of(node)), p->type,
                             [&](NodePtr& n) { return node_from(*p, n); }));
  });
}

}  // extern "C"
