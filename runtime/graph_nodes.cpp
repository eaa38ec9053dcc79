#include "runtime/graph_nodes.h"

#include <cstring>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

namespace gputlm::runtime {

NodePtr make_node(NodeType type) {
  auto n = std::make_unique<GraphNode>();
  n->type = type;
  return n;
}

CudaError kernel_node(const KernelNodeParams& p, NodePtr& out) {
  out = make_node(NodeType::kKernel);
  return make_kernel_call(p, out->kernel);
}

NodePtr kernel_node(RegisteredKernel& k, Dim3 grid, Dim3 block, void** args, size_t shared,
                    LaunchExtras extras) {
  NodePtr n = make_node(NodeType::kKernel);
  const void* func = Runtime::get().host_function(&k);
  make_kernel_call(
      k, {const_cast<void*>(func), grid, block, static_cast<unsigned>(shared), args, nullptr},
      n->kernel);
  n->kernel.extras = extras;
  return n;
}

CudaError memcpy_node(const Memcpy3DParms& p, NodePtr& out) {
  out = make_node(NodeType::kMemcpy);
  out->copy = p;
  if (p.kind < kHostToHost || p.kind > kDefault) return kErrorInvalidMemcpyDirection;
  return (p.srcPtr.ptr || p.srcArray) && (p.dstPtr.ptr || p.dstArray) ? kSuccess
                                                                      : kErrorInvalidValue;
}

Memcpy3DParms copy_1d(void* dst, const void* src, size_t bytes, int kind) {
  return copy_2d(dst, bytes, src, bytes, bytes, 1, kind);
}

Memcpy3DParms copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                      size_t height, int kind) {
  Memcpy3DParms p{};
  p.srcPtr = {const_cast<void*>(src), spitch, width, height};
  p.dstPtr = {dst, dpitch, width, height};
  p.extent = {width, height, 1};
  p.kind = kind;
  return p;
}

CudaError memset_node(const MemsetParams& p, NodePtr& out) {
  out = make_node(NodeType::kMemset);
  out->memset = p;
  const bool size_ok = p.elementSize == 1 || p.elementSize == 2 || p.elementSize == 4;
  return p.dst && size_ok && (p.height <= 1 || p.pitch >= p.width * p.elementSize)
             ? kSuccess
             : kErrorInvalidValue;
}

CudaError host_node(const HostNodeParams& p, NodePtr& out) {
  out = make_node(NodeType::kHost);
  out->host = p;
  return p.fn ? kSuccess : kErrorInvalidValue;
}

CudaError child_node(const Graph* child, NodePtr& out) {
  out = make_node(NodeType::kGraph);
  if (!child) return kErrorInvalidValue;
  out->child = child->clone();
  return kSuccess;
}

CudaError event_node(NodeType type, void* event, NodePtr& out) {
  out = make_node(type);
  out->event = event;
  return event ? kSuccess : kErrorInvalidValue;
}

// One device: the pool must be pinned (1) device memory (cudaMemLocationTypeDevice, 1) of device 0.
CudaError alloc_node(MemAllocNodeParams& p, NodePtr& out) {
  out = make_node(NodeType::kMemAlloc);
  if (!p.bytesize || p.poolProps.allocType != 1 || p.poolProps.location.type != 1)
    return kErrorInvalidValue;
  if (p.poolProps.location.id != 0) return kErrorInvalidDevice;
  out->alloc = Runtime::get().graphs().memory.reserve(p.bytesize);
  if (!out->alloc) return kErrorMemoryAllocation;
  p.dptr = reinterpret_cast<void*>(out->alloc->address);
  return kSuccess;
}

CudaError free_node(void* dptr, NodePtr& out) {
  out = make_node(NodeType::kMemFree);
  out->free_address = reinterpret_cast<uint64_t>(dptr);
  return Runtime::get().graphs().memory.owns(out->free_address) ? kSuccess : kErrorInvalidValue;
}

CudaError conditional_node(ConditionalNodeParams& p, NodePtr& out) {
  out = make_node(NodeType::kConditional);
  const bool size_ok = p.type == 0   ? p.size == 1 || p.size == 2
                       : p.type == 1 ? p.size == 1
                                     : p.type == 2 && p.size >= 1;
  if (!p.handle || !size_ok) return kErrorInvalidValue;
  out->condition = p.handle;
  out->condition_type = p.type;
  for (unsigned i = 0; i < p.size; ++i) {
    out->bodies.push_back(std::make_unique<Graph>());
    out->body_handles.push_back(out->bodies.back().get());
  }
  p.phGraph_out = out->body_handles.data();
  return kSuccess;
}

CudaError node_from(GraphNodeParams& p, NodePtr& out) {
  switch (p.type) {
    case NodeType::kKernel:
      return kernel_node(p.kernel, out);
    case NodeType::kMemcpy:
      return memcpy_node(p.memcpy.copyParams, out);
    case NodeType::kMemset:
      return memset_node(p.memset, out);
    case NodeType::kHost:
      return host_node(p.host, out);
    case NodeType::kGraph:
      return child_node(static_cast<const Graph*>(p.graph.graph), out);
    case NodeType::kEmpty:
      out = make_node(NodeType::kEmpty);
      return kSuccess;
    case NodeType::kWaitEvent:
      return event_node(p.type, p.eventWait.event, out);
    case NodeType::kEventRecord:
      return event_node(p.type, p.eventRecord.event, out);
    case NodeType::kMemAlloc:
      return alloc_node(p.alloc, out);
    case NodeType::kMemFree:
      return free_node(p.free.dptr, out);
    case NodeType::kConditional:
      return conditional_node(p.conditional, out);
    default:
      not_implemented("cudaGraphAddNode of node type " + std::to_string(static_cast<int>(p.type)));
  }
}

}  // namespace gputlm::runtime
