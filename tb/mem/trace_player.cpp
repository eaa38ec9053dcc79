#include "tb/mem/trace_player.h"

#include "models/common/error.h"

namespace gputlm::tb {

TracePlayer::TracePlayer(sc_core::sc_module_name name, const std::string& path,
                         std::optional<uint32_t> core, uint32_t line_bytes,
                         const ClockDomain& clock)
    : TracePlayer(
          name,
          [reader = std::make_shared<RequestTraceReader>(path), core] {
            return reader->next(core);
          },
          line_bytes, clock) {}

TracePlayer::TracePlayer(sc_core::sc_module_name name, RequestSource source, uint32_t line_bytes,
                         const ClockDomain& clock)
    : sc_module(name),
      downstream("downstream", m_wake, m_clock),
      m_source(std::move(source)),
      m_line_bytes(line_bytes),
      m_clock(clock) {
  SC_METHOD(tick);
  sensitive << m_wake.event();
  m_next = m_source();
  m_finished = !m_next;
  init();
}

void TracePlayer::init() {
  m_stats.counter("issued", m_issued, "count", "requests sent");
  m_stats.counter("completed", m_completed, "count", "responses received");
  m_stats.counter("reads", m_reads, "count", "read requests sent");
  m_stats.counter("writes", m_writes, "count", "write requests sent");
  m_stats.formula(
      "average_latency", [this] { return ratio(m_latency_sum, m_completed); }, "cycles",
      "request sent to response received, mean");
  m_stats.maximum("max_latency", m_latency_max, "cycles",
                  "request sent to response received, maximum");
  m_stats.counter(
      "held_back_cycles", m_held_cycles, "cycles",
      "cycles requests waited past their trace cycle because the target was not accepting");
  m_stats.counter("bytes", m_bytes, "bytes", "bytes requested");
  m_stats.formula(
      "elapsed_cycles", [this] { return double(elapsed_cycles()); }, "cycles",
      "first request to last response");
  m_stats.formula(
      "achieved_bandwidth_gbps",
      [this] { return ratio(m_bytes * m_clock.mhz() / 1000.0, elapsed_cycles()); }, "GB/s",
      "bytes / elapsed time");
  m_stats.formula_input(m_latency_sum, StatGroup::Accrual::kSum);
  m_stats.formula_input(m_first_issue, StatGroup::Accrual::kMin);
  m_stats.formula_input(m_last_response, StatGroup::Accrual::kMax);
}

void TracePlayer::tick() {
  if (!align_to_edge(m_clock)) return;
  const Cycle now = m_clock.now();
  while (downstream.has_response()) {
    tlm::tlm_generic_payload& p = downstream.front_response();
    downstream.pop_response();
    const auto& ext = mem::MemExtension::of(p);
    const Cycle sent =
        m_clock.cycle_at(sc_core::sc_time(static_cast<double>(ext.issued_ps), sc_core::SC_PS));
    const uint64_t latency = now - sent;
    if (m_keep) {  // the player's own pool numbers its requests 1, 2, ... in sending order
      Completion& c = m_completions.at(ext.id - 1);
      c.index = ext.id - 1;
      c.sent = sent;
      c.responded = now;
    }
    m_latency_sum += latency;
    m_latency_max = std::max(m_latency_max, latency);
    m_last_response = now;
    ++m_completed;
    p.release();
  }
  if (m_next && m_next->cycle <= now && downstream.can_send()) {
    const TraceRequest& r = *m_next;
    const uint32_t bytes = r.bytes ? r.bytes : m_line_bytes;
    const mem::AccessKind kind = r.write   ? mem::AccessKind::Store
                                 : r.fetch ? mem::AccessKind::Fetch
                                           : mem::AccessKind::Load;
    auto& p = m_pool.make(r.address, bytes, kind, m_clock.time());
    auto& ext = mem::MemExtension::of(p);
    ext.core = r.core;
    ext.row_hint = r.hint;
    ext.cache_global = r.cache_global && !r.write;
    if (m_keep) m_completions.push_back({m_completions.size(), r.cycle, 0, 0});
    ++m_issued;
    m_first_issue = std::min<uint64_t>(m_first_issue, now);
    (r.write ? m_writes : m_reads)++;
    m_bytes += bytes;
    m_held_cycles += now - r.cycle;
    downstream.send(p);
    try {
      m_next = m_source();
    } catch (const InputError& e) {  // a malformed line further on: stop cleanly, report after
      m_error = e.what();
      m_next.reset();
      sc_core::sc_stop();
      return;
    }
  }
  m_finished = !m_next && m_completed == m_issued;
  if (m_next && downstream.can_send())
    sleep_until(m_clock, std::max(now + 1, m_next->cycle), m_wake);
  else if (!m_finished)
    sleep_until(m_clock, kNever, m_wake);
}

}  // namespace gputlm::tb
