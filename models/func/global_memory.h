// Global memory of the functional engine: a sparse, paged 64-bit address space holding the
// values of every allocation. Pages (64KB) appear on first touch, zero-filled. Only addresses
// inside an allocation are valid for kernels; the rest is a fault. The timing model never holds
// values: it carries addresses and this store stays the owner of data (docs/design/architecture.md
// "What the model is").
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gputlm::func {

struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0;
  std::string name;
  bool placed = false;  // made by place() (a mapping inside a reservation), not by allocate()
};

class GlobalMemory {
 public:
  static constexpr uint64_t kPageBits = 16;
  static constexpr uint64_t kPageSize = 1ull << kPageBits;
  // First allocation address: well above 0 so that null and small pointers fault.
  static constexpr uint64_t kHeapBase = 0x10000000ull;

  // Reserves `bytes` (aligned to `align` bytes, a power of two of at least 256, and followed by an
  // unmapped guard gap of at least 4KB so an overrun faults instead of reaching the next buffer).
  // Returns the device address: in the first released range that holds it, else at the next
  // address never handed out.
  uint64_t allocate(uint64_t bytes, const std::string& name, uint64_t align = 256);
  // Ends the allocation starting at `base`: its range (with its guard gap) may be handed out again
  // by a later allocate(), and its pages keep their data, as a GPU's memory does. False when `base`
  // is no live allocation's start.
  bool release(uint64_t base);
  // Address space without an allocation (the CUDA driver's cuMemAddressReserve): `bytes` aligned
  // to `align`, taken as allocate() takes it, so no allocation lands there, but nothing in it is
  // valid for kernels until place() puts an allocation there. unreserve() hands it back.
  uint64_t reserve(uint64_t bytes, uint64_t align);
  void unreserve(uint64_t base, uint64_t bytes);
  // An allocation at `base` (inside a reserve()d range, overlapping no other allocation: the
  // caller's to ensure) and its end; the address space stays reserved. unplace() is false when
  // `base` is no placed allocation's start. release() refuses placed allocations.
  void place(uint64_t base, uint64_t bytes, const std::string& name);
  bool unplace(uint64_t base);
  // The allocation holding [addr, addr + bytes), or nullptr.
  const Allocation* find(uint64_t addr, uint64_t bytes) const;

  // A GPU maps device memory in large pages (2 MB) and hands out allocations inside them, so an
  // access just outside an allocation usually reaches mapped memory (memory_check.h).
  static constexpr uint64_t kMappedPageBytes = uint64_t{2} << 20;
  // Whether every byte of [addr, addr + bytes) is in a 2 MB page holding part of a live
  // allocation or of a reservation.
  bool mapped(uint64_t addr, uint64_t bytes) const;
  // Maps the `bytes` just below kHeapBase, where no allocation goes: memory the CUDA driver keeps
  // for itself when it makes a context, before the program's first buffer (which stays at
  // kHeapBase, so a program's addresses are those of the same kernels run as workloads).
  void reserve_below_heap(uint64_t bytes);
  const std::vector<Allocation>& allocations() const { return m_allocs; }

  // Raw access with no allocation check (host side, and device side after find()).
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void write(uint64_t addr, const void* src, uint64_t bytes);
  // Device-side pointer to `addr` for an access that does not cross a 64KB page (any naturally
  // aligned access of up to 16 bytes); the page is mapped on first touch.
  uint8_t* device_ptr(uint64_t addr) {
    const uint64_t no = addr >> kPageBits;
    const PageSlot& s = m_page_cache[no % kPageCacheSlots];
    return (s.no == no ? s.page : page(addr)) + (addr & (kPageSize - 1));
  }

 private:
  uint8_t* page(uint64_t addr);
  // The first free range of span(bytes) aligned to `align` (taken), and its return.
  uint64_t take(uint64_t bytes, uint64_t align);
  void give_back(uint64_t base, uint64_t bytes);
  void insert(const Allocation& a);
  const uint8_t* page_if_present(uint64_t addr) const;

  static uint64_t span(uint64_t bytes) {
    return (std::max<uint64_t>(bytes, 1) + 4096 + 255) / 256 * 256;
  }

  bool page_mapped(uint64_t page_start) const;

  std::vector<Allocation> m_allocs;                       // sorted by base
  std::vector<std::pair<uint64_t, uint64_t>> m_reserved;  // reserve_below_heap(): base, bytes
  uint64_t m_next = kHeapBase;
  std::map<uint64_t, uint64_t> m_released;  // released ranges: base -> bytes (adjacent ones merged)
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> m_pages;
  mutable const Allocation* m_last = nullptr;
  // Recently touched pages, direct-mapped by page number (pages are never unmapped), so that a
  // kernel streaming through a few arrays finds each one's page without a hash lookup.
  struct PageSlot {
    uint64_t no = ~0ull;
    uint8_t* page = nullptr;
  };
  static constexpr unsigned kPageCacheSlots = 16;
  mutable PageSlot m_page_cache[kPageCacheSlots];
};

}  // namespace gputlm::func
