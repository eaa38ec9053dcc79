#include "models/mem/dram/command_model.h"

#include <algorithm>
#include <tlm>

namespace gputlm::mem {

CommandModel::CommandModel(const DramTimingContext& c)
    : DramTimingModel(c),
      m_device(c.spec),
      m_bank_activated(c.spec.banks, 0),
      m_earliest(c.spec.banks),
      m_earliest_of(c.spec.banks, std::array<uint64_t, kDramCmds>{}),
      m_kinds(c.spec.banks),
      m_bank_kinds(c.spec.banks) {
  if (c.spec.command.tREFI) m_next_refresh = c.spec.command.tREFI;
}

Cycle CommandModel::earliest(DramCmd cmd, uint32_t bank) const {
  const size_t c = static_cast<size_t>(cmd);
  if (m_earliest_of[bank][c] != m_device_issues) {
    m_earliest[bank][c] = m_device.earliest(cmd, bank);
    m_earliest_of[bank][c] = m_device_issues;
  }
  return m_earliest[bank][c];
}

void CommandModel::device_issue(DramCmd cmd, uint32_t bank, uint64_t row, Cycle at,
                                bool auto_precharge) {
  m_device.issue(cmd, bank, row, at, auto_precharge);
  ++m_device_issues;
  if (cmd == DramCmd::PreAll || cmd == DramCmd::Refresh)
    for (BankKinds& k : m_bank_kinds) k.stale = true;
  else
    touch(bank);  // its open row may have changed
}

const CommandModel::BankKinds& CommandModel::kinds_of(uint32_t bank) const {
  BankKinds& k = m_bank_kinds[bank];
  if (k.stale) {
    k.count = 0;
    m_kinds.for_each_kind(bank, m_device.open_row(bank),
                          [&](DramCmd cmd, bool opened, const DramKindIndex::Request& r) {
                            k.kinds[k.count++] = {r.serial, &r.entry, cmd, opened};
                          });
    k.stale = false;
  }
  return k;
}

bool CommandModel::has_room(bool write) const {
  return write ? m_queued_writes < m_spec.write_queue_depth : m_queued_reads < m_spec.queue_depth;
}

void CommandModel::queued(size_t i) {
  DramRequest& r = m_queue.request(i);
  const uint64_t per_column = m_spec.command.burst_length * m_spec.command.bus_bytes;
  r.columns = static_cast<uint32_t>(
      std::max<uint64_t>(1, (r.payload->get_data_length() + per_column - 1) / per_column));
  const DramQueueEntry& e = m_queue.entry(i);
  ++(e.write ? m_queued_writes : m_queued_reads);
  m_kinds.add(e, r.serial);
  touch(e.bank);
}

void CommandModel::started(const DramQueueEntry& e, const DramRequest& r) {
  m_kinds.remove(e.bank, e.write, r.serial, r.activated);
  touch(e.bank);
  if (r.activated)
    --m_bank_activated[e.bank];
  else
    --(e.write ? m_queued_writes : m_queued_reads);
}

// Drain writes when the write queue passes write_high or no read waits; back to reads when it is
// below write_low and a read waits.
bool CommandModel::next_write_mode() const {
  const double writes = m_queued_writes, depth = m_spec.write_queue_depth;
  if (!m_write_mode)
    return writes > m_spec.write_high * depth || (m_queued_reads == 0 && m_queued_writes > 0);
  return !(writes < m_spec.write_low * depth && m_queued_reads > 0);
}

void CommandModel::update_write_mode() {
  const bool mode = next_write_mode();
  if (mode && !m_write_mode) ++m_counters.write_drains;
  m_write_mode = mode;
}

// Whether a queued request (its row opened for it or not, a write or a read) may have its next
// command picked now.
bool CommandModel::candidate(bool opened, bool write, bool write_mode) const {
  return opened || (!m_refresh_due && write == write_mode);
}

std::optional<DramStart> CommandModel::step(Cycle now) {
  refresh_while_idle(now);
  if (m_next_refresh <= now) {
    m_refresh_due = true;
    m_next_refresh += m_spec.command.tREFI;
  }
  if (!any_command_ready(now)) {  // what the steps below come to when no request's command may go
    if (!m_refresh_due) update_write_mode();
    if (m_refresh_due) schedule_refresh(now);
    return std::nullopt;
  }
  Bus issued = Bus::Any;
  std::optional<DramStart> start = pick_and_issue(now, Bus::Any, issued);
  // A dual command bus takes a command of the other kind in the same cycle.
  if (issued != Bus::Any && m_spec.command.dual_command_bus) {
    Bus second = Bus::Any;
    std::optional<DramStart> s =
        pick_and_issue(now, issued == Bus::Row ? Bus::Column : Bus::Row, second);
    if (s) start = s;  // the column command of the two: at most one a cycle ends a request
  }
  if (issued == Bus::Any && m_refresh_due) schedule_refresh(now);
  return start;
}

namespace {

bool on_row_bus(DramCmd c) { return c == DramCmd::Act || c == DramCmd::Pre; }

}  // namespace

std::optional<DramStart> CommandModel::pick_and_issue(Cycle now, Bus bus, Bus& issued) {
  // Every queued request's next command and whether it may go now, once (for a policy that picks
  // by kind, only the oldest request of each kind, DramKindIndex: the others share its step); then
  // the drain mode, which is revisited when no request whose row was opened for it can go on (they
  // go first whatever the mode) and no refresh waits; then the policy's candidates, oldest first.
  m_steps.clear();
  bool opened_ready = false;
  auto step = [&](const Kind& k) {
    const uint32_t bank = k.entry->bank;
    const bool ready =
        earliest(k.cmd, bank) <= now && !(k.cmd == DramCmd::Pre && m_bank_activated[bank] > 0);
    m_steps.push_back({k, ready});
    opened_ready |= ready && k.opened;
  };
  const bool by_kind = m_scheduler.picks_by_kind();
  if (by_kind) {
    for (uint32_t b = 0; b < m_spec.banks; ++b) {
      if (m_queue.queued(b) == 0) continue;
      const BankKinds& k = kinds_of(b);
      for (uint8_t i = 0; i < k.count; ++i) step(k.kinds[i]);
    }
  } else {
    for (size_t i = 0; i < m_queue.size(); ++i) {
      const DramQueueEntry& e = m_queue.entry(i);
      step({m_queue.request(i).serial, &e, m_device.next_command(e.bank, e.row, e.write),
            m_queue.request(i).activated});
    }
  }
  if (bus == Bus::Any && !opened_ready && !m_refresh_due) update_write_mode();
  // The candidates, in arrival order (only the ready ones where the rest change no pick).
  const bool ready_only = m_scheduler.picks_ready_only();
  m_candidate_steps.clear();
  for (uint32_t s = 0; s < m_steps.size(); ++s) {
    const Step& st = m_steps[s];
    if (ready_only && !st.ready) continue;
    if (!candidate(st.opened, st.entry->write, m_write_mode)) continue;
    if (bus != Bus::Any && on_row_bus(st.cmd) != (bus == Bus::Row)) continue;
    m_candidate_steps.push_back(st.serial << kStepBits | s);
  }
  if (by_kind) std::sort(m_candidate_steps.begin(), m_candidate_steps.end());
  m_candidates.clear();
  for (const uint64_t key : m_candidate_steps) {
    const Step& st = step_of(key);
    DramQueueEntry& e = m_candidates.emplace_back(*st.entry);
    e.hit = st.cmd == DramCmd::Read || st.cmd == DramCmd::Write;
    e.opened = st.opened;
    e.ready = st.ready;
  }
  const int pick = m_candidates.empty() ? -1 : m_scheduler.pick(m_candidates, now);
  if (pick < 0) return std::nullopt;
  const Step& st = step_of(m_candidate_steps[static_cast<size_t>(pick)]);
  issued = on_row_bus(st.cmd) ? Bus::Row : Bus::Column;
  return issue_command(m_queue.index_of(st.serial), st.cmd, now);
}

// Whether some queued request's next command (ACT on a closed bank, RD/WR on its open row, PRE
// for another row unless a request the row was opened for is still to be served) may go now: a
// look at each bank with requests queued, not at each request.
bool CommandModel::any_command_ready(Cycle now) const {
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    if (m_queue.queued(b) == 0) continue;
    const std::optional<uint64_t> open = m_device.open_row(b);
    if (!open) {
      if (earliest(DramCmd::Act, b) <= now) return true;
      continue;
    }
    const uint32_t hits = m_queue.queued_for(b, *open);
    if (hits > 0 && std::min(earliest(DramCmd::Read, b), earliest(DramCmd::Write, b)) <= now)
      return true;
    if (hits < m_queue.queued(b) && m_bank_activated[b] == 0 && earliest(DramCmd::Pre, b) <= now)
      return true;
  }
  return false;
}

std::optional<DramStart> CommandModel::issue_command(size_t i, DramCmd cmd, Cycle now) {
  const DramQueueEntry& e = m_queue.entry(i);
  DramRequest& p = m_queue.request(i);
  if (!p.started) {
    p.started = true;
    p.outcome = cmd == DramCmd::Act   ? RowOutcome::Empty
                : cmd == DramCmd::Pre ? RowOutcome::Conflict
                                      : RowOutcome::Hit;
    m_counters.count(p.outcome);
  }
  const bool waves = m_waves.on();
  if (cmd == DramCmd::Act) {
    device_issue(cmd, e.bank, e.row, now);
    ++m_counters.activates;
    p.activated = true;
    m_kinds.activate(e.bank, e.write, p.serial);
    touch(e.bank);
    --(e.write ? m_queued_writes : m_queued_reads);  // out of its queue: its bank holds it
    ++m_bank_activated[e.bank];
    if (waves) {
      m_waves.command(sim_now(), e.bank, DramCommand::Activate);
      m_waves.open_row(sim_now(), e.bank, e.row);
    }
    return std::nullopt;
  }
  if (cmd == DramCmd::Pre) {
    device_issue(cmd, e.bank, e.row, now);
    ++m_counters.precharges;
    if (waves) {
      m_waves.command(sim_now(), e.bank, DramCommand::Precharge);
      m_waves.close_row(sim_now(), e.bank);
    }
    return std::nullopt;
  }
  // A column command; the last of the request's closes the row under the closed-page policy
  // unless another queued request wants it.
  const bool last = p.columns <= 1;
  const bool auto_precharge = last && !m_open_page && !m_queue.wanted_by_another(i);
  device_issue(cmd, e.bank, e.row, now, auto_precharge);
  m_counters.precharges += auto_precharge;
  m_counters.bus_busy += m_device.burst();
  const Cycle done = now + m_device.data_end(e.write);
  if (waves) {
    m_waves.command(sim_now(), e.bank, e.write ? DramCommand::Write : DramCommand::Read);
    m_waves.transfer(e.bank, m_clock.time_of(done - m_device.burst()), m_clock.time_of(done));
    if (auto_precharge) m_waves.close_row(m_clock.time_of(done), e.bank);
  }
  if (!last) {
    --p.columns;
    return std::nullopt;
  }
  return DramStart{i, done};
}

// The next cycle a command may go: the first cycle any candidate's command is allowed (a hold
// delays a held bank's row change), or a refresh falls due or may proceed.
Cycle CommandModel::next_wake(Cycle now) const {
  const bool mode = m_write_mode;
  // A change of drain mode waits for a cycle when no opened row's request can go: look each cycle.
  if (!m_refresh_due && next_write_mode() != mode) return now + 1;
  Cycle next = m_next_refresh;
  const bool holds = m_scheduler.holds_rows();
  // The requests of one kind (DramKindIndex) share their next command's cycle; nothing comes
  // before the next cycle.
  for (uint32_t b = 0; b < m_spec.banks && next > now + 1; ++b) {
    if (m_queue.queued(b) == 0) continue;
    const BankKinds& k = kinds_of(b);
    for (uint8_t i = 0; i < k.count; ++i) {
      const Kind& r = k.kinds[i];
      if (!candidate(r.opened, r.entry->write, mode)) continue;
      if (r.cmd == DramCmd::Pre && m_bank_activated[b] > 0)
        continue;  // waits for that request's column command
      Cycle t = earliest(r.cmd, b);
      if (holds && (r.cmd == DramCmd::Act || r.cmd == DramCmd::Pre))
        if (const std::optional<DramHold> h = m_scheduler.hold(b, now + 1))
          t = std::max(t, h->until);
      next = std::min(next, t);
    }
  }
  if (next > now + 1 && m_refresh_due && !rows_opened_for_requests())
    next = std::min(next, earliest(m_device.any_open() ? DramCmd::PreAll : DramCmd::Refresh, 0));
  return std::max(next, now + 1);
}

namespace {
const DramTimingRegistration kCommand("command", [](const DramTimingContext& c) {
  return std::make_unique<CommandModel>(c);
});
}  // namespace

}  // namespace gputlm::mem
