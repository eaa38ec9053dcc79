#include "models/mem/dram/dram_device.h"

#include <algorithm>

namespace gputlm::mem {

DramDevice::DramDevice(const DramSpec& spec)
    : m_t(spec.command),
      m_banks_per_group(spec.banks / std::max<uint32_t>(1, spec.command.bank_groups)),
      m_banks(spec.banks),
      m_groups(std::max<uint32_t>(1, spec.command.bank_groups)) {
  using C = DramCmd;
  const Cycle burst = m_t.burst();
  const Cycle write_end = m_t.tWL + burst;  // a write's last data, from its command
  m_rules = {
      // one bank
      {C::Act, C::Act, kBank, m_t.rc()},
      {C::Act, C::Read, kBank, m_t.tRCD},
      {C::Act, C::Write, kBank, m_t.rcd_write()},
      {C::Act, C::Pre, kBank, m_t.tRAS},
      {C::Act, C::PreAll, kBank, m_t.tRAS},
      {C::Pre, C::Act, kBank, m_t.tRP},
      {C::Read, C::Pre, kBank, m_t.tRTP},
      {C::Read, C::PreAll, kBank, m_t.tRTP},
      {C::Write, C::Pre, kBank, write_end + m_t.tWR},
      {C::Write, C::PreAll, kBank, write_end + m_t.tWR},
      // every bank (one rank): column-to-column and the data bus, activates, refresh
      {C::Read, C::Read, kRank, std::max(m_t.tCCD_S, burst)},
      {C::Write, C::Write, kRank, std::max(m_t.tCCD_S, burst)},
      {C::Read, C::Write, kRank, m_t.rtw()},
      {C::Write, C::Read, kRank, write_end + m_t.tWTR_S},
      {C::Act, C::Act, kRank, m_t.tRRD_S},
      {C::Act, C::Refresh, kRank, m_t.rc()},
      {C::Pre, C::Refresh, kRank, m_t.tRP},
      {C::PreAll, C::Refresh, kRank, m_t.tRP},
      {C::PreAll, C::Act, kRank, m_t.tRP},
      {C::Refresh, C::Act, kRank, m_t.tRFC},
      {C::Refresh, C::PreAll, kRank, m_t.tRFC},
      {C::Refresh, C::Refresh, kRank, m_t.tRFC},
  };
  if (m_t.bank_groups > 1) {  // one bank group: the _S values apply to every pair of banks
    m_rules.push_back({C::Read, C::Read, kGroup, m_t.tCCD_L});
    m_rules.push_back({C::Write, C::Write, kGroup, m_t.tCCD_L});
    m_rules.push_back({C::Write, C::Read, kGroup, write_end + m_t.tWTR_L});
    m_rules.push_back({C::Act, C::Act, kGroup, m_t.tRRD_L});
  }
}

bool DramDevice::any_open() const {
  return std::any_of(m_banks.begin(), m_banks.end(),
                     [](const Bank& b) { return b.open_row.has_value(); });
}

Cycle DramDevice::earliest(DramCmd cmd, uint32_t bank) const {
  const size_t c = static_cast<size_t>(cmd);
  Cycle t = m_rank[c];
  if (cmd == DramCmd::PreAll) {
    for (const Bank& b : m_banks)
      if (b.open_row) t = std::max(t, b.next[c]);
    return t;
  }
  if (cmd == DramCmd::Refresh) return t;
  t = std::max({t, m_banks[bank].next[c], m_groups[group(bank)][c]});
  if (cmd == DramCmd::Act && m_t.tFAW && m_act_count >= 4)
    t = std::max(t, m_acts[m_act_pos] + m_t.tFAW);
  return t;
}

// Every rule that starts at `cmd` issued to `bank` at `now` moves the commands it constrains on.
void DramDevice::apply(DramCmd cmd, uint32_t bank, Cycle now) {
  for (const Rule& r : m_rules) {
    if (r.before != cmd) continue;
    const size_t a = static_cast<size_t>(r.after);
    Cycle& next = r.scope == kBank    ? m_banks[bank].next[a]
                  : r.scope == kGroup ? m_groups[group(bank)][a]
                                      : m_rank[a];
    next = std::max(next, now + r.gap);
  }
}

void DramDevice::issue(DramCmd cmd, uint32_t bank, uint64_t row, Cycle now, bool auto_precharge) {
  switch (cmd) {
    case DramCmd::Act:
      m_banks[bank].open_row = row;
      m_acts[m_act_pos] = now;
      m_act_pos = (m_act_pos + 1) % m_acts.size();
      ++m_act_count;
      apply(cmd, bank, now);
      return;
    case DramCmd::Pre:
      m_banks[bank].open_row.reset();
      apply(cmd, bank, now);
      return;
    case DramCmd::PreAll:
      for (uint32_t b = 0; b < m_banks.size(); ++b) {
        if (!m_banks[b].open_row) continue;
        m_banks[b].open_row.reset();
        apply(DramCmd::Pre, b, now);
      }
      apply(cmd, bank, now);
      return;
    case DramCmd::Read:
    case DramCmd::Write:
      apply(cmd, bank, now);
      if (auto_precharge) {  // the precharge goes at the first cycle it may
        const Cycle pre = earliest(DramCmd::Pre, bank);
        m_banks[bank].open_row.reset();
        apply(DramCmd::Pre, bank, pre);
      }
      return;
    case DramCmd::Refresh:
      apply(cmd, bank, now);
      return;
  }
}

}  // namespace gputlm::mem
