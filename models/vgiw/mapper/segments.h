// The units the VGIW core schedules (Voitsechov & Etsion, Sec. 3.1-3.2): basic blocks, cut into
// segments where a block cannot map whole. A barrier (bar.sync) ends a segment and is dropped:
// the scheduler runs a block only once every block with a smaller ID has no threads left, so
// every thread of the tile has reached the barrier before the segment after it starts. A segment
// whose dataflow graph does not fit the grid is cut further, instruction by instruction (the
// paper: a block too large for the grid is split); values crossing a cut go through the live
// value cache like those crossing a block boundary.
#pragma once

#include <cstdint>
#include <vector>

#include "models/isa/kernel.h"
#include "models/vgiw/mapper/block_order.h"

namespace gputlm::vgiw {

struct Segment {
  int32_t cfg_block = ScheduledBlock::kSyntheticEntry;
  uint32_t begin = 0, end = 0;    // kernel pcs [begin, end); empty for the synthetic entry
  bool ends_block = true;         // its terminator takes the block's branch
  std::vector<int32_t> live_in;   // registers live at begin (sorted)
  std::vector<int32_t> live_out;  // registers live at end (sorted)
  std::vector<uint32_t> succs;    // segment IDs, at most two
  bool exits = false;
  uint32_t loop_depth = 0;
};

// Registers live just before `pc` in `block` (pc == block end: its live-out).
std::vector<int32_t> live_before(const isa::Kernel& kernel, uint32_t block, uint32_t pc);

}  // namespace gputlm::vgiw
