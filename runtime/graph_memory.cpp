#include "runtime/graph_memory.h"

#include <algorithm>

namespace gputlm::runtime {

std::shared_ptr<GraphAllocation> GraphMemory::reserve(uint64_t bytes) {
  const uint64_t address = m_memory.allocate(bytes, false);
  if (!address) return nullptr;
  m_entries[address] = {bytes, false, true};
  return std::shared_ptr<GraphAllocation>(new GraphAllocation{address, bytes},
                                          [this](GraphAllocation* a) {
                                            unreference(a->address);
                                            delete a;
                                          });
}

CudaError GraphMemory::allocate(const GraphAllocation& a) {
  Entry& e = m_entries.at(a.address);
  if (e.allocated) return kErrorInvalidValue;
  e.allocated = true;
  m_used += e.bytes;
  m_reserved = std::max(m_reserved, m_used);
  m_used_high = std::max(m_used_high, m_reserved);
  m_reserved_high = std::max(m_reserved_high, m_reserved);
  return kSuccess;
}

CudaError GraphMemory::free(uint64_t address) {
  auto it = m_entries.find(address);
  if (it == m_entries.end() || !it->second.allocated) return kErrorInvalidValue;
  it->second.allocated = false;
  m_used -= it->second.bytes;
  if (!it->second.referenced) {
    m_memory.free(address);
    m_entries.erase(it);
  }
  return kSuccess;
}

void GraphMemory::unreference(uint64_t address) {
  auto it = m_entries.find(address);
  if (it == m_entries.end()) return;
  it->second.referenced = false;
  if (it->second.allocated) return;  // stays until freed
  m_memory.free(address);
  m_entries.erase(it);
}

uint64_t GraphMemory::attribute(GraphMemAttribute a) const {
  switch (a) {
    case kUsedMemCurrent:
    case kReservedMemCurrent:
      return m_reserved;
    case kUsedMemHigh:
      return m_used_high;
    case kReservedMemHigh:
      return m_reserved_high;
  }
  return 0;
}

void GraphMemory::reset_high(GraphMemAttribute a) {
  if (a == kUsedMemHigh) m_used_high = m_reserved;
  if (a == kReservedMemHigh) m_reserved_high = m_reserved;
}

}  // namespace gputlm::runtime
