// The VGIW compiler's whole mapping of a kernel (Voitsechov & Etsion, Sec. 3): the block
// schedule, the blocks cut into segments at barriers and where the grid is too small, live-value
// IDs, and per segment its fabric graph and how many replicas fill the grid. Kernel parameters and
// thread coordinates are static operands as `options` read them (static_operands.h).
#pragma once

#include <vector>

#include "models/isa/kernel.h"
#include "models/vgiw/mapper/block_graph.h"
#include "models/vgiw/mapper/live_values.h"
#include "models/vgiw/mapper/segments.h"

namespace gputlm::vgiw {

struct KernelMap {
  std::vector<Segment> segments;   // by VGIW block ID (segment 0: the entry)
  std::vector<BlockGraph> graphs;  // per segment, live-value IDs filled
  std::vector<uint32_t> replicas;  // per segment, at least 1
  LiveValues live;
  uint32_t static_instructions = 0;  // instructions that take no unit (static_operands.h)
};

// Throws std::invalid_argument for what VGIW cannot map (warp collectives, irreducible loops, a
// single instruction too big for the grid).
KernelMap map_kernel(const isa::Kernel& kernel, const UnitCounts& grid = kTable1Units,
                     const StaticOptions& options = {});

}  // namespace gputlm::vgiw
