#include "runtime/virtual_memory.h"

#include <algorithm>
#include <iterator>

#include "runtime/api_support.h"

namespace gputlm::runtime {

namespace {
bool granular(uint64_t v) { return v % VirtualMemory::kGranularity == 0; }
}  // namespace

CudaError VirtualMemory::reserve(uint64_t& ptr, uint64_t bytes, uint64_t alignment) {
  // cuda.h: the size a multiple of the host page size, the alignment a power of two or 0. A
  // reservation starts on a granule, as the driver places them.
  if (bytes == 0 || bytes % 4096 != 0 || (alignment & (alignment - 1)) != 0)
    return kErrorInvalidValue;
  ptr = m_memory.global().reserve(bytes, alignment > kGranularity ? alignment : kGranularity);
  m_reservations[ptr] = bytes;
  return kSuccess;
}

// cuda.h: ptr and size must be those of the reservation. A reservation that still holds mappings
// is refused (CUDA_ERROR_INVALID_VALUE; the documentation does not say).
CudaError VirtualMemory::free_reservation(uint64_t ptr, uint64_t bytes) {
  const auto r = m_reservations.find(ptr);
  if (r == m_reservations.end() || r->second != bytes) return kErrorInvalidValue;
  const auto m = m_mappings.lower_bound(ptr);
  if (m != m_mappings.end() && m->first < ptr + bytes) return kErrorInvalidValue;
  m_memory.global().unreserve(ptr, bytes);
  m_reservations.erase(r);
  return kSuccess;
}

// cuda.h: the size a multiple of the minimum granularity.
CudaError VirtualMemory::create(uint64_t& handle, uint64_t bytes, const MemAllocationProp& prop) {
  if (bytes == 0 || !granular(bytes)) return kErrorInvalidValue;
  if (!m_memory.charge(bytes)) return kErrorMemoryAllocation;
  handle = m_next_handle++;
  Physical& p = m_physical[handle];
  p.bytes = bytes;
  p.prop = prop;
  if (!m_compression)
    p.prop.allocFlags.compressionType = kCompressionNone;  // no compressible memory on this device
  return kSuccess;
}

// cuda.h: freed once unmapped everywhere and every reference released.
CudaError VirtualMemory::release(uint64_t handle) {
  const auto p = m_physical.find(handle);
  if (p == m_physical.end() || p->second.references == 0) return kErrorInvalidValue;
  --p->second.references;
  drop_if_unused(p);
  return kSuccess;
}

void VirtualMemory::drop_if_unused(std::map<uint64_t, Physical>::iterator p) {
  if (p->second.references != 0 || p->second.mapped_at != 0) return;
  m_memory.uncharge(p->second.bytes);
  m_physical.erase(p);
}

std::map<uint64_t, uint64_t>::const_iterator VirtualMemory::reservation_of(uint64_t ptr,
                                                                           uint64_t bytes) const {
  auto r = m_reservations.upper_bound(ptr);
  if (r == m_reservations.begin()) return m_reservations.end();
  --r;
  return ptr + bytes <= r->first + r->second && ptr + bytes > ptr ? r : m_reservations.end();
}

// cuda.h: ptr, size and offset multiples of the granularity, offset currently zero, offset + size
// within the allocation, the range inside a reservation and not mapped.
CudaError VirtualMemory::map(uint64_t ptr, uint64_t bytes, uint64_t offset, uint64_t handle) {
  const auto p = m_physical.find(handle);
  if (p == m_physical.end() || p->second.references == 0) return kErrorInvalidValue;
  if (bytes == 0 || !granular(ptr) || !granular(bytes) || offset != 0 || bytes > p->second.bytes)
    return kErrorInvalidValue;
  if (reservation_of(ptr, bytes) == m_reservations.end()) return kErrorInvalidValue;
  const auto next = m_mappings.lower_bound(ptr);
  if (next != m_mappings.end() && next->first < ptr + bytes) return kErrorInvalidValue;
  if (next != m_mappings.begin() && std::prev(next)->first + std::prev(next)->second.bytes > ptr)
    return kErrorInvalidValue;
  if (p->second.mapped_at != 0)
    not_implemented("cuMemMap of an allocation already mapped at another address (aliases)");
  p->second.mapped_at = ptr;
  m_mappings[ptr] = {bytes, handle, kAccessNone};
  std::vector<uint8_t>& saved = p->second.saved;
  if (!saved.empty())
    m_memory.global().write(ptr, saved.data(), std::min<uint64_t>(bytes, saved.size()));
  saved = {};
  return kSuccess;
}

std::vector<std::map<uint64_t, VirtualMemory::Mapping>::iterator> VirtualMemory::tiling(
    uint64_t ptr, uint64_t bytes) {
  std::vector<std::map<uint64_t, Mapping>::iterator> out;
  uint64_t at = ptr;
  for (auto m = m_mappings.find(ptr); m != m_mappings.end() && m->first == at && at < ptr + bytes;
       ++m) {
    out.push_back(m);
    at += m->second.bytes;
  }
  if (at != ptr + bytes || bytes == 0) out.clear();
  return out;
}

// cuda.h: the range must be whole mappings; an allocation neither mapped nor held is freed.
CudaError VirtualMemory::unmap(uint64_t ptr, uint64_t bytes) {
  const auto mappings = tiling(ptr, bytes);
  if (mappings.empty()) return kErrorInvalidValue;
  const auto r = reservation_of(ptr, bytes);
  for (const auto& m : mappings) {
    const auto p = m_physical.find(m->second.handle);
    if (p->second.references != 0) {
      p->second.saved.resize(m->second.bytes);
      m_memory.global().read(m->first, p->second.saved.data(), m->second.bytes);
    }
    p->second.mapped_at = 0;
    drop_if_unused(p);
    m_mappings.erase(m);
  }
  replace_runs(r->first, r->second);
  return kSuccess;
}

// cuda.h: the range must be fully mapped, whole mappings.
CudaError VirtualMemory::set_access(uint64_t ptr, uint64_t bytes, int flags) {
  const auto mappings = tiling(ptr, bytes);
  if (mappings.empty()) return kErrorInvalidValue;
  for (const auto& m : mappings) m->second.access = flags;
  const auto r = reservation_of(ptr, bytes);
  replace_runs(r->first, r->second);
  return kSuccess;
}

void VirtualMemory::replace_runs(uint64_t base, uint64_t bytes) {
  func::GlobalMemory& g = m_memory.global();
  for (auto run = m_runs.lower_bound(base); run != m_runs.end() && run->first < base + bytes;
       run = m_runs.erase(run))
    g.unplace(run->first);
  uint64_t start = 0, end = 0;
  auto flush = [&] {
    if (end > start) {
      g.place(start, end - start, "cuMemMap");
      m_runs[start] = end - start;
    }
    start = end = 0;
  };
  for (auto m = m_mappings.lower_bound(base); m != m_mappings.end() && m->first < base + bytes;
       ++m) {
    if (m->second.access != kAccessReadWrite) {
      flush();
      continue;
    }
    if (m->first != end) flush();
    if (end == 0) start = m->first;
    end = m->first + m->second.bytes;
  }
  flush();
}

CudaError VirtualMemory::access(uint64_t ptr, int& flags) const {
  auto m = m_mappings.upper_bound(ptr);
  if (m == m_mappings.begin() || ptr >= std::prev(m)->first + std::prev(m)->second.bytes)
    return kErrorInvalidValue;
  flags = std::prev(m)->second.access;
  return kSuccess;
}

CudaError VirtualMemory::retain(uint64_t& handle, uint64_t addr) {
  auto m = m_mappings.upper_bound(addr);
  if (m == m_mappings.begin() || addr >= std::prev(m)->first + std::prev(m)->second.bytes)
    return kErrorInvalidValue;
  handle = std::prev(m)->second.handle;
  ++m_physical.at(handle).references;
  return kSuccess;
}

const MemAllocationProp* VirtualMemory::properties(uint64_t handle) const {
  const auto p = m_physical.find(handle);
  return p == m_physical.end() || p->second.references == 0 ? nullptr : &p->second.prop;
}

}  // namespace gputlm::runtime
