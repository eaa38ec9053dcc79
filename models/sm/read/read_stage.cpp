#include "models/sm/read/read_stage.h"

#include <algorithm>

namespace gputlm::sm {

uint32_t ReadStage::delay(const WarpInstr& w) {
  if (m_core.spec.register_banks == 0) return m_core.spec.read_cycles;  // a fully ported register file
  isa::instruction_registers(*w.in, m_uses, m_defs);
  std::sort(m_uses.begin(), m_uses.end());
  m_uses.erase(std::unique(m_uses.begin(), m_uses.end()), m_uses.end());
  std::vector<uint32_t> per_bank(m_core.spec.register_banks, 0);
  uint32_t worst = 0;
  for (int32_t r : m_uses) worst = std::max(worst, ++per_bank[static_cast<uint32_t>(r) % per_bank.size()]);
  const uint32_t extra = worst > 1 ? worst - 1 : 0;
  m_core.counters.register_bank_conflict_cycles += extra;
  return m_core.spec.read_cycles + extra;
}

bool ReadStage::accept(const WarpInstr& w, Cycle) {
  if (!m_core.scoreboard) return true;
  WarpSlot& slot = m_core.warps[w.slot];
  isa::instruction_registers(*w.in, m_uses, m_defs);
  auto pending = [&](int32_t r) { return (slot.pending_regs[static_cast<size_t>(r) >> 6] >> (r & 63)) & 1; };
  for (int32_t r : m_uses)
    if (pending(r)) return false;
  for (int32_t r : m_defs)
    if (pending(r)) return false;
  for (int32_t r : m_defs) slot.pending_regs[static_cast<size_t>(r) >> 6] |= 1ull << (r & 63);  // until writeback
  return true;
}

}  // namespace gputlm::sm
