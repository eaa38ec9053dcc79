// A CUDA graph (cudaGraph_t): nodes of work and the dependencies between them, built explicitly
// (cudaGraphAdd*Node) or by stream capture (capture.h). A node's parameters are copied when it is
// added or set, as CUDA does: a kernel node keeps its own copy of the kernel's argument bytes.
// Executing a graph (graph_exec.h) runs its nodes one at a time in a topological order of the
// dependencies, each as its stream call would run it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/graph_abi.h"
#include "runtime/launch_extras.h"

namespace gputlm::runtime {

struct RegisteredKernel;
class Graph;

// A kernel launch with its arguments copied: `params` laid out as the kernel's PTX parameter list,
// `args` one pointer into it per parameter (what a launch and cudaGraphKernelNodeGetParams give).
struct KernelCall {
  const void* func = nullptr;  // as the program named the kernel
  RegisteredKernel* kernel = nullptr;
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t shared = 0;
  LaunchExtras extras;
  std::vector<uint8_t> params;
  std::vector<void*> args;

  KernelCall() = default;
  KernelCall(const KernelCall& o) { *this = o; }
  KernelCall& operator=(const KernelCall& o);
};

// kErrorInvalidDeviceFunction when `func` is no registered kernel; kErrorInvalidValue when the
// arguments are missing or `extra` is malformed (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE/END).
CudaError make_kernel_call(const KernelNodeParams& p, KernelCall& out);
// The same for kernel `k` (p.func kept as the program's name for it, possibly null).
CudaError make_kernel_call(RegisteredKernel& k, const KernelNodeParams& p, KernelCall& out);
KernelNodeParams kernel_params_of(KernelCall& call);

// A graph allocation (a memory alloc node's): its address is fixed when the node is added, and
// stays the node's for every launch (graph_memory.h keeps whether it is allocated now).
struct GraphAllocation {
  uint64_t address = 0, bytes = 0;
};

struct GraphNode {
  Graph* owner = nullptr;
  uint64_t id = 0;  // unique in its graph, kept by a clone (cudaGraphNodeFindInClone, updates)
  NodeType type = NodeType::kEmpty;
  std::vector<GraphNode*> deps;  // the nodes it depends on, in the order added
  bool enabled = true;           // cudaGraphNodeSetEnabled (of an executable graph's node)

  KernelCall kernel;
  Memcpy3DParms copy{};
  MemsetParams memset{};
  HostNodeParams host{};
  std::unique_ptr<Graph> child;            // kGraph
  void* event = nullptr;                   // kEventRecord, kWaitEvent
  std::shared_ptr<GraphAllocation> alloc;  // kMemAlloc
  uint64_t free_address = 0;               // kMemFree
  // kConditional: its handle (the device address of the 32-bit condition), its type
  // (cudaGraphConditionalNodeType) and its bodies, also as the cudaGraph_t array phGraph_out gives.
  uint64_t condition = 0;
  int condition_type = 0;
  std::vector<std::unique_ptr<Graph>> bodies;
  std::vector<void*> body_handles;
};

// A conditional handle (cudaGraphConditionalHandleCreate) of a graph: where its value lives, and
// the value a launch starts with when `assign_default` (cudaGraphCondAssignDefault).
struct ConditionalHandle {
  uint64_t address = 0;
  unsigned default_value = 0;
  bool assign_default = false;
};

class Graph {
 public:
  // Adds `node` after `deps` (each a node of this graph: else kErrorInvalidValue, nothing added).
  CudaError add(std::unique_ptr<GraphNode> node, const std::vector<GraphNode*>& deps,
                GraphNode** out);
  // Removes a node and every edge to or from it.
  void remove(GraphNode* node);
  CudaError add_edge(GraphNode* from, GraphNode* to);
  CudaError remove_edge(GraphNode* from, GraphNode* to);

  const std::vector<std::unique_ptr<GraphNode>>& nodes() const { return m_nodes; }
  bool owns(const GraphNode* node) const;
  GraphNode* find(uint64_t id) const;  // nullptr if none
  std::vector<GraphNode*> roots() const;
  std::vector<GraphNode*> dependents(const GraphNode* node) const;
  // The nodes in a topological order (ties in the order added); false when the edges hold a cycle.
  bool topological_order(std::vector<GraphNode*>& order) const;
  // Deep copy: nodes keep their ids, child graphs are copied too.
  std::unique_ptr<Graph> clone() const;
  // Same nodes (by position), types and edges: what cudaGraphExecUpdate requires. On a mismatch,
  // `why` and the node of this graph that differs.
  bool same_topology(const Graph& other, GraphExecUpdateResult& why, const GraphNode*& where) const;
  // cudaGraphDebugDotPrint: one DOT digraph, a cluster per child graph.
  void write_dot(std::ostream& out, const std::string& name) const;

  std::vector<ConditionalHandle>& conditional_handles() { return m_handles; }

 private:
  std::vector<std::unique_ptr<GraphNode>> m_nodes;
  std::vector<ConditionalHandle> m_handles;
  uint64_t m_next_id = 1;
};

// A copy of `node`'s parameters (and child graph) without its edges or owner.
std::unique_ptr<GraphNode> clone_node(const GraphNode& node);
// The parameters of `from` copied into `to` (same type): cudaGraphExecUpdate and the exec setters.
void copy_params(const GraphNode& from, GraphNode& to);

}  // namespace gputlm::runtime
