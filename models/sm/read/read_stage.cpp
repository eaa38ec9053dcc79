#include "models/sm/read/read_stage.h"

#include <algorithm>

namespace gputlm::sm {

uint32_t ReadStage::delay(const WarpInstr& w) {
  if (m_core.spec.register_banks == 0)
    return m_core.spec.read_cycles;  // a fully ported register file
  const isa::InstructionRegisters& regs = m_core.kernel_of(m_core.warps[w.slot]).registers(w.pc);
  m_per_bank.assign(m_core.spec.register_banks, 0);
  uint32_t worst = 0;
  for (int32_t r : regs.distinct_uses)
    worst = std::max(worst, ++m_per_bank[static_cast<uint32_t>(r) % m_per_bank.size()]);
  const uint32_t ports = m_core.spec.register_bank_ports;
  const uint32_t extra = worst > ports ? (worst + ports - 1) / ports - 1 : 0;
  m_core.counters.simt.register_bank_conflict_cycles += extra;
  return m_core.spec.read_cycles + extra;
}

}  // namespace gputlm::sm
