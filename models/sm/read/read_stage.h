// Register read: operands come from a banked register file (bank = register number mod
// register_banks; the papers' baseline RF is "slightly banked"); source registers that share a bank
// take one extra cycle each. In scoreboard mode the stage also holds an instruction back while an
// older in-flight instruction of its warp still has to write one of its registers.
#pragma once

#include "models/sm/stage.h"

namespace gputlm::sm {

class ReadStage : public DelayStage {
 public:
  ReadStage(sc_core::sc_module_name name, CoreContext& core) : DelayStage(name, core) {}

 protected:
  uint32_t delay(const WarpInstr& w) override;
  bool accept(const WarpInstr& w, Cycle now) override;

 private:
  std::vector<uint32_t> m_per_bank;  // scratch: source registers per register-file bank
};

}  // namespace gputlm::sm
