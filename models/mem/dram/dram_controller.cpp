#include "models/mem/dram/dram_controller.h"

#include <algorithm>

#include "models/mem/mem_extension.h"

namespace gputlm::mem {

DramController::DramController(sc_core::sc_module_name name, const DramSpec& spec,
                               double reference_mhz)
    : ClockedModule(name, spec.clock_mhz, reference_mhz),
      upstream("upstream", m_wake, m_clock),
      m_spec(spec),
      m_map(spec),
      m_scheduler(make_dram_scheduler(spec.scheduler, DramSchedulerParams{spec.hold_threshold()})),
      m_queue(spec.banks),
      m_waves(m_clock, spec.banks, m_scheduler->holds_rows()),
      m_timing(make_dram_timing(spec.timing_model_name(), {m_spec, m_clock, m_queue, *m_scheduler,
                                                           m_counters, m_waves, this->name()})) {
  register_statistics();
}

void DramController::register_statistics() {
  DramCounters& c = m_counters;
  m_stats.counter("requests", c.requests, "count", "requests served");
  m_stats.counter("reads", c.reads, "count", "read requests served");
  m_stats.counter("writes", c.writes, "count", "write requests served");
  m_stats.counter("row_hits", c.hits, "count", "accesses to the open row");
  m_stats.counter("row_empties", c.empties, "count", "accesses to a bank with no open row");
  m_stats.counter("row_conflicts", c.conflicts, "count", "accesses that had to close another row");
  m_stats.counter("activates", c.activates, "count",
                  "ACT commands (the latency model: accesses that opened a row)");
  m_stats.counter("precharges", c.precharges, "count",
                  "PRE commands and auto-precharges, a PREA counted once per bank it closed");
  m_stats.counter("refreshes", c.refreshes, "count",
                  "REF commands (all-bank) while requests were queued or in flight");
  m_stats.counter(
      "idle_refreshes", c.idle_refreshes, "count",
      "REF commands that fell due while the controller was idle (counted when work came)");
  m_stats.counter("write_drains", c.write_drains, "count",
                  "turns from reads to draining the write queue (command model)");
  m_stats.formula(
      "row_buffer_hit_rate", [this] { return ratio(m_counters.hits, m_counters.requests); },
      "ratio", "row hits / requests");
  m_stats.formula(
      "average_latency", [this] { return ratio(m_counters.latency_sum, m_counters.requests); },
      "cycles", "arrival at the controller to the end of the data transfer, mean");
  m_stats.formula(
      "average_read_latency",
      [this] { return ratio(m_counters.read_latency_sum, m_counters.reads); }, "cycles",
      "a read's arrival at the controller to the end of its data, mean");
  m_stats.formula_input(c.read_latency_sum, StatGroup::Accrual::kSum);
  m_stats.maximum("max_latency", c.latency_max, "cycles",
                  "arrival to end of data transfer, maximum");
  m_stats.counter("bytes", c.bytes, "bytes", "bytes transferred");
  m_stats.formula(
      "active_cycles", [this] { return double(m_counters.active_cycles()); }, "cycles",
      "first request arrival to last data transfer end");
  m_stats.counter("bus_busy_cycles", c.bus_busy, "cycles", "cycles the data bus moved data");
  m_stats.formula(
      "bus_utilization", [this] { return ratio(m_counters.bus_busy, m_counters.active_cycles()); },
      "ratio", "bus busy cycles / active cycles");
  m_stats.formula(
      "achieved_bandwidth_gbps",
      [this] {
        return ratio(m_counters.bytes * m_clock.mhz() / 1000.0, m_counters.active_cycles());
      },
      "GB/s", "bytes / active time");
  m_stats.formula_input(c.latency_sum, StatGroup::Accrual::kSum);
  m_stats.formula_input(c.first_arrival, StatGroup::Accrual::kMin);
  m_stats.formula_input(c.last_done, StatGroup::Accrual::kMax);
  m_stats.maximum("max_queue_occupancy", c.max_queue, "count", "most requests queued at once");
  for (const DramPolicyCounter& p : m_scheduler->counters())
    m_stats.counter(p.name, *p.value, "count", p.description);
}

Cycle DramController::cycle(Cycle now) {
  accept(now);  // a request arriving at an idle controller starts in the same cycle
  complete(now);
  if (!idle())
    if (const std::optional<DramStart> s = m_timing->step(now)) start_access(*s, now);
  accept(now);  // if the queue was full, the slot just freed takes the waiting request now
  if (idle()) m_timing->idle(now);
  return next_wake(now);
}

void DramController::accept(Cycle now) {
  const tlm::tlm_generic_payload* next = upstream.peek();
  if (!next || !m_timing->has_room(next->is_write()) || m_last_accept == now) return;
  tlm::tlm_generic_payload* p = upstream.take();
  const DramCoord c = m_map.map(p->get_address());
  DramQueueEntry e;
  e.bank = c.bank;
  e.row = c.row;
  e.write = p->is_write();
  e.row_hint = MemExtension::of(*p).row_hint;
  e.arrival = now;
  m_counters.first_arrival = std::min<uint64_t>(m_counters.first_arrival, now);
  m_queue.push(e, p);
  m_timing->queued(m_queue.size() - 1);
  m_last_accept = now;
  m_counters.max_queue = std::max<uint64_t>(m_counters.max_queue, m_queue.size());
  if (m_waves.on()) m_waves.queue(m_queue.size());
}

void DramController::start_access(const DramStart& s, Cycle now) {
  const DramQueueEntry e = m_queue.entry(s.index);
  const DramRequest r = m_queue.request(s.index);
  m_queue.erase(s.index);
  m_timing->started(e, r);
  m_scheduler->on_issue(e, now, s.done);
  m_in_flight.push({s.done + m_spec.controller_latency, m_seq++, r.payload, e.arrival, now,
                    r.outcome, uint32_t(m_queue.size())});
  if (m_waves.on()) {
    m_waves.queue(m_queue.size());
    m_waves.hold(e.bank, m_scheduler->hold(e.bank, now));
  }
}

void DramController::complete(Cycle now) {
  DramCounters& c = m_counters;
  while (!m_in_flight.empty() && m_in_flight.top().done <= now && upstream.can_respond()) {
    const InFlight f = m_in_flight.top();
    m_in_flight.pop();
    ++c.requests;
    (f.payload->is_write() ? c.writes : c.reads)++;
    const uint64_t latency = f.done - f.arrival;
    if (!f.payload->is_write()) c.read_latency_sum += latency;
    c.latency_sum += latency;
    c.latency_max = std::max(c.latency_max, latency);
    c.bytes += f.payload->get_data_length();
    c.last_done = std::max<uint64_t>(c.last_done, f.done);
    if (m_log) {
      const DramCoord d = m_map.map(f.payload->get_address());
      m_log->record({m_channel, &MemExtension::of(*f.payload), f.payload->get_address(), d.bank,
                     d.row, d.column, f.arrival, f.start, f.done, f.outcome, f.queued});
    }
    upstream.respond(*f.payload);
  }
}

// The first cycle with work: a response due, a request waiting for room, or the timing model's
// next step.
Cycle DramController::next_wake(Cycle now) const {
  Cycle next = kNever;
  if (!m_in_flight.empty()) next = std::max(now + 1, m_in_flight.top().done);
  if (upstream.peek() && m_timing->has_room(upstream.peek()->is_write()))
    next = std::min(next, now + 1);
  if (!idle()) next = std::min(next, m_timing->next_wake(now));
  return next;
}

void DramController::prepare_waves() {
  m_wake.keep_in_step();  // waves sample at the kernel's time
  m_waves.start();
}

void DramController::declare_waves(WaveList& waves) const { m_waves.declare(waves, name()); }

}  // namespace gputlm::mem
