// Turns a warp's per-lane accesses into what the memory system sees (no SystemC): the distinct
// cache lines a global or local access touches, in lane order, with the bytes each carries; and
// the number of cycles a shared-memory access needs given its bank conflicts (banks of 4-byte
// words; lanes reading the same word share it).
#pragma once

#include <cstdint>
#include <vector>

#include "models/common/lane_mask.h"
#include "models/func/exec_context.h"

namespace gputlm::sm {

struct LineRequest {
  uint64_t line_address = 0;  // aligned to the line size
  uint32_t bytes = 0;         // bytes of the lanes' accesses inside this line
  uint32_t sectors = 0;       // coalescing by sectors: the sectors touched (bit s: sector s)
};

// Lines touched by `lanes` of `r` (addresses already in the timing address space, see
// timing_address()). With `sector_bytes` (> 0, dividing line_bytes into at most 32) each line also
// gets the mask of the sectors its lanes touch.
void coalesce(const func::ExecResult& r, LaneMask lanes, uint32_t line_bytes,
              const std::vector<uint64_t>& addresses, std::vector<LineRequest>& out,
              uint32_t sector_bytes = 0);

// Cycles a shared-memory access of `lanes` takes: the most distinct words any bank must serve.
uint32_t shared_access_cycles(const func::ExecResult& r, LaneMask lanes, uint32_t banks);

}  // namespace gputlm::sm
