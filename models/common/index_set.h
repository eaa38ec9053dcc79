// A set of small indices as a bit set (one bit an index, 64 to a word): the fetch stage's eligible
// warps as the scheduler sees them (sm::SlotSet), the crossbar's ports with something to do.
// Finding the first member at or after an index is a few word operations, so round-robin picks
// cost O(size / 64), not a walk over a list; for_each visits the members in ascending order and
// may erase the one it is given.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace gputlm {

class IndexSet {
 public:
  static constexpr uint32_t kNone = ~0u;

  IndexSet() = default;
  explicit IndexSet(uint32_t slots) : m_words((slots + 63) / 64, 0) {}
  IndexSet(std::initializer_list<uint32_t> members) {  // for tests: grows to hold the members
    for (uint32_t s : members) insert(s);
  }

  void insert(uint32_t s) {
    if (s / 64 >= m_words.size()) m_words.resize(s / 64 + 1, 0);
    m_words[s / 64] |= bit(s);
  }
  void erase(uint32_t s) {
    if (s / 64 < m_words.size()) m_words[s / 64] &= ~bit(s);
  }
  bool contains(uint32_t s) const { return s / 64 < m_words.size() && (m_words[s / 64] & bit(s)); }
  bool empty() const {
    for (uint64_t w : m_words)
      if (w) return false;
    return true;
  }
  // The first member in [from, to), or kNone.
  uint32_t first_in(uint32_t from, uint32_t to) const {
    for (uint32_t i = from / 64; i < m_words.size() && i * 64 < to; ++i) {
      uint64_t w = m_words[i];
      if (i == from / 64) w &= ~0ull << (from % 64);
      if (!w) continue;
      const uint32_t s = i * 64 + static_cast<uint32_t>(__builtin_ctzll(w));
      return s < to ? s : kNone;
    }
    return kNone;
  }
  // Round-robin over [from, to): the first member at or after `start` (taken as `from` when
  // outside the range), else the first from `from`; kNone if none.
  uint32_t first_from(uint32_t start, uint32_t from, uint32_t to) const {
    if (start < from || start >= to) start = from;
    const uint32_t s = first_in(start, to);
    return s != kNone ? s : first_in(from, start);
  }
  template <typename F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < m_words.size(); ++i)
      for (uint64_t w = m_words[i]; w; w &= w - 1)
        f(static_cast<uint32_t>(i * 64 + static_cast<size_t>(__builtin_ctzll(w))));
  }
  std::vector<uint64_t>& words() { return m_words; }
  const std::vector<uint64_t>& words() const { return m_words; }

 private:
  static uint64_t bit(uint32_t s) { return 1ull << (s % 64); }
  std::vector<uint64_t> m_words;
};

}  // namespace gputlm
