// Register read: operands come from a banked register file (bank = register number mod
// register_banks; the papers' baseline RF is "slightly banked"); source registers that share a bank
// take one extra cycle each. (The scoreboard is checked where a warp is picked: the fetch stage.)
#pragma once

#include "models/sm/stage.h"

namespace gputlm::sm {

class ReadStage : public DelayStage {
 public:
  ReadStage(sc_core::sc_module_name name, CoreContext& core) : DelayStage(name, core) {}

 protected:
  uint32_t delay(const WarpInstr& w) override;

 private:
  std::vector<uint32_t> m_per_bank;  // scratch: source registers per register-file bank
};

}  // namespace gputlm::sm
