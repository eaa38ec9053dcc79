// The sub-warp former of the Large Warp Microarchitecture (Narasiman dissertation Sec. 4.2.1,
// MICRO 2011 Sec. 3.2, Fig. 7), as pure functions over a large warp's two-dimensional mask of the
// threads still to be packed: no SystemC, unit-tested on the paper's example.
#pragma once

#include <array>
#include <cstdint>

#include "models/common/row_mask.h"

namespace gputlm::sm {

struct SubWarp {
  RowMask pick;                              // the threads packed (cleared from the mask copy)
  LaneMask lanes = 0;                        // the lanes they occupy
  std::array<uint16_t, kWarpSize> thread{};  // per lane: the thread's index in the large warp
};

// "Each cycle, the hardware searches each column of the active mask in parallel for an active
// thread": per column the lowest row of `cand` (rows 0..rows-1); a thread stays in its column
// (one register-file bank per lane). With `any_lane` (the perfect register file), lanes still
// empty then take further threads of `cand`, lowest thread first into the lowest free lane.
inline SubWarp pick_per_column(const RowMask& cand, uint32_t rows, bool any_lane) {
  SubWarp s;
  LaneMask free = kFullMask;
  for (uint32_t r = 0; r < rows && free; ++r) {
    const LaneMask p = cand.row[r] & free;
    s.pick.row[r] = p;
    for_each_lane(p, [&](unsigned c) { s.thread[c] = static_cast<uint16_t>(r * kWarpSize + c); });
    free &= ~p;
  }
  for (uint32_t r = 0; any_lane && r < rows && free; ++r) {
    for_each_lane(cand.row[r] & ~s.pick.row[r], [&](unsigned c) {
      if (!free) return;
      const unsigned lane = lowest_lane(free);
      s.pick.row[r] |= 1u << c;
      s.thread[lane] = static_cast<uint16_t>(r * kWarpSize + c);
      free &= ~(1u << lane);
    });
  }
  s.lanes = ~free;
  return s;
}

// One row as a sub-warp (no packing: the memory divergence optimisation, warp-collective
// instructions): the threads of `cand` in row `r`.
inline SubWarp pick_row(const RowMask& cand, uint32_t r) {
  SubWarp s;
  s.pick.row[r] = cand.row[r];
  s.lanes = cand.row[r];
  for_each_lane(s.lanes,
                [&](unsigned c) { s.thread[c] = static_cast<uint16_t>(r * kWarpSize + c); });
  return s;
}

}  // namespace gputlm::sm
