// A set of warp slots: the fetch stage's eligible warps as the scheduler sees them (a bit set,
// models/common/index_set.h).
#pragma once

#include "models/common/index_set.h"

namespace gputlm::sm {

using SlotSet = IndexSet;

}  // namespace gputlm::sm
