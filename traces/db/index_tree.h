// The search tree of db/index_* as arithmetic, shared by its generator and its reference
// (../index_kernels.cuh has the layout). A tree of L row-buffer levels holds T(0) keys, where a
// node's subtree at level l has T(l) = 960 + 961 T(l+1) keys (T(L) = 0) and the subtree under one
// of its lines 1-31 has U(l) = 30 + 31 T(l+1). The key of in-order rank r is key(r), evenly
// spread below 0xFFFFFFFF with gaps of 4 or 5 (a lookup's path depends only on ranks, so spread
// keys search like random ones; a value key(r) + 1 is absent).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gputlm::db_index {

constexpr uint32_t kNodeWords = 1024, kLineWords = 32, kLineKeys = 30, kFanout = 961;
constexpr uint32_t kPad = 0xFFFFFFFFu;
constexpr uint64_t kKeySpan = 0xFFFFFFFEull;  // keys are below this

class Tree {
 public:
  explicit Tree(int levels) : m_levels(levels), m_sub(static_cast<size_t>(levels) + 1, 0) {
    for (int l = levels - 1; l >= 0; --l)
      m_sub[static_cast<size_t>(l)] = 960 + 961 * m_sub[static_cast<size_t>(l) + 1];
    uint64_t at_level = 1;
    for (int l = 0; l < levels; ++l, at_level *= kFanout) m_nodes += at_level;
  }
  int levels() const { return m_levels; }
  uint64_t nodes() const { return m_nodes; }
  uint64_t keys() const { return m_sub[0]; }
  uint32_t key(uint64_t rank) const {
    return static_cast<uint32_t>((rank + 1) * kKeySpan / (keys() + 1));
  }
  // The rank of `value`, or -1 when it is not a key.
  int64_t rank_of(uint32_t value) const {
    const uint64_t guess = uint64_t{value} * (keys() + 1) / kKeySpan;
    for (uint64_t r = guess > 0 ? guess - 1 : 0; r <= guess + 1 && r < keys(); ++r)
      if (key(r) == value) return static_cast<int64_t>(r);
    return -1;
  }

  // The 1024 words of node `n` at level `l` whose subtree starts at rank `base`.
  std::vector<uint32_t> node_words(int l, uint64_t base) const {
    std::vector<uint32_t> w(kNodeWords, kPad);
    const uint64_t u = lines_below(l), t = sub(l + 1);
    for (uint32_t c = 0; c < kLineKeys; ++c) w[c] = key(base + (c + 1) * u + c);
    for (uint32_t j = 1; j <= 31; ++j) {
      const uint64_t b = base + (j - 1) * (u + 1);
      for (uint32_t c = 0; c < kLineKeys; ++c) w[j * kLineWords + c] = key(b + (c + 1) * t + c);
    }
    return w;
  }

  // Where the key of rank `r` lives: its word index in the tree, by rank arithmetic alone.
  uint64_t position(uint64_t r) const {
    uint64_t n = 0, off = r;  // node, and r's offset in that node's subtree
    for (int l = 0; l < m_levels; ++l) {
      const uint64_t u = lines_below(l), t = sub(l + 1);
      const uint64_t j0 = off / (u + 1), rem = off % (u + 1);
      if (rem == u) return n * kNodeWords + j0;  // key j0 of line 0
      const uint64_t c = rem / (t + 1), rem2 = rem % (t + 1);
      if (rem2 == t) return n * kNodeWords + (j0 + 1) * kLineWords + c;  // key c of line j0 + 1
      n = n * kFanout + 1 + j0 * 31 + c;
      off = rem2;
    }
    return ~uint64_t{0};  // not reached for r < keys()
  }

  uint64_t sub(int l) const { return m_sub[static_cast<size_t>(l)]; }
  uint64_t lines_below(int l) const { return kLineKeys + 31 * sub(l + 1); }

 private:
  int m_levels;
  std::vector<uint64_t> m_sub;  // T(l)
  uint64_t m_nodes = 0;
};

}  // namespace gputlm::db_index
