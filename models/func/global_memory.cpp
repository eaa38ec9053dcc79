#include "models/func/global_memory.h"

#include <algorithm>
#include <cstring>

namespace gputlm::func {

uint64_t GlobalMemory::take(uint64_t bytes, uint64_t align) {
  const uint64_t need = span(bytes);
  auto aligned = [&](uint64_t a) { return (a + align - 1) & ~(align - 1); };
  auto fit = std::find_if(m_released.begin(), m_released.end(), [&](const auto& r) {
    return aligned(r.first) + need <= r.first + r.second;
  });
  uint64_t base = aligned(m_next);
  if (fit != m_released.end()) {
    const uint64_t start = fit->first, end = fit->first + fit->second;
    base = aligned(start);
    m_released.erase(fit);
    if (base > start) m_released[start] = base - start;
    if (end > base + need) m_released[base + need] = end - base - need;
  } else {
    if (base > m_next) m_released[m_next] = base - m_next;
    m_next = base + need;
  }
  return base;
}

void GlobalMemory::give_back(uint64_t start, uint64_t bytes) {
  bytes = span(bytes);
  auto next = m_released.find(start + bytes);
  if (next != m_released.end()) {
    bytes += next->second;
    m_released.erase(next);
  }
  auto prev = m_released.lower_bound(start);
  if (prev != m_released.begin() && std::prev(prev)->first + std::prev(prev)->second == start) {
    --prev;
    start = prev->first;
    bytes += prev->second;
  }
  m_released[start] = bytes;
}

void GlobalMemory::insert(const Allocation& a) {
  auto at = std::upper_bound(m_allocs.begin(), m_allocs.end(), a.base,
                             [](uint64_t v, const Allocation& x) { return v < x.base; });
  m_allocs.insert(at, a);
  m_last = nullptr;
}

uint64_t GlobalMemory::allocate(uint64_t bytes, const std::string& name, uint64_t align) {
  const uint64_t base = take(bytes, align);
  insert({base, bytes, name});
  return base;
}

bool GlobalMemory::release(uint64_t base) {
  auto it = std::lower_bound(m_allocs.begin(), m_allocs.end(), base,
                             [](const Allocation& a, uint64_t v) { return a.base < v; });
  if (it == m_allocs.end() || it->base != base || it->placed) return false;
  const uint64_t bytes = it->size;
  m_allocs.erase(it);
  m_last = nullptr;
  give_back(base, bytes);
  return true;
}

uint64_t GlobalMemory::reserve(uint64_t bytes, uint64_t align) { return take(bytes, align); }
void GlobalMemory::unreserve(uint64_t base, uint64_t bytes) { give_back(base, bytes); }

void GlobalMemory::place(uint64_t base, uint64_t bytes, const std::string& name) {
  insert({base, bytes, name, true});
}

bool GlobalMemory::unplace(uint64_t base) {
  auto it = std::lower_bound(m_allocs.begin(), m_allocs.end(), base,
                             [](const Allocation& a, uint64_t v) { return a.base < v; });
  if (it == m_allocs.end() || it->base != base || !it->placed) return false;
  m_allocs.erase(it);
  m_last = nullptr;
  return true;
}

const Allocation* GlobalMemory::find(uint64_t addr, uint64_t bytes) const {
  auto inside = [&](const Allocation* a) {
    return a && addr >= a->base && addr - a->base + bytes <= a->size && addr + bytes >= addr;
  };
  if (inside(m_last)) return m_last;
  auto it = std::upper_bound(m_allocs.begin(), m_allocs.end(), addr,
                             [](uint64_t v, const Allocation& a) { return v < a.base; });
  if (it == m_allocs.begin()) return nullptr;
  const Allocation* a = &*(it - 1);
  if (!inside(a)) return nullptr;
  m_last = a;
  return a;
}

void GlobalMemory::reserve_below_heap(uint64_t bytes) {
  bytes = std::min(bytes, kHeapBase);
  m_reserved.emplace_back(kHeapBase - bytes, bytes);
}

bool GlobalMemory::page_mapped(uint64_t start) const {
  const uint64_t end = start + kMappedPageBytes;
  // Allocations do not overlap: the last one starting before the page's end is the only one
  // that can reach into it.
  auto it = std::lower_bound(m_allocs.begin(), m_allocs.end(), end,
                             [](const Allocation& a, uint64_t v) { return a.base < v; });
  if (it != m_allocs.begin() && std::prev(it)->base + std::prev(it)->size > start) return true;
  return std::any_of(m_reserved.begin(), m_reserved.end(),
                     [&](const auto& r) { return r.first < end && r.first + r.second > start; });
}

bool GlobalMemory::mapped(uint64_t addr, uint64_t bytes) const {
  const uint64_t last = addr + std::max<uint64_t>(bytes, 1) - 1;
  if (last < addr) return false;
  for (uint64_t p = addr / kMappedPageBytes; p <= last / kMappedPageBytes; ++p)
    if (!page_mapped(p * kMappedPageBytes)) return false;
  return true;
}

uint8_t* GlobalMemory::page(uint64_t addr) {
  const uint64_t no = addr >> kPageBits;
  PageSlot& slot = m_page_cache[no % kPageCacheSlots];
  if (slot.no == no) return slot.page;
  auto& p = m_pages[no];
  if (!p) {
    p = std::make_unique<uint8_t[]>(kPageSize);
    std::memset(p.get(), 0, kPageSize);
  }
  slot = {no, p.get()};
  return slot.page;
}

const uint8_t* GlobalMemory::page_if_present(uint64_t addr) const {
  const uint64_t no = addr >> kPageBits;
  PageSlot& slot = m_page_cache[no % kPageCacheSlots];
  if (slot.no == no) return slot.page;
  auto it = m_pages.find(no);
  if (it == m_pages.end()) return nullptr;
  slot = {no, it->second.get()};
  return slot.page;
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (bytes > 0) {
    const uint64_t off = addr & (kPageSize - 1);
    const uint64_t n = std::min(bytes, kPageSize - off);
    const uint8_t* p = page_if_present(addr);
    if (p)
      std::memcpy(out, p + off, n);
    else
      std::memset(out, 0, n);
    addr += n;
    out += n;
    bytes -= n;
  }
}

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  const auto* in = static_cast<const uint8_t*>(src);
  while (bytes > 0) {
    const uint64_t off = addr & (kPageSize - 1);
    const uint64_t n = std::min(bytes, kPageSize - off);
    std::memcpy(page(addr) + off, in, n);
    addr += n;
    in += n;
    bytes -= n;
  }
}

}  // namespace gputlm::func
