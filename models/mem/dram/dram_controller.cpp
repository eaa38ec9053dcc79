#include "models/mem/dram/dram_controller.h"

#include <algorithm>
#include <stdexcept>

#include "models/mem/mem_extension.h"

namespace gputlm::mem {

DramController::DramController(sc_core::sc_module_name name, const DramSpec& spec,
                               double reference_mhz)
    : sc_module(name),
      upstream("upstream", m_wake, m_clock),
      m_spec(spec),
      m_open_page(spec.page_policy == DramSpec::PagePolicy::Open),
      m_clock(spec.clock_mhz, reference_mhz),
      m_map(spec),
      m_timing(spec.command_model() ? nullptr : make_dram_timing(spec)),
      m_device(spec.command_model() ? std::make_unique<DramDevice>(spec) : nullptr),
      m_scheduler(make_dram_scheduler(spec.scheduler, DramSchedulerParams{spec.hold_threshold()})),
      m_heads_only(!spec.command_model() && m_scheduler->bank_heads_only()),
      m_bank_activated(spec.banks, 0),
      m_earliest(spec.banks),
      m_earliest_of(spec.banks, std::array<uint64_t, kDramCmds>{}),
      m_bank_serials(spec.banks),
      m_views(spec.banks),
      m_bank_queued(spec.banks, 0),
      m_bank_start(spec.banks, 0),
      m_rows(spec.banks),
      m_wave_row(spec.banks, kNoRow),
      m_wave_cmd(spec.banks, 0),
      m_wave_issues(spec.banks, 0),
      m_holds(m_scheduler->holds_rows()),
      m_wave_held_row(spec.banks, kNoRow),
      m_wave_hold_until(spec.banks, 0),
      m_wave_hold_changes(spec.banks, 0) {
  if (command_model() && spec.command.tREFI) m_next_refresh = spec.command.tREFI;
  SC_METHOD(tick);
  sensitive << m_wake.event();
  dont_initialize();

  m_stats.counter("requests", m_requests, "count", "requests served");
  m_stats.counter("reads", m_reads, "count", "read requests served");
  m_stats.counter("writes", m_writes, "count", "write requests served");
  m_stats.counter("row_hits", m_hits, "count", "accesses to the open row");
  m_stats.counter("row_empties", m_empties, "count", "accesses to a bank with no open row");
  m_stats.counter("row_conflicts", m_conflicts, "count", "accesses that had to close another row");
  m_stats.counter("activates", m_activates, "count",
                  "ACT commands (the latency model: accesses that opened a row)");
  m_stats.counter("precharges", m_precharges, "count",
                  "PRE commands and auto-precharges, a PREA counted once per bank it closed");
  m_stats.counter("refreshes", m_refreshes, "count",
                  "REF commands (all-bank) while requests were queued or in flight");
  m_stats.counter(
      "idle_refreshes", m_idle_refreshes, "count",
      "REF commands that fell due while the controller was idle (counted when work came)");
  m_stats.counter("write_drains", m_write_drains, "count",
                  "turns from reads to draining the write queue (command model)");
  m_stats.formula(
      "row_buffer_hit_rate", [this] { return ratio(m_hits, m_requests); }, "ratio",
      "row hits / requests");
  m_stats.formula(
      "average_latency", [this] { return ratio(m_latency_sum, m_requests); }, "cycles",
      "arrival at the controller to the end of the data transfer, mean");
  m_stats.formula(
      "average_read_latency", [this] { return ratio(m_read_latency_sum, m_reads); }, "cycles",
      "a read's arrival at the controller to the end of its data, mean");
  m_stats.formula_input(m_read_latency_sum, StatGroup::Accrual::kSum);
  m_stats.maximum("max_latency", m_latency_max, "cycles",
                  "arrival to end of data transfer, maximum");
  m_stats.counter("bytes", m_bytes, "bytes", "bytes transferred");
  m_stats.formula(
      "active_cycles", [this] { return double(active_cycles()); }, "cycles",
      "first request arrival to last data transfer end");
  m_stats.counter("bus_busy_cycles", m_bus_busy, "cycles", "cycles the data bus moved data");
  m_stats.formula(
      "bus_utilization", [this] { return ratio(m_bus_busy, active_cycles()); }, "ratio",
      "bus busy cycles / active cycles");
  m_stats.formula(
      "achieved_bandwidth_gbps",
      [this] { return ratio(m_bytes * m_clock.mhz() / 1000.0, active_cycles()); }, "GB/s",
      "bytes / active time");
  m_stats.formula_input(m_latency_sum, StatGroup::Accrual::kSum);
  m_stats.formula_input(m_first_arrival, StatGroup::Accrual::kMin);
  m_stats.formula_input(m_last_done, StatGroup::Accrual::kMax);
  m_stats.maximum("max_queue_occupancy", m_max_queue, "count", "most requests queued at once");
  for (const DramPolicyCounter& c : m_scheduler->counters())
    m_stats.counter(c.name, *c.value, "count", c.description);
}

void DramController::tick() {
  if (!align_to_edge(m_clock)) return;
  const Cycle now = m_clock.now();
  accept(now);  // a request arriving at an idle controller starts in the same cycle
  complete(now);
  schedule(now);
  accept(now);  // if the queue was full, the slot just freed takes the waiting request now
  if (m_queue.empty() && m_in_flight.empty()) m_idle_since = std::min(m_idle_since, now);
  const Cycle next = next_wake(now);
  sleep_until(m_clock, next, m_wake);
}

void DramController::accept(Cycle now) {
  const tlm::tlm_generic_payload* next = upstream.peek();
  if (!next || !queue_has_room(*next) || m_last_accept == now) return;
  tlm::tlm_generic_payload* p = upstream.take();
  const DramCoord c = m_map.map(p->get_address());
  DramQueueEntry e;
  e.bank = c.bank;
  e.row = c.row;
  e.write = p->is_write();
  e.row_hint = MemExtension::of(*p).row_hint;
  e.arrival = now;
  m_first_arrival = std::min<uint64_t>(m_first_arrival, now);
  m_queue.push_back(e);
  if (m_heads_only) m_bank_serials[e.bank].push_back(m_next_serial);
  ++m_bank_queued[e.bank];
  m_rows.add(e.bank, e.row);
  if (!command_model()) update_bank_start(e.bank);
  m_pending.push_back({p});
  m_pending.back().serial = m_next_serial++;
  if (command_model()) {
    const uint64_t per_column = m_spec.command.burst_length * m_spec.command.bus_bytes;
    m_pending.back().columns = static_cast<uint32_t>(
        std::max<uint64_t>(1, (p->get_data_length() + per_column - 1) / per_column));
  }
  ++(e.write ? m_queued_writes : m_queued_reads);
  m_last_accept = now;
  m_max_queue = std::max<uint64_t>(m_max_queue, m_queue.size());
  if (m_tracing) m_timeline.set(sim_now(), &m_wave_queue, m_queue.size());
}

void DramController::schedule(Cycle now) {
  if (command_model()) return schedule_commands(now);
  // A queued request can start now (else no policy picks one): a bank's start cycle has come.
  if (m_queue.empty() || !any_bank_may_start(now)) return;
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    if (m_bank_queued[b] == 0) continue;  // no entry looks at its view
    DramBankView& v = m_views[b];
    v.ready = m_timing->bank_ready(b, now) == now;
    v.row_change = m_timing->row_change_ready(b, now) == now;
    v.open_row = m_timing->open_row(b);
  }
  int i = -1;
  if (m_heads_only) {
    collect_bank_heads();
    const int k = m_scheduler->pick(m_candidates, now);
    if (k >= 0) i = static_cast<int>(m_candidate_index[static_cast<size_t>(k)]);
  } else {
    mark_ready(m_queue, m_views);
    i = m_scheduler->pick(m_queue, now);
  }
  if (i < 0) return;
  const DramQueueEntry& e = m_queue[i];
  const bool keep_open = m_open_page || wanted_by_another(static_cast<size_t>(i));
  const Cycle bus_busy = m_timing->bus_busy_cycles();
  const DramIssue r = m_timing->issue(
      {e.bank, e.row, e.write, m_pending[i].payload->get_data_length()}, now, keep_open);
  m_bus_busy += m_timing->bus_busy_cycles() - bus_busy;
  count_outcome(m_pending[i], r.outcome);
  if (r.activated) ++m_activates;
  if (r.precharged) ++m_precharges;
  if (m_tracing) {
    record_waves(e.bank, r, e.write, e.row);
    if (!keep_open) m_timeline.set(m_clock.time_of(r.done), &m_wave_row[e.bank], kNoRow);
  }
  start_access(static_cast<size_t>(i), now, r);
}

void DramController::collect_bank_heads() {
  m_candidate_index.clear();
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    const DramBankView& v = m_views[b];
    if (m_bank_serials[b].empty() || !v.ready)
      continue;  // a head that cannot start: no policy picks it
    const auto at =
        std::lower_bound(m_pending.begin(), m_pending.end(), m_bank_serials[b].front(),
                         [](const Pending& p, uint64_t serial) { return p.serial < serial; });
    const size_t i = static_cast<size_t>(at - m_pending.begin());
    if (v.row_change || (v.open_row && *v.open_row == m_queue[i].row))
      m_candidate_index.push_back(i);
  }
  std::sort(m_candidate_index.begin(), m_candidate_index.end());
  m_candidates.clear();
  for (size_t i : m_candidate_index) m_candidates.push_back(m_queue[i]);
  mark_ready(m_candidates, m_views);
}

void DramController::count_outcome(Pending& p, RowOutcome outcome) {
  p.started = true;
  p.outcome = outcome;
  (outcome == RowOutcome::Hit ? m_hits : outcome == RowOutcome::Empty ? m_empties : m_conflicts)++;
}

// Request i's data moves (from r.bus_start to r.done): it leaves the queue for the banks.
void DramController::start_access(size_t i, Cycle now, const DramIssue& r) {
  const DramQueueEntry e = m_queue[i];
  const Pending p = m_pending[i];
  m_queue.erase(m_queue.begin() + static_cast<std::ptrdiff_t>(i));
  m_pending.erase(m_pending.begin() + static_cast<std::ptrdiff_t>(i));
  if (m_heads_only) {
    if (m_bank_serials[e.bank].front() != p.serial)
      throw std::logic_error(std::string(name()) +
                             ": the policy picked a request behind its bank's oldest");
    m_bank_serials[e.bank].pop_front();
  }
  --m_bank_queued[e.bank];
  m_rows.remove(e.bank, e.row);
  if (!command_model()) update_bank_start(e.bank);
  if (p.activated)
    --m_bank_activated[e.bank];
  else
    --(e.write ? m_queued_writes : m_queued_reads);
  m_scheduler->on_issue(e, now, r.done);
  m_in_flight.push(
      {r.done, m_seq++, p.payload, e.arrival, now, p.outcome, uint32_t(m_queue.size())});
  if (m_tracing) {
    m_timeline.set(sim_now(), &m_wave_queue, m_queue.size());
    record_hold(e.bank, now);
  }
}

void DramController::complete(Cycle now) {
  while (!m_in_flight.empty() && m_in_flight.top().done <= now && upstream.can_respond()) {
    const InFlight f = m_in_flight.top();
    m_in_flight.pop();
    ++m_requests;
    (f.payload->is_write() ? m_writes : m_reads)++;
    const uint64_t latency = f.done - f.arrival;
    if (!f.payload->is_write()) m_read_latency_sum += latency;
    m_latency_sum += latency;
    m_latency_max = std::max(m_latency_max, latency);
    m_bytes += f.payload->get_data_length();
    m_last_done = std::max<uint64_t>(m_last_done, f.done);
    if (m_log) {
      const DramCoord c = m_map.map(f.payload->get_address());
      m_log->record({m_channel, &MemExtension::of(*f.payload), f.payload->get_address(), c.bank,
                     c.row, c.column, f.arrival, f.start, f.done, f.outcome, f.queued});
    }
    upstream.respond(*f.payload);
  }
}

Cycle DramController::next_wake(Cycle now) const {
  Cycle next = kNever;
  if (!m_in_flight.empty()) next = std::max(now + 1, m_in_flight.top().done);
  if (upstream.peek() && queue_has_room(*upstream.peek())) next = std::min(next, now + 1);
  if (command_model()) return std::min(next, next_command_wake(now));
  if (!m_holds) {  // the banks with a request queued: when can they start one?
    for (uint32_t b = 0; b < m_spec.banks; ++b)
      if (m_bank_queued[b] > 0) next = std::min(next, std::max(now + 1, m_bank_start[b]));
    return next;
  }
  for (uint32_t b = 0; b < m_spec.banks; ++b) {  // ... and a policy's holds
    if (m_bank_queued[b] == 0) continue;
    Cycle ready = m_timing->bank_ready(b, now + 1);
    if (const Cycle change = m_timing->row_change_ready(b, now + 1);
        change > ready) {  // only other rows wait
      const std::optional<uint64_t> open = m_timing->open_row(b);
      if (!open || !queued_for(b, *open)) ready = change;
    }
    if (const std::optional<DramHold> h = m_scheduler->hold(b, now + 1);
        h && !queued_for(b, h->row))
      ready = std::max(
          ready,
          h->until);  // held for a row nobody has asked for yet: only a new request changes that
    next = std::min(next, std::max(now + 1, ready));
  }
  return next;
}

bool DramController::queued_for(uint32_t bank, uint64_t row) const {
  return m_rows.count(bank, row) > 0;
}

// The latency model's bank state changes only when it starts an access there; what is queued for
// the bank, when a request comes or starts.
void DramController::update_bank_start(uint32_t bank) {
  const std::optional<uint64_t> open = m_timing->open_row(bank);
  m_bank_start[bank] = open && queued_for(bank, *open) ? m_timing->bank_ready(bank, 0)
                                                       : m_timing->row_change_ready(bank, 0);
}

bool DramController::any_bank_may_start(Cycle now) const {
  for (uint32_t b = 0; b < m_spec.banks; ++b)
    if (m_bank_queued[b] > 0 && m_bank_start[b] <= now) return true;
  return false;
}

bool DramController::wanted_by_another(size_t i) const {
  return m_rows.count(m_queue[i].bank, m_queue[i].row) > 1;
}

// The waves of a bank's hold after an issue: the held row and the cycle the hold ends, back to
// none at that cycle unless a later issue changed the hold first.
void DramController::record_hold(uint32_t bank, Cycle now) {
  const std::optional<DramHold> h = m_scheduler->hold(bank, now);
  const uint64_t no = ++m_wave_hold_changes[bank];
  m_timeline.set(sim_now(), &m_wave_held_row[bank], h ? h->row & 0xFFFFFFFFull : kNoRow);
  m_timeline.set(sim_now(), &m_wave_hold_until[bank], h ? h->until : 0);
  if (!h) return;
  m_timeline.set(m_clock.time_of(h->until), &m_wave_held_row[bank], kNoRow,
                 &m_wave_hold_changes[bank], no);
  m_timeline.set(m_clock.time_of(h->until), &m_wave_hold_until[bank], 0, &m_wave_hold_changes[bank],
                 no);
}

void DramController::record_waves(uint32_t bank, const DramIssue& r, bool write, uint64_t row) {
  auto at = [this](Cycle c) { return m_clock.time_of(c); };
  if (r.precharged)
    m_timeline.set(at(r.precharge_at), &m_wave_cmd[bank], uint64_t(DramCommand::Precharge));
  if (r.activated) {
    m_timeline.set(at(r.activate_at), &m_wave_cmd[bank], uint64_t(DramCommand::Activate));
    m_timeline.set(at(r.activate_at), &m_wave_row[bank], row & 0xFFFFFFFFull);
  }
  m_timeline.set(at(r.column_at), &m_wave_cmd[bank],
                 uint64_t(write ? DramCommand::Write : DramCommand::Read));
  const uint64_t issue_no = ++m_wave_issues[bank];
  m_timeline.set(at(r.done), &m_wave_cmd[bank], uint64_t(DramCommand::Idle), &m_wave_issues[bank],
                 issue_no);
  m_timeline.set(at(r.bus_start), &m_wave_bus, 1);
  m_timeline.set(at(r.done), &m_wave_bus, 0);
}

void DramController::prepare_waves() {
  m_tracing = true;
  m_wake.keep_in_step();  // waves sample at the kernel's time
}

void DramController::declare_waves(WaveList& waves) const {
  using F = WaveSignal::Format;
  const std::string n = name();
  waves.group(n + ": queue occupancy, data bus busy");
  waves.add(m_wave_queue, n + ".queue", 16);
  waves.add(m_wave_bus, n + ".data_bus_busy", 1, F::Bin);
  const WaveNames commands{"dram_command",
                           {{0, "idle"}, {1, "ACT"}, {2, "RD"}, {3, "WR"}, {4, "PRE"}, {5, "REF"}}};
  for (uint32_t b = 0; b < m_spec.banks; ++b) {
    const std::string p = n + ".bank" + std::to_string(b);
    // With the row-buffer hint's hold: the row kept open and the cycle it lasts to.
    waves.group(p + ": command, open row (FFFFFFFF: closed)" +
                (m_holds ? ", held row, hold end" : ""));
    waves.add(m_wave_cmd[b], p + ".command", 3, F::Dec, commands);
    waves.add(m_wave_row[b], p + ".open_row", 32, F::Hex);
    if (!m_holds) continue;
    waves.add(m_wave_held_row[b], p + ".held_row", 32, F::Hex);
    waves.add(m_wave_hold_until[b], p + ".hold_until", 32);
  }
}

}  // namespace gputlm::mem
