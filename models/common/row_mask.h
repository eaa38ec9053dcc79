// A two-dimensional active mask for large warps (Narasiman dissertation Sec. 4.2.1, Fig. 4.2):
// row r, column c is thread r * 32 + c of the warp; the columns are the SIMD lanes, so a thread
// always sits in its home column. Up to 32 rows (a 1024-thread warp). Supports the operations
// SimtStack needs, so a large warp's divergence stack is a SimtStack<RowMask>.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "models/common/lane_mask.h"

namespace gputlm {

struct RowMask {
  static constexpr unsigned kMaxRows = 32;
  std::array<LaneMask, kMaxRows> row{};

  // Threads 0..n-1.
  static RowMask first(uint32_t n) {
    RowMask m;
    for (unsigned r = 0; r < kMaxRows && n > 0; ++r, n -= std::min<uint32_t>(n, kWarpSize))
      m.row[r] = first_lanes(n);
    return m;
  }
  bool test(uint32_t t) const { return (row[t / kWarpSize] >> (t % kWarpSize)) & 1u; }
  void set(uint32_t t) { row[t / kWarpSize] |= 1u << (t % kWarpSize); }
  void reset(uint32_t t) { row[t / kWarpSize] &= ~(1u << (t % kWarpSize)); }
  uint32_t count() const {
    uint32_t n = 0;
    for (LaneMask m : row) n += popcount(m);
    return n;
  }
  // The columns (lanes) in which some row has a thread.
  LaneMask columns() const {
    LaneMask m = 0;
    for (LaneMask r : row) m |= r;
    return m;
  }
  explicit operator bool() const {
    for (LaneMask m : row)
      if (m) return true;
    return false;
  }
  bool operator!() const { return !static_cast<bool>(*this); }
  bool operator==(const RowMask& o) const { return row == o.row; }
  RowMask operator~() const {
    RowMask m;
    for (unsigned r = 0; r < kMaxRows; ++r) m.row[r] = ~row[r];
    return m;
  }
  RowMask& operator&=(const RowMask& o) {
    for (unsigned r = 0; r < kMaxRows; ++r) row[r] &= o.row[r];
    return *this;
  }
  RowMask& operator|=(const RowMask& o) {
    for (unsigned r = 0; r < kMaxRows; ++r) row[r] |= o.row[r];
    return *this;
  }
  friend RowMask operator&(RowMask a, const RowMask& b) { return a &= b; }
  friend RowMask operator|(RowMask a, const RowMask& b) { return a |= b; }
};

}  // namespace gputlm
