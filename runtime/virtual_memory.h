// The driver API's virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap,
// cuMemSetAccess, ...) on the simulated device memory (DeviceMemory, func::GlobalMemory).
//
// Model. A reservation is a range of device addresses that cudaMalloc no longer hands out
// (GlobalMemory::reserve) and nothing in it is valid for kernels or copies. A physical allocation
// (cuMemCreate) is a count of device memory taken from the capacity (cuMemGetInfo sees it), with
// its properties and its handle's references. Mapping it at an address of a reservation and then
// granting read-write access (cuMemSetAccess) makes the range valid: each maximal run of
// contiguous accessible mappings is one GlobalMemory allocation (placed), so kernels, copies and
// the memory checker see memory there, and a copy may cross from one mapping to the next as it
// may on a GPU. The data of a mapping lives at its addresses in GlobalMemory; unmapping an
// allocation whose handle is still held saves its bytes, and mapping it again restores them, as
// the physical memory a GPU keeps would.
//
// What a GPU does that this does not model: one allocation mapped at two addresses at once
// (aliases; not implemented, exit 2), read-only mappings (CU_MEM_ACCESS_FLAGS_PROT_READ: not
// implemented), host or NUMA locations, managed VMM allocations, shareable handles (export and
// import, the compression of compressible memory, and the page-table costs of mapping (no simulated
// time passes). Compressible memory (CU_MEM_ALLOCATION_COMP_GENERIC) is granted where the device
// reports CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, which is from compute capability 8.0
// (Ampere brought generic compression; a choice where NVIDIA lists no such rule): the allocation
// says it is compressible and behaves as any other, its data and its timing uncompressed, as a hint
// the model counts but does not act on. Below 8.0 a request makes an ordinary allocation, as on a
// GPU without compressible memory.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "runtime/cuda_abi.h"
#include "runtime/device_memory.h"
#include "runtime/driver_vmm_abi.h"

namespace gputlm::runtime {

class VirtualMemory {
 public:
  // The granularity of sizes, addresses and offsets (cuMemGetAllocationGranularity, minimum and
  // recommended): 2 MB, the large page GPUs map device memory in and report here.
  static constexpr uint64_t kGranularity = uint64_t{2} << 20;

  explicit VirtualMemory(DeviceMemory& memory) : m_memory(memory) {}
  // Whether cuMemCreate grants compressible memory (the device attribute above).
  void set_generic_compression(bool supported) { m_compression = supported; }
  bool generic_compression() const { return m_compression; }

  // cuMemAddressReserve (the address hint is only a hint: not followed) / cuMemAddressFree.
  CudaError reserve(uint64_t& ptr, uint64_t bytes, uint64_t alignment);
  CudaError free_reservation(uint64_t ptr, uint64_t bytes);
  // cuMemCreate (prop checked by the caller) / cuMemRelease.
  CudaError create(uint64_t& handle, uint64_t bytes, const MemAllocationProp& prop);
  CudaError release(uint64_t handle);
  // cuMemMap / cuMemUnmap.
  CudaError map(uint64_t ptr, uint64_t bytes, uint64_t offset, uint64_t handle);
  CudaError unmap(uint64_t ptr, uint64_t bytes);
  // cuMemSetAccess for the one device (`flags` kAccessNone or kAccessReadWrite) / cuMemGetAccess.
  CudaError set_access(uint64_t ptr, uint64_t bytes, int flags);
  CudaError access(uint64_t ptr, int& flags) const;
  // cuMemRetainAllocationHandle / cuMemGetAllocationPropertiesFromHandle.
  CudaError retain(uint64_t& handle, uint64_t addr);
  const MemAllocationProp* properties(uint64_t handle) const;

 private:
  struct Physical {
    uint64_t bytes = 0;
    MemAllocationProp prop{};
    unsigned references = 1;     // the handle's: cuMemCreate and each cuMemRetainAllocationHandle
    uint64_t mapped_at = 0;      // 0 while not mapped
    std::vector<uint8_t> saved;  // its bytes while unmapped and still held
  };
  struct Mapping {
    uint64_t bytes = 0;
    uint64_t handle = 0;
    int access = kAccessNone;
  };

  // The reservation holding [ptr, ptr + bytes), or m_reservations.end().
  std::map<uint64_t, uint64_t>::const_iterator reservation_of(uint64_t ptr, uint64_t bytes) const;
  // The mappings that exactly tile [ptr, ptr + bytes), first to last; empty when they do not.
  std::vector<std::map<uint64_t, Mapping>::iterator> tiling(uint64_t ptr, uint64_t bytes);
  // Frees an allocation neither held nor mapped.
  void drop_if_unused(std::map<uint64_t, Physical>::iterator p);
  // Places the runs of contiguous accessible mappings of the reservation at `base` as allocations.
  void replace_runs(uint64_t base, uint64_t bytes);

  bool m_compression = false;
  DeviceMemory& m_memory;
  std::map<uint64_t, uint64_t> m_reservations;  // base -> bytes
  std::map<uint64_t, Physical> m_physical;      // handle -> allocation
  std::map<uint64_t, Mapping> m_mappings;       // address -> mapping
  std::map<uint64_t, uint64_t> m_runs;          // placed allocations: base -> bytes
  uint64_t m_next_handle = 1;
};

}  // namespace gputlm::runtime
