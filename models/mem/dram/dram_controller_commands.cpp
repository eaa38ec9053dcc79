// The DRAM controller's command model: which command goes each cycle. The rules follow a
// controller of the kind JEDEC devices assume (and Ramulator 2's generic DDR controller):
//   - reads and writes wait in their own queues; writes are drained in bursts by watermark;
//   - each queued request needs ACT (bank closed), PRE (another row open) or its RD/WR next; the
//     policy picks among those whose command every timing constraint allows now;
//   - a request whose row was opened for it leaves its queue (its bank holds it) and is served
//     whatever the drain mode; no PRE closes that row before its column command;
//   - every tREFI a refresh falls due: no new request starts, the rows opened for requests are
//     used, then PREA (if a bank is open) and REF; REF keeps the rank from ACT for tRFC.
// A request's row outcome is counted at its first command: hit (RD/WR), empty (ACT), conflict
// (PRE). A request larger than one burst takes several column commands.
#include "models/mem/dram/dram_controller.h"

namespace gputlm::mem {

Cycle DramController::earliest(DramCmd cmd, uint32_t bank) const {
  const size_t c = static_cast<size_t>(cmd);
  if (m_earliest_of[bank][c] != m_device_issues) {
    m_earliest[bank][c] = m_device->earliest(cmd, bank);
    m_earliest_of[bank][c] = m_device_issues;
  }
  return m_earliest[bank][c];
}

void DramController::device_issue(DramCmd cmd, uint32_t bank, uint64_t row, Cycle at,
                                  bool auto_precharge) {
  m_device->issue(cmd, bank, row, at, auto_precharge);
  ++m_device_issues;
}

bool DramController::queue_has_room(const tlm::tlm_generic_payload& p) const {
  if (!command_model()) return m_queue.size() < m_spec.queue_depth;
  return p.is_write() ? m_queued_writes < m_spec.write_queue_depth
                      : m_queued_reads < m_spec.queue_depth;
}

// Drain writes when the write queue passes write_high or no read waits; back to reads when it is
// below write_low and a read waits.
bool DramController::next_write_mode() const {
  const double writes = m_queued_writes, depth = m_spec.write_queue_depth;
  if (!m_write_mode)
    return writes > m_spec.write_high * depth || (m_queued_reads == 0 && m_queued_writes > 0);
  return !(writes < m_spec.write_low * depth && m_queued_reads > 0);
}

void DramController::update_write_mode() {
  const bool mode = next_write_mode();
  if (mode && !m_write_mode) ++m_write_drains;
  m_write_mode = mode;
}

// Whether queued request i may have its next command picked now.
bool DramController::candidate(size_t i, bool write_mode) const {
  if (m_pending[i].activated) return true;
  return !m_refresh_due && m_queue[i].write == write_mode;
}

void DramController::schedule_commands(Cycle now) {
  if (m_queue.empty() && m_in_flight.empty()) return;  // idle: refresh_while_idle catches up later
  refresh_while_idle(now);
  if (m_next_refresh <= now) {
    m_refresh_due = true;
    m_next_refresh += m_spec.command.tREFI;
  }
  if (!any_command_ready(now)) {  // what the steps below come to when no request's command may go
    if (!m_refresh_due) update_write_mode();
    if (m_refresh_due) schedule_refresh(now);
    return;
  }
  // Every queued request's next command and whether it may go now, once; then the drain mode,
  // which is revisited when no request whose row was opened for it can go on (they go first
  // whatever the mode) and no refresh waits; then the policy's candidates.
  m_steps.clear();
  bool opened_ready = false;
  for (size_t i = 0; i < m_queue.size(); ++i) {
    const DramQueueEntry& e = m_queue[i];
    const DramCmd cmd = m_device->next_command(e.bank, e.row, e.write);
    const bool ready =
        earliest(cmd, e.bank) <= now && !(cmd == DramCmd::Pre && m_bank_activated[e.bank] > 0);
    m_steps.push_back({cmd, ready});
    opened_ready |= ready && m_pending[i].activated;
  }
  if (!opened_ready && !m_refresh_due) update_write_mode();
  m_candidates.clear();
  m_candidate_index.clear();
  for (size_t i = 0; i < m_queue.size(); ++i) {
    if (!candidate(i, m_write_mode)) continue;
    DramQueueEntry e = m_queue[i];
    e.hit = m_steps[i].cmd == DramCmd::Read || m_steps[i].cmd == DramCmd::Write;
    e.opened = m_pending[i].activated;
    e.ready = m_steps[i].ready;
    m_candidates.push_back(e);
    m_candidate_index.push_back(i);
  }
  const int pick = m_candidates.empty() ? -1 : m_scheduler->pick(m_candidates, now);
  if (pick >= 0) {
    const size_t i = m_candidate_index[static_cast<size_t>(pick)];
    return issue_command(i, m_steps[i].cmd, now);
  }
  if (m_refresh_due) schedule_refresh(now);
}

// Whether some queued request's next command (ACT on a closed bank, RD/WR on its open row, PRE
// for another row unless a request the row was opened for is still to be served) may go now: a
// look at each bank with requests queued, not at each request.
bool DramController::any_command_ready(Cycle now) const {
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    if (m_bank_queued[b] == 0) continue;
    const std::optional<uint64_t> open = m_device->open_row(b);
    if (!open) {
      if (earliest(DramCmd::Act, b) <= now) return true;
      continue;
    }
    const uint32_t hits = m_rows.count(b, *open);
    if (hits > 0 && std::min(earliest(DramCmd::Read, b), earliest(DramCmd::Write, b)) <= now)
      return true;
    if (hits < m_bank_queued[b] && m_bank_activated[b] == 0 && earliest(DramCmd::Pre, b) <= now)
      return true;
  }
  return false;
}

// An idle controller (nothing queued or in the banks) does not wake for refresh, so that a
// simulation ends when nothing is left to do, and it does nothing about refresh when it runs while
// idle (a polled one), so both see the same: when a request comes, the refreshes that fell due
// while it was idle are issued at the cycles they would have gone and counted now, as far as they
// were done by now; one still going is left due.
void DramController::refresh_while_idle(Cycle now) {
  if (m_idle_since == kNever) return;
  while (m_next_refresh < now && m_next_refresh >= m_idle_since) {
    Cycle at = m_next_refresh;
    if (m_device->any_open()) at = std::max(at, earliest(DramCmd::PreAll, 0));
    const Cycle ref = std::max(m_device->any_open() ? at + m_spec.command.tRP : at,
                               earliest(DramCmd::Refresh, 0));
    if (ref >= now) break;
    if (m_device->any_open()) precharge_all(at, false);
    device_issue(DramCmd::Refresh, 0, 0, ref);
    ++m_idle_refreshes;
    m_next_refresh += m_spec.command.tREFI;
  }
  if (m_next_refresh < m_idle_since)
    m_next_refresh +=
        ((m_idle_since - m_next_refresh) / m_spec.command.tREFI + 1) * m_spec.command.tREFI;
  m_idle_since = kNever;
}

// PREA at `at`: a precharge counted for each open bank (shown in the waves if `waves`: at now).
void DramController::precharge_all(Cycle at, bool waves) {
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    if (!m_device->open_row(b)) continue;
    ++m_precharges;
    if (waves && m_tracing) {
      m_timeline.set(sim_now(), &m_wave_cmd[b], uint64_t(DramCommand::Precharge));
      m_timeline.set(sim_now(), &m_wave_row[b], kNoRow);
    }
  }
  device_issue(DramCmd::PreAll, 0, 0, at);
}

bool DramController::rows_opened_for_requests() const {
  for (uint32_t n : m_bank_activated)
    if (n) return true;
  return false;
}

// With the opened rows used: PREA if a bank is open, then REF, each when the device allows.
bool DramController::schedule_refresh(Cycle now) {
  if (rows_opened_for_requests()) return false;
  const DramCmd cmd = m_device->any_open() ? DramCmd::PreAll : DramCmd::Refresh;
  if (earliest(cmd, 0) > now) return false;
  if (cmd == DramCmd::PreAll) {
    precharge_all(now, true);
    return true;
  }
  ++m_refreshes;
  m_refresh_due = false;
  if (m_tracing)
    for (uint32_t b = 0; b < m_spec.banks; ++b)
      m_timeline.set(sim_now(), &m_wave_cmd[b], uint64_t(DramCommand::Refresh));
  device_issue(cmd, 0, 0, now);
  return true;
}

void DramController::issue_command(size_t i, DramCmd cmd, Cycle now) {
  const DramQueueEntry& e = m_queue[i];
  Pending& p = m_pending[i];
  if (!p.started)
    count_outcome(p, cmd == DramCmd::Act   ? RowOutcome::Empty
                     : cmd == DramCmd::Pre ? RowOutcome::Conflict
                                           : RowOutcome::Hit);
  const auto wave = [&](DramCommand c) {
    if (m_tracing) m_timeline.set(sim_now(), &m_wave_cmd[e.bank], uint64_t(c));
  };
  if (cmd == DramCmd::Act) {
    device_issue(cmd, e.bank, e.row, now);
    ++m_activates;
    p.activated = true;
    --(e.write ? m_queued_writes : m_queued_reads);  // out of its queue: its bank holds it
    ++m_bank_activated[e.bank];
    wave(DramCommand::Activate);
    if (m_tracing) m_timeline.set(sim_now(), &m_wave_row[e.bank], e.row & 0xFFFFFFFFull);
    return;
  }
  if (cmd == DramCmd::Pre) {
    device_issue(cmd, e.bank, e.row, now);
    ++m_precharges;
    wave(DramCommand::Precharge);
    if (m_tracing) m_timeline.set(sim_now(), &m_wave_row[e.bank], kNoRow);
    return;
  }
  // A column command; the last of the request's closes the row under the closed-page policy
  // unless another queued request wants it.
  const bool last = p.columns <= 1;
  const bool auto_precharge = last && !m_open_page && !wanted_by_another(i);
  device_issue(cmd, e.bank, e.row, now, auto_precharge);
  m_precharges += auto_precharge;
  m_bus_busy += m_device->burst();
  const Cycle done = now + m_device->data_end(e.write);
  if (m_tracing) {
    wave(e.write ? DramCommand::Write : DramCommand::Read);
    const uint64_t issue_no = ++m_wave_issues[e.bank];
    m_timeline.set(m_clock.time_of(done), &m_wave_cmd[e.bank], uint64_t(DramCommand::Idle),
                   &m_wave_issues[e.bank], issue_no);
    m_timeline.set(m_clock.time_of(done - m_device->burst()), &m_wave_bus, 1);
    m_timeline.set(m_clock.time_of(done), &m_wave_bus, 0);
    if (auto_precharge) m_timeline.set(m_clock.time_of(done), &m_wave_row[e.bank], kNoRow);
  }
  if (!last) {
    --p.columns;
    return;
  }
  DramIssue r;
  r.outcome = p.outcome;
  r.done = done;
  start_access(i, now, r);
}

// The next cycle a command may go: the first cycle any candidate's command is allowed (a hold
// delays a held bank's row change), or a refresh falls due or may proceed.
Cycle DramController::next_command_wake(Cycle now) const {
  if (m_queue.empty() && m_in_flight.empty()) return kNever;  // idle: refresh_while_idle
  const bool mode = m_write_mode;
  // A change of drain mode waits for a cycle when no opened row's request can go: look each cycle.
  if (!m_refresh_due && next_write_mode() != mode) return now + 1;
  Cycle next = m_next_refresh;
  for (size_t i = 0; i < m_queue.size(); ++i) {
    if (!candidate(i, mode)) continue;
    const DramQueueEntry& e = m_queue[i];
    const DramCmd cmd = m_device->next_command(e.bank, e.row, e.write);
    if (cmd == DramCmd::Pre && m_bank_activated[e.bank] > 0)
      continue;  // waits for that request's column command
    Cycle t = earliest(cmd, e.bank);
    if (cmd == DramCmd::Act || cmd == DramCmd::Pre)
      if (const std::optional<DramHold> h = m_scheduler->hold(e.bank, now + 1))
        t = std::max(t, h->until);
    next = std::min(next, t);
  }
  if (m_refresh_due && !rows_opened_for_requests())
    next = std::min(next, earliest(m_device->any_open() ? DramCmd::PreAll : DramCmd::Refresh, 0));
  return std::max(next, now + 1);
}

}  // namespace gputlm::mem
