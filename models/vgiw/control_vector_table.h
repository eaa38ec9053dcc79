// The control vector table of the VGIW core (Voitsechov & Etsion, Sec. 3.3): per basic block a
// bit vector indexed by thread ID (of the tile in flight), bit set = the thread executes that
// block next. It delivers 64-bit words from 8 banks (word w of every block lives in bank
// w mod 8). A read resets the word it returns (read-and-reset, saving a write port); an update
// ORs a word in, since several control flows may reach one block. Plain C++: the basic-block
// scheduler module owns one and charges its bank accesses.
#pragma once

#include <cstdint>
#include <vector>

#include "models/vgiw/thread_batch.h"

namespace gputlm::vgiw {

class ControlVectorTable {
 public:
  static constexpr uint32_t kWordBits = 64;

  // `threads`: the tile's threads (at most 65536: batch bases are 16 bits).
  ControlVectorTable(uint32_t blocks, uint32_t threads, uint32_t banks = 8);

  uint32_t blocks() const { return m_blocks; }
  uint32_t threads() const { return m_threads; }
  uint32_t words() const { return m_words; }  // per block
  uint32_t bank_of(uint32_t word) const { return word % m_banks; }

  // Returns the word and clears it.
  uint64_t read_and_reset(uint32_t block, uint32_t word);
  // ORs `bits` into the word.
  void or_update(uint32_t block, uint32_t word, uint64_t bits);
  // ORs a batch from a terminator in (one word, or two if its base is not 64-aligned).
  void or_batch(uint32_t block, const ThreadBatch& batch);
  // Sets the bits of threads [0, n): the runtime starting a tile at the entry block.
  void set_first(uint32_t block, uint32_t n);

  // The next batch of `block` at or after word `*cursor` (read and reset), moving the cursor past
  // it; an empty batch when no word from the cursor on has a thread.
  ThreadBatch next_batch(uint32_t block, uint32_t* cursor);
  bool empty(uint32_t block) const { return m_pending[block] == 0; }
  uint64_t pending(uint32_t block) const { return m_pending[block]; }
  // The basic-block scheduler's rule (Sec. 3.1): the smallest block ID whose vector is not empty,
  // or -1 when every vector is empty (the tile is done).
  int first_nonempty() const;

  uint64_t reads() const { return m_reads; }
  uint64_t updates() const { return m_updates; }
  const std::vector<uint64_t>& bank_accesses() const { return m_bank_accesses; }

 private:
  uint64_t& at(uint32_t block, uint32_t word);

  uint32_t m_blocks, m_threads, m_banks, m_words;
  std::vector<uint64_t> m_bits;     // block-major, m_words per block
  std::vector<uint64_t> m_pending;  // threads set per block
  uint64_t m_reads = 0, m_updates = 0;
  std::vector<uint64_t> m_bank_accesses;
};

// Threads a tile may hold (Sec. 3.2: the CVT's size bounds the live threads, "tile size = CVT
// size / (#basic blocks x #CUDA threads)", read here as the share of the launch's threads a tile
// takes): a vector per block must fit, so cvt_bits / blocks, in whole 64-bit words, at most the
// launch's threads. Throws std::invalid_argument if not even one word per block fits.
uint32_t tile_threads(uint64_t cvt_bits, uint32_t blocks, uint64_t launch_threads);

}  // namespace gputlm::vgiw
