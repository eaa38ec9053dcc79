// A set of registers as a bit vector (bit r of word r / 64), for the dataflow analyses over a
// kernel's registers (cfg.cpp's liveness, register_slots.cpp's interference).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gputlm::isa {

using RegSet = std::vector<uint64_t>;

inline void set_bit(RegSet& s, int32_t r) { s[size_t(r >> 6)] |= 1ull << (r & 63); }
inline void clear_bit(RegSet& s, int32_t r) { s[size_t(r >> 6)] &= ~(1ull << (r & 63)); }
inline bool test_bit(const RegSet& s, int32_t r) { return (s[size_t(r >> 6)] >> (r & 63)) & 1; }
// Calls f(r) for every register r of the `words` words at `bits`, in increasing order.
template <typename F>
void for_each_bit(const uint64_t* bits, size_t words, F f) {
  for (size_t w = 0; w < words; ++w)
    for (uint64_t b = bits[w]; b; b &= b - 1)
      f(static_cast<int32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(b))));
}
inline std::vector<int32_t> to_list(const RegSet& s) {
  std::vector<int32_t> out;
  for_each_bit(s.data(), s.size(), [&](int32_t r) { out.push_back(r); });
  return out;
}

}  // namespace gputlm::isa
