// Writeback: the last stage. Registers are written (the functional engine already holds the
// values; the scoreboard releases them), the warp formation updates the warp's PC, active mask
// and divergence stack (push on divergence, pop at the immediate post-dominator), exits and
// barrier arrivals are recorded, and the warp may be fetched again from the next cycle (barrel
// processing). A finished CTA frees its slots.
#pragma once

#include <vector>

#include "models/sm/stage.h"

namespace gputlm::sm {

class WritebackStage : public Stage {
 public:
  WritebackStage(sc_core::sc_module_name name, CoreContext& core)
      : Stage(name, core, true, false) {}
  void declare_waves(WaveList& waves) const override;

 protected:
  Cycle cycle(Cycle now) override;

 private:
  void retire(WarpInstr& wi, Cycle now);
  void release_barriers(CtaSlot& cta, Cycle now);
  void check_deadlock(CtaSlot& cta);

  WarpInstr* m_held = nullptr;
  Cycle m_ready = 0;
  Cycle m_last_take = kNever;
  uint32_t m_taken = 0;  // instructions taken in cycle m_last_take
};

}  // namespace gputlm::sm
