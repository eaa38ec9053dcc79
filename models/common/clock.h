// A clock domain: its period and edges (docs/design/time-model.md "Units") and the module's and
// system's presents (docs/design/time-model.md "Three presents"). Cycle arithmetic is integer
// arithmetic on the kernel's time values (it is on every hot path).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <systemc>

#include "models/common/wakeup.h"

namespace gputlm {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle{0};  // "no cycle": nothing scheduled

class ClockDomain {
 public:
  ClockDomain() : ClockDomain(1000.0, 1000.0) {}
  // A domain at `mhz` measured against a reference clock at `reference_mhz`.
  ClockDomain(double mhz, double reference_mhz) : m_mhz(mhz) {
    uint64_t ps = static_cast<uint64_t>(std::llround(1000.0 * reference_mhz / mhz));
    if (ps == 0) ps = 1;
    m_period = ps * sc_core::sc_time(1, sc_core::SC_PS)
                        .value();  // in the kernel's time units (1 ps by default)
  }

  double mhz() const { return m_mhz; }
  sc_core::sc_time period() const { return time_from_value(m_period); }
  // The cycle in progress at `t` (edges at k * period).
  Cycle cycle_at(const sc_core::sc_time& t) const { return cycle_at_value(t.value()); }
  Cycle now() const { return cycle_at_value(time_value()); }
  // The domain's present: the kernel's time, or while its owner runs a cycle ahead of the kernel
  // (Core::activate, when nothing else can happen before that cycle) that cycle's edge.
  sc_core::sc_time time() const { return m_ahead ? time_of(m_ahead_cycle) : base_time(); }
  // The present of the system the domain's owner is part of (see follow), without the owner's
  // own lead (run_ahead): the time a link's sender and receiver agree on.
  sc_core::sc_time base_time() const {
    return m_system && m_system->ahead() ? time_from_value(m_system->value()) : sim_now();
  }
  uint64_t base_value() const { return m_system ? m_system->value() : sim_now().value(); }
  // The owner runs from a system's shared edges, which may run it ahead of the kernel: its
  // present is `system`'s.
  void follow(const SystemTime& system) { m_system = &system; }
  // The owner runs cycle `c` (later than the kernel's time) now, and is back in step.
  void run_ahead(Cycle c) {
    m_ahead = true;
    m_ahead_cycle = c;
  }
  void catch_up() { m_ahead = false; }
  sc_core::sc_time time_of(Cycle c) const { return time_from_value(value_of(c)); }
  uint64_t value_of(Cycle c) const { return c * m_period; }  // time_of(c).value()
  // Time from now until the edge of cycle `c` (zero if it is now or past).
  sc_core::sc_time until(Cycle c) const {
    const uint64_t t = c * m_period, now = time_value();
    return time_from_value(t > now ? t - now : 0);
  }
  // The first edge strictly after `t`, and the first edge at or after `t`.
  sc_core::sc_time edge_after(const sc_core::sc_time& t) const { return time_of(cycle_at(t) + 1); }
  sc_core::sc_time edge_from(const sc_core::sc_time& t) const {
    const Cycle c = cycle_at(t);
    return time_of(c) == t ? t : time_of(c + 1);
  }
  // Whether the current time is exactly a clock edge.
  bool at_edge() const {
    const uint64_t v = time_value();
    return cycle_at_value(v) * m_period == v;
  }

 private:
  uint64_t time_value() const { return m_ahead ? m_ahead_cycle * m_period : base_value(); }
  // The cycle at time value `v`. A module asks at each of its runs, mostly in the cycle it asked
  // last or the one after: those answers come from the last one without a 64-bit division (a hot
  // path).
  Cycle cycle_at_value(uint64_t v) const {
    if (v >= m_memo_start) {
      const uint64_t d = v - m_memo_start;
      if (d < m_period) return m_memo_cycle;
      if (d < 2 * m_period) {
        m_memo_start += m_period;
        return ++m_memo_cycle;
      }
    }
    m_memo_cycle = v / m_period;
    m_memo_start = m_memo_cycle * m_period;
    return m_memo_cycle;
  }
  double m_mhz = 1000.0;
  uint64_t m_period = 1000;           // in time units
  mutable uint64_t m_memo_start = 0;  // start of cycle m_memo_cycle, in time units
  mutable Cycle m_memo_cycle = 0;
  bool m_ahead = false;  // see run_ahead
  Cycle m_ahead_cycle = 0;
  const SystemTime* m_system = nullptr;  // see follow
};

// For the SC_METHOD of a clocked module (docs/design/time-model.md, rule 3): woken between two
// edges of its clock, the method re-triggers itself at the next edge and should return.
inline bool align_to_edge(const ClockDomain& clock) {
  if (clock.at_edge()) return true;
  sc_core::next_trigger(clock.until(clock.now() + 1));
  return false;
}

// For the SC_METHOD of a clocked module, at the end of each run (docs/design/time-model.md, rules 5
// and 6): run again at cycle `next` or when `wake` fires, whichever comes first; with next ==
// kNever, only when `wake` fires. The Wakeup arms its event for `next` (or the shared edges run
// the module then): no dynamic next_trigger, which costs the kernel more.
inline void sleep_until(const ClockDomain& clock, Cycle next, Wakeup& wake) {
  if (wake.polling()) next = std::min(next, clock.now() + 1);
  wake.rearm();  // first: `next` may be now (a zero-cycle wait), which rearm would forget
  if (next != kNever) wake.at(clock.time_of(next));
}

}  // namespace gputlm
