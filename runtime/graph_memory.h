// Graph memory (CUDA programming guide, "Graph Memory Nodes"): a memory alloc node's address is
// fixed when the node is added and stays valid for every launch; the node makes it allocated when
// it runs, and a memory free node, cudaFree or cudaFreeAsync ends that. The address range is held
// in device memory while any graph node refers to it or it is allocated.
//
// The footprint attributes (cudaDeviceGetGraphMemAttribute) follow from launches being serialised:
// the physical memory associated with graphs ("used", and the allocator's "reserved", the same
// here) grows to the most bytes ever allocated at once and shrinks only when
// cudaDeviceGraphMemTrim gives back what is not allocated now (as the graphMemoryFootprint sample
// shows on a GPU: freeing keeps the footprint, trimming shrinks it).
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "runtime/device_memory.h"
#include "runtime/graph.h"
#include "runtime/graph_abi.h"

namespace gputlm::runtime {

class GraphMemory {
 public:
  explicit GraphMemory(DeviceMemory& memory) : m_memory(memory) {}

  // A new allocation of `bytes` (its address held now); nullptr when device memory is exhausted.
  std::shared_ptr<GraphAllocation> reserve(uint64_t bytes);
  // An alloc node runs: kErrorInvalidValue when its allocation is still allocated (not freed since
  // the graph's last launch).
  CudaError allocate(const GraphAllocation& a);
  bool owns(uint64_t address) const { return m_entries.count(address) != 0; }
  // A free node, cudaFree or cudaFreeAsync of a graph allocation: kErrorInvalidValue when it is
  // not allocated now.
  CudaError free(uint64_t address);

  uint64_t attribute(GraphMemAttribute a) const;
  // cudaDeviceSetGraphMemAttribute: the high watermarks may only be reset (to the current value).
  void reset_high(GraphMemAttribute a);
  void trim() { m_reserved = m_used; }

 private:
  struct Entry {
    uint64_t bytes = 0;
    bool allocated = false, referenced = true;
  };
  // The last node holding `address` is gone: the range goes back unless it is allocated.
  void unreference(uint64_t address);

  DeviceMemory& m_memory;
  std::map<uint64_t, Entry> m_entries;
  uint64_t m_used = 0, m_used_high = 0, m_reserved = 0, m_reserved_high = 0;
};

}  // namespace gputlm::runtime
