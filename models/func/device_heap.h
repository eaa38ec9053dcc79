// The heap of device malloc/free (CUDA programming guide, "Dynamic Global Memory Allocation and
// Operations"): a fixed region of global memory, sized by cudaLimitMallocHeapSize before the first
// launch that uses it, from which malloc hands out blocks and to which free returns them. The
// guide fixes what a program sees: blocks aligned to 16 bytes, NULL when the heap cannot satisfy
// a request, free(NULL) does nothing, memory freed by one kernel is reusable by later ones (the
// heap persists for the context's lifetime). How CUDA places blocks is not documented; this one is
// first fit in address order, with free neighbours merged. Its bookkeeping lives here, not in the
// simulated memory (a kernel that writes past its block cannot corrupt it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

namespace gputlm::func {

class DeviceHeap {
 public:
  static constexpr uint64_t kAlignment = 16;

  // The heap occupies [base, base + bytes); base must be a multiple of kAlignment.
  DeviceHeap(uint64_t base, uint64_t bytes);

  // The address of a block of at least `bytes` bytes (0 counts as 1) aligned to `align` (a power
  // of two; less than kAlignment is kAlignment), or 0 when no free range fits it or `align` is not
  // a power of two.
  uint64_t allocate(uint64_t bytes, uint64_t align = kAlignment);
  // Returns the block that starts at `address` to the heap; false when no block starts there
  // (never allocated, or freed already).
  bool release(uint64_t address);

  uint64_t base() const { return m_base; }
  uint64_t bytes() const { return m_bytes; }
  uint64_t bytes_in_use() const { return m_in_use; }
  size_t blocks() const { return m_used.size(); }

 private:
  void add_free(uint64_t start, uint64_t bytes);  // merges with free neighbours

  uint64_t m_base, m_bytes, m_in_use = 0;
  std::map<uint64_t, uint64_t> m_free;  // start -> bytes, no two adjacent
  std::map<uint64_t, uint64_t> m_used;  // block start -> bytes
};

}  // namespace gputlm::func
