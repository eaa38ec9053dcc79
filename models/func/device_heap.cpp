#include "models/func/device_heap.h"

#include <algorithm>
#include <iterator>

namespace gputlm::func {

DeviceHeap::DeviceHeap(uint64_t base, uint64_t bytes)
    : m_base(base), m_bytes(bytes / kAlignment * kAlignment) {
  if (m_bytes) m_free[m_base] = m_bytes;
}

uint64_t DeviceHeap::allocate(uint64_t bytes, uint64_t align) {
  if (align == 0 || (align & (align - 1)) != 0) return 0;
  if (align < kAlignment) align = kAlignment;
  if (bytes > m_bytes) return 0;
  const uint64_t size = (std::max<uint64_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  for (auto it = m_free.begin(); it != m_free.end(); ++it) {
    const uint64_t start = it->first, len = it->second;
    const uint64_t at = (start + align - 1) / align * align;
    if (at - start > len || len - (at - start) < size) continue;
    m_free.erase(it);
    if (at > start) m_free[start] = at - start;  // the part before the block stays free
    if (start + len > at + size)
      m_free[at + size] = start + len - at - size;  // and the part after it
    m_used[at] = size;
    m_in_use += size;
    return at;
  }
  return 0;
}

bool DeviceHeap::release(uint64_t address) {
  auto it = m_used.find(address);
  if (it == m_used.end()) return false;
  m_in_use -= it->second;
  add_free(it->first, it->second);
  m_used.erase(it);
  return true;
}

void DeviceHeap::add_free(uint64_t start, uint64_t bytes) {
  auto next = m_free.lower_bound(start);
  if (next != m_free.end() && start + bytes == next->first) {
    bytes += next->second;
    next = m_free.erase(next);
  }
  if (next != m_free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += bytes;
      return;
    }
  }
  m_free[start] = bytes;
}

}  // namespace gputlm::func
