// Live values of the VGIW core (Voitsechov & Etsion, Sec. 3.4): a value that crosses a segment
// boundary (a basic block's, or a cut inside one) is stored in the live value cache under a
// live-value ID and the thread's ID. The compiler allocates those IDs like registers: two
// registers live at the same boundary (both live into one segment, or both out of one) need
// different IDs; others may share one. Greedy colouring in schedule order.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/vgiw/mapper/segments.h"

namespace gputlm::vgiw {

struct LiveValues {
  std::map<int32_t, uint32_t> id_of;  // register slot -> live-value ID
  uint32_t count = 0;                 // IDs used (rows of the live value matrix)
  // Bytes of each ID's value (8 if any register sharing it is 64-bit, else 4); set by map_kernel.
  std::vector<uint32_t> bytes;
};

LiveValues allocate_live_values(const std::vector<Segment>& segments);

}  // namespace gputlm::vgiw
