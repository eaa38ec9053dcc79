// The command model's refresh (command_model.h): every tREFI an all-bank refresh falls due; the
// rows opened for requests are used first, then PREA (if a bank is open) and REF.
#include "models/mem/dram/command_model.h"

#include <algorithm>

namespace gputlm::mem {

// An idle controller (nothing queued or in the banks) does not wake for refresh, so that a
// simulation ends when nothing is left to do, and it does nothing about refresh when it runs while
// idle (a polled one), so both see the same: when a request comes, the refreshes that fell due
// while it was idle are issued at the cycles they would have gone and counted now, as far as they
// were done by now; one still going is left due.
void CommandModel::refresh_while_idle(Cycle now) {
  if (m_idle_since == kNever) return;
  while (m_next_refresh < now && m_next_refresh >= m_idle_since) {
    Cycle at = m_next_refresh;
    if (m_device.any_open()) at = std::max(at, earliest(DramCmd::PreAll, 0));
    const Cycle ref =
        std::max(m_device.any_open() ? at + m_spec.command.tRP : at, earliest(DramCmd::Refresh, 0));
    if (ref >= now) break;
    if (m_device.any_open()) precharge_all(at, false);
    device_issue(DramCmd::Refresh, 0, 0, ref);
    ++m_counters.idle_refreshes;
    m_next_refresh += m_spec.command.tREFI;
  }
  if (m_next_refresh < m_idle_since)
    m_next_refresh +=
        ((m_idle_since - m_next_refresh) / m_spec.command.tREFI + 1) * m_spec.command.tREFI;
  m_idle_since = kNever;
}

// PREA at `at`: a precharge counted for each open bank (shown in the waves if `waves`: at now).
void CommandModel::precharge_all(Cycle at, bool waves) {
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    if (!m_device.open_row(b)) continue;
    ++m_counters.precharges;
    if (waves && m_waves.on()) {
      m_waves.command(sim_now(), b, DramCommand::Precharge);
      m_waves.close_row(sim_now(), b);
    }
  }
  device_issue(DramCmd::PreAll, 0, 0, at);
}

bool CommandModel::rows_opened_for_requests() const {
  for (uint32_t n : m_bank_activated)
    if (n) return true;
  return false;
}

// With the opened rows used: PREA if a bank is open, then REF, each when the device allows.
bool CommandModel::schedule_refresh(Cycle now) {
  if (rows_opened_for_requests()) return false;
  const DramCmd cmd = m_device.any_open() ? DramCmd::PreAll : DramCmd::Refresh;
  if (earliest(cmd, 0) > now) return false;
  if (cmd == DramCmd::PreAll) {
    precharge_all(now, true);
    return true;
  }
  ++m_counters.refreshes;
  m_refresh_due = false;
  if (m_waves.on())
    for (uint32_t b = 0; b < m_spec.banks; ++b) m_waves.command(sim_now(), b, DramCommand::Refresh);
  device_issue(cmd, 0, 0, now);
  return true;
}

}  // namespace gputlm::mem
