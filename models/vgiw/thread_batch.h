// Thread batches of the VGIW core (Voitsechov & Etsion, Sec. 3.2): <base thread ID, bitmap>
// packets of a 16-bit thread ID and a 64-bit bitmap, bit i standing for thread base + i. The
// basic-block scheduler sends them to the initiators; terminators send them back, one stream per
// successor block. This is their plain C++ form, with the 80-bit wire packing the paper gives.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gputlm::vgiw {

struct ThreadBatch {
  static constexpr uint32_t kWidth = 64;  // threads a batch can name

  uint16_t base = 0;    // the thread of bit 0
  uint64_t bitmap = 0;  // bit i: thread base + i

  bool empty() const { return bitmap == 0; }
  uint32_t count() const { return static_cast<uint32_t>(__builtin_popcountll(bitmap)); }
  bool contains(uint32_t tid) const {
    return tid >= base && tid - base < kWidth && (bitmap >> (tid - base) & 1);
  }
  // The thread IDs, lowest first.
  std::vector<uint32_t> threads() const;

  // The 80-bit packet: the base in bytes 0-1, the bitmap in bytes 2-9 (little-endian).
  std::array<uint8_t, 10> pack() const;
  static ThreadBatch unpack(const std::array<uint8_t, 10>& packet);

  bool operator==(const ThreadBatch& o) const { return base == o.base && bitmap == o.bitmap; }
};

// A terminator's batches for one destination block (Sec. 3.3, control vector units): threads
// finish out of order, so it keeps a pair of batches; a thread that falls in neither window sends
// the older one (possibly partial) to the scheduler and opens a new window, aligned to 64 threads,
// for it. flush() sends what is left when the block's threads are done.
class BatchCollector {
 public:
  // Adds `tid`; returns the batch it pushed out, if any (empty otherwise).
  ThreadBatch add(uint32_t tid);
  // The batches still held, oldest first; the collector is empty afterwards.
  std::vector<ThreadBatch> flush();

 private:
  std::array<ThreadBatch, 2> m_pair{};
  std::array<bool, 2> m_open{{false, false}};
  uint32_t m_older = 0;  // index of the older open batch
};

}  // namespace gputlm::vgiw
