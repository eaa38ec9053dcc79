// Fixed-width lane masks for 32-lane warps and helpers to walk their set bits.
#pragma once

#include <cstdint>

namespace gputlm {

using LaneMask = uint32_t;
constexpr unsigned kWarpSize = 32;
constexpr LaneMask kFullMask = 0xFFFFFFFFu;

inline unsigned popcount(LaneMask m) { return static_cast<unsigned>(__builtin_popcount(m)); }
inline unsigned lowest_lane(LaneMask m) { return static_cast<unsigned>(__builtin_ctz(m)); }
// Mask of the first n lanes (n <= 32).
inline LaneMask first_lanes(unsigned n) { return n >= 32 ? kFullMask : ((1u << n) - 1); }

// Calls f(lane) for each set lane, lowest first.
template <class F>
inline void for_each_lane(LaneMask m, F&& f) {
  for (; m; m &= m - 1) f(lowest_lane(m));
}

}  // namespace gputlm
