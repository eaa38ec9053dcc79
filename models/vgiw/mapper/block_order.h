// The VGIW compiler's block schedule (Voitsechov & Etsion, Sec. 3.1): basic blocks get IDs in an
// order that respects control dependencies, so that the hardware scheduler can simply pick the
// smallest block ID whose thread vector is not empty. Block 0 is the single entry (a synthetic
// empty block when the kernel's first block is a loop target), every forward edge goes to a
// larger ID, a loop shows as a successor with a smaller or equal ID (its header), and each
// loop's blocks are consecutive, so the loop runs to completion before the blocks after it.
// At most two successors a block.
#pragma once

#include <cstdint>
#include <vector>

#include "models/isa/cfg.h"

namespace gputlm::vgiw {

struct ScheduledBlock {
  static constexpr int32_t kSyntheticEntry = -1;
  int32_t cfg_block = kSyntheticEntry;  // the isa::Cfg block, or the synthetic entry
  std::vector<uint32_t> succs;          // VGIW block IDs, at most two
  bool exits = false;                   // threads may leave the kernel here
  uint32_t loop_depth = 0;              // natural loops containing the block
};

struct BlockSchedule {
  std::vector<ScheduledBlock> blocks;  // by VGIW block ID
  std::vector<uint32_t> id_of;         // isa::Cfg block -> VGIW block ID
};

// Throws std::invalid_argument for a block with more than two successors or an irreducible loop
// (a cycle entered other than through one header), which the scheduling rule cannot order.
BlockSchedule schedule_blocks(const isa::Cfg& cfg);

}  // namespace gputlm::vgiw
