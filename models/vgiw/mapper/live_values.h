// Live values of the VGIW core (Voitsechov & Etsion, Sec. 3.4): a value that crosses a basic
// block boundary is stored in the live value cache under a live-value ID and the thread's ID.
// The compiler allocates those IDs like registers: two registers live at the same block boundary
// (both live into one block, or both live out of one) need different IDs; others may share one.
// Greedy colouring in block-schedule order.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/isa/cfg.h"
#include "models/vgiw/mapper/block_order.h"

namespace gputlm::vgiw {

struct LiveValues {
  std::map<int32_t, uint32_t> id_of;  // register slot -> live-value ID
  uint32_t count = 0;                 // IDs used (rows of the live value matrix)
};

LiveValues allocate_live_values(const isa::Cfg& cfg, const BlockSchedule& schedule);

}  // namespace gputlm::vgiw
