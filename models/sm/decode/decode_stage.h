// Decode: the instruction was pre-decoded when the kernel was loaded, so this stage only takes
// its pipeline cycles (decode_cycles, 1 in the papers' 7-stage core).
#pragma once

#include "models/sm/stage.h"

namespace gputlm::sm {

class DecodeStage : public DelayStage {
 public:
  DecodeStage(sc_core::sc_module_name name, CoreContext& core) : DelayStage(name, core) {}

 protected:
  uint32_t delay(const WarpInstr&) override { return m_core.spec.decode_cycles; }
};

}  // namespace gputlm::sm
