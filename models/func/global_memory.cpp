#include "models/func/global_memory.h"

#include <algorithm>
#include <cstring>

namespace gputlm::func {

uint64_t GlobalMemory::allocate(uint64_t bytes, const std::string& name) {
  const uint64_t base = m_next;
  m_allocs.push_back({base, bytes, name});
  m_last = nullptr;
  m_next = (base + std::max<uint64_t>(bytes, 1) + 4096 + 255) / 256 * 256;
  return base;
}

const Allocation* GlobalMemory::find(uint64_t addr, uint64_t bytes) const {
  auto inside = [&](const Allocation* a) { return a && addr >= a->base && addr - a->base + bytes <= a->size && addr + bytes >= addr; };
  if (inside(m_last)) return m_last;
  auto it = std::upper_bound(m_allocs.begin(), m_allocs.end(), addr,
                             [](uint64_t v, const Allocation& a) { return v < a.base; });
  if (it == m_allocs.begin()) return nullptr;
  const Allocation* a = &*(it - 1);
  if (!inside(a)) return nullptr;
  m_last = a;
  return a;
}

uint8_t* GlobalMemory::page(uint64_t addr) {
  const uint64_t no = addr >> kPageBits;
  if (no == m_last_page_no) return m_last_page;
  auto& p = m_pages[no];
  if (!p) {
    p = std::make_unique<uint8_t[]>(kPageSize);
    std::memset(p.get(), 0, kPageSize);
  }
  m_last_page_no = no;
  m_last_page = p.get();
  return m_last_page;
}

const uint8_t* GlobalMemory::page_if_present(uint64_t addr) const {
  auto it = m_pages.find(addr >> kPageBits);
  return it == m_pages.end() ? nullptr : it->second.get();
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (bytes > 0) {
    const uint64_t off = addr & (kPageSize - 1);
    const uint64_t n = std::min(bytes, kPageSize - off);
    const uint8_t* p = page_if_present(addr);
    if (p) std::memcpy(out, p + off, n);
    else std::memset(out, 0, n);
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
