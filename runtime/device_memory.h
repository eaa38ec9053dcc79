// The memory a CUDA program sees. Device memory (cudaMalloc) lives in the functional engine's
// func::GlobalMemory, which the timing model reads addresses from; the host never dereferences it.
// Managed memory (cudaMallocManaged) must have one address for host and device: its device
// allocation is made first and the host maps pages at the same virtual address (mmap with
// MAP_FIXED_NOREPLACE; device addresses start at GlobalMemory::kHeapBase, far below where Linux
// places a program's mappings). Between launches the host mapping holds the data; before a
// launch it is copied into the device store and back after (launches are serialised, so this is
// what a program may observe). Pinned host memory (cudaMallocHost) is ordinary host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "models/func/global_memory.h"
#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

class DeviceMemory {
 public:
  func::GlobalMemory& global() { return m_global; }

  // Device or managed allocation; 0 when the managed pages cannot be mapped at the device address.
  uint64_t allocate(uint64_t bytes, bool managed);
  // kErrorInvalidDevicePointer when `ptr` is no allocation's start.
  CudaError free(uint64_t ptr);
  void* allocate_host(size_t bytes);
  CudaError free_host(void* ptr);

  // cudaMemcpy: any mix of host, device and managed pointers (kind kDefault: from the addresses).
  // kErrorInvalidValue when a device range is not inside one allocation, or a kind contradicts
  // the pointers (a device pointer given as host).
  CudaError copy(void* dst, const void* src, size_t bytes, MemcpyKind kind);
  CudaError set(void* dst, int value, size_t bytes);

  // Bytes of device and managed allocations not freed.
  uint64_t in_use() const;

  // Managed data into the device store (before a launch) and back (after it).
  void managed_to_device();
  void managed_to_host();

 private:
  // Whether [addr, addr+bytes) is device (not managed) memory; `inside` false when it starts in
  // device memory but leaves the allocation.
  bool is_device(uint64_t addr, uint64_t bytes, bool& inside) const;

  func::GlobalMemory m_global;
  std::map<uint64_t, uint64_t> m_managed;  // base -> bytes (mapped at the same host address)
  std::map<uint64_t, uint64_t> m_freed;    // device allocations freed: base -> bytes (not reused)
  std::map<void*, size_t> m_host;          // cudaMallocHost
};

}  // namespace gputlm::runtime
