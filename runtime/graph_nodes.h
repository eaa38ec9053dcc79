// Graph nodes made from the parameters the API takes (explicit cudaGraphAdd*Node calls and the
// stream calls a capture turns into nodes), checked as CUDA checks them when a node is added:
// kErrorInvalidValue for a missing host function, a memset element size other than 1, 2 or 4, ...
#pragma once

#include <memory>

#include "runtime/graph.h"

namespace gputlm::runtime {

using NodePtr = std::unique_ptr<GraphNode>;

NodePtr make_node(NodeType type);
CudaError kernel_node(const KernelNodeParams& p, NodePtr& out);
// A launch as cudaLaunchKernel and <<<>>> make it (`k` registered).
NodePtr kernel_node(RegisteredKernel& k, Dim3 grid, Dim3 block, void** args, size_t shared,
                    LaunchExtras extras = {});
CudaError memcpy_node(const Memcpy3DParms& p, NodePtr& out);
Memcpy3DParms copy_1d(void* dst, const void* src, size_t bytes, int kind);
Memcpy3DParms copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                      size_t height, int kind);
CudaError memset_node(const MemsetParams& p, NodePtr& out);
CudaError host_node(const HostNodeParams& p, NodePtr& out);
CudaError child_node(const Graph* child, NodePtr& out);
CudaError event_node(NodeType type, void* event, NodePtr& out);
// An allocation of `p.bytesize` bytes (its address is set in p.dptr).
CudaError alloc_node(MemAllocNodeParams& p, NodePtr& out);
CudaError free_node(void* dptr, NodePtr& out);
// A conditional node with `p.size` empty bodies (p.phGraph_out set to them): an if (1 or 2
// bodies: then, else), a while (1) or a switch (any number) on the value of handle `p.handle`.
CudaError conditional_node(ConditionalNodeParams& p, NodePtr& out);
// cudaGraphAddNode's parameters.
CudaError node_from(GraphNodeParams& p, NodePtr& out);

}  // namespace gputlm::runtime
