#include "models/vgiw/control_vector_table.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm::vgiw {

ControlVectorTable::ControlVectorTable(uint32_t blocks, uint32_t threads, uint32_t banks)
    : m_blocks(blocks),
      m_threads(threads),
      m_banks(banks),
      m_words((threads + kWordBits - 1) / kWordBits),
      m_bits(uint64_t{blocks} * m_words, 0),
      m_pending(blocks, 0),
      m_bank_accesses(banks, 0) {
  if (blocks == 0 || banks == 0)
    throw std::invalid_argument("control vector table: needs a block and a bank");
  if (threads > 65536)
    throw std::invalid_argument("control vector table: " + std::to_string(threads) +
                                " threads; batch bases are 16 bits");
}

uint64_t& ControlVectorTable::at(uint32_t block, uint32_t word) {
  if (block >= m_blocks || word >= m_words)
    throw std::out_of_range("control vector table: block " + std::to_string(block) + ", word " +
                            std::to_string(word));
  ++m_bank_accesses[bank_of(word)];
  return m_bits[uint64_t{block} * m_words + word];
}

uint64_t ControlVectorTable::read_and_reset(uint32_t block, uint32_t word) {
  uint64_t& w = at(block, word);
  const uint64_t v = w;
  w = 0;
  m_pending[block] -= static_cast<uint64_t>(__builtin_popcountll(v));
  ++m_reads;
  return v;
}

void ControlVectorTable::or_update(uint32_t block, uint32_t word, uint64_t bits) {
  if (word == m_words - 1 && m_threads % kWordBits)
    bits &= (uint64_t{1} << (m_threads % kWordBits)) - 1;  // no threads past the tile
  uint64_t& w = at(block, word);
  m_pending[block] += static_cast<uint64_t>(__builtin_popcountll(bits & ~w));
  w |= bits;
  ++m_updates;
}

void ControlVectorTable::or_batch(uint32_t block, const ThreadBatch& b) {
  if (b.empty()) return;
  const uint32_t word = b.base / kWordBits, shift = b.base % kWordBits;
  or_update(block, word, b.bitmap << shift);
  if (shift && (b.bitmap >> (kWordBits - shift)))
    or_update(block, word + 1, b.bitmap >> (kWordBits - shift));
}

void ControlVectorTable::set_first(uint32_t block, uint32_t n) {
  for (uint32_t w = 0; w * kWordBits < n; ++w) {
    const uint32_t left = n - w * kWordBits;
    or_update(block, w, left >= kWordBits ? ~uint64_t{0} : (uint64_t{1} << left) - 1);
  }
}

ThreadBatch ControlVectorTable::next_batch(uint32_t block, uint32_t* cursor) {
  if (empty(block)) return {};
  const uint64_t* row = &m_bits[uint64_t{block} * m_words];
  for (uint32_t w = *cursor; w < m_words; ++w) {
    if (!row[w]) continue;
    *cursor = w + 1;
    return ThreadBatch{static_cast<uint16_t>(w * kWordBits), read_and_reset(block, w)};
  }
  *cursor = m_words;
  return {};
}

int ControlVectorTable::first_nonempty() const {
  for (uint32_t b = 0; b < m_blocks; ++b)
    if (m_pending[b]) return static_cast<int>(b);
  return -1;
}

uint32_t tile_threads(uint64_t cvt_bits, uint32_t blocks, uint64_t launch_threads) {
  const uint64_t per_block = cvt_bits / std::max<uint32_t>(blocks, 1) /
                             ControlVectorTable::kWordBits * ControlVectorTable::kWordBits;
  if (per_block == 0)
    throw std::invalid_argument("a control vector table of " + std::to_string(cvt_bits) +
                                " bits cannot hold a 64-thread word for each of " +
                                std::to_string(blocks) + " basic blocks");
  return static_cast<uint32_t>(std::min<uint64_t>({per_block, launch_threads, 65536}));
}

}  // namespace gputlm::vgiw
