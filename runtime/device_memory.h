// The memory a CUDA program sees. Device memory (cudaMalloc) lives in the functional engine's
// func::GlobalMemory, which the timing model reads addresses from; the host never dereferences it.
//
// Host memory a kernel may use is mirrored: a device allocation holds its data during launches, and
// between launches the host's copy does (launches are serialised, so that is what a program may
// observe). Before each launch every mirror is copied into the device store and after it back.
// - Managed memory (cudaMallocManaged) and pinned host memory (cudaMallocHost, cudaHostAlloc) have
//   one address for host and device, as under CUDA's unified addressing: the device allocation is
//   made first and the host maps pages at the same virtual address (mmap with MAP_FIXED_NOREPLACE;
//   device addresses start at GlobalMemory::kHeapBase, far below where Linux places a program's
//   mappings). Where that mapping cannot be made (a sanitizer's shadow memory there), pinned memory
//   is ordinary host memory with its mirror at another device address.
// - Registered host memory (cudaHostRegister) stays where the program allocated it; its mirror has
//   a device address of its own (cudaHostGetDevicePointer).
// Freed device memory is handed out again (first fit), as a GPU's allocator does. Allocations
// beyond the device's memory (the config's "device" section) fail, as cudaMalloc does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "models/func/global_memory.h"
#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

class DeviceMemory {
 public:
  explicit DeviceMemory(uint64_t capacity_bytes = uint64_t{16} << 30)
      : m_capacity(capacity_bytes) {}

  func::GlobalMemory& global() { return m_global; }
  uint64_t capacity() const { return m_capacity; }
  void set_capacity(uint64_t bytes) { m_capacity = bytes; }

  // Device or managed allocation; 0 when the device's memory is exhausted or the managed pages
  // cannot be mapped at the device address.
  uint64_t allocate(uint64_t bytes, bool managed);
  // cudaFree: kErrorInvalidValue when `ptr` is no live allocation's start (CUDA 13).
  CudaError free(uint64_t ptr);
  // Pinned host memory (nullptr when exhausted) and its release.
  void* allocate_host(size_t bytes);
  CudaError free_host(void* ptr);
  // cudaHostRegister / cudaHostUnregister of [ptr, ptr + bytes).
  CudaError register_host(void* ptr, size_t bytes);
  CudaError unregister_host(void* ptr);
  // cudaHostGetDevicePointer: the device address of pinned or registered host memory.
  CudaError device_pointer(const void* host, uint64_t& device) const;
  // cudaPointerGetAttributes.
  PointerAttributes attributes(const void* ptr) const;

  // cudaMemcpy: any mix of host, device and managed pointers (kind kDefault: from the addresses).
  // kErrorInvalidValue when a device range is not inside one allocation, or a kind contradicts
  // the pointers (a device pointer given as host).
  CudaError copy(void* dst, const void* src, size_t bytes, MemcpyKind kind);
  CudaError set(void* dst, int value, size_t bytes);

  // Device memory taken without an address of its own (cuMemCreate's physical allocations,
  // virtual_memory.h): false when it would pass the capacity; and its return.
  bool charge(uint64_t bytes);
  void uncharge(uint64_t bytes) { m_in_use -= bytes; }

  // Bytes of live device, managed and mirror allocations.
  uint64_t in_use() const { return m_in_use; }

  // Mirrored data into the device store (before a launch) and back (after it).
  void managed_to_device();
  void managed_to_host();

 private:
  struct Mirror {
    uint64_t bytes = 0;
    uint8_t* host =
        nullptr;  // the host's copy (at the device address itself for one-address memory)
    enum Kind { kManaged, kPinned, kRegistered } kind = kManaged;
  };
  // A device allocation (on a host page boundary where the host maps the same address); 0 past
  // the capacity.
  static constexpr uint64_t kHostPage = 4096;
  uint64_t reserve(uint64_t bytes, const char* name, bool host_pages);
  // Whether [addr, addr+bytes) is device memory (not a mirror); `inside` false when it starts in
  // device memory but leaves the allocation.
  bool is_device(uint64_t addr, uint64_t bytes, bool& inside) const;
  // The host's copy of device address `addr` when a mirror holds it, else `addr` itself.
  void* host_view(uint64_t addr) const;
  // The mirror holding device address `addr`, or nullptr.
  const std::pair<const uint64_t, Mirror>* mirror_at(uint64_t addr) const;

  uint64_t m_capacity;
  uint64_t m_in_use = 0;
  func::GlobalMemory m_global;
  std::map<uint64_t, Mirror> m_mirrors;  // device base -> mirror
  std::map<const void*, uint64_t>
      m_host_to_device;  // pinned (not at one address) and registered: host base -> device base
};

}  // namespace gputlm::runtime
