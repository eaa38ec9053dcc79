// A clock domain. Simulation time is measured so that one period of the reference clock (the
// core clock of a GPU, the component clock of a testbench) is 1 ns: VCD time then reads directly
// in reference cycles. Other domains have periods of ref_mhz / mhz ns, rounded to the 1 ps time
// resolution. Cycle arithmetic is integer arithmetic on picoseconds (it is on every hot path).
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
  ClockDomain() = default;
  // A domain at `mhz` measured against a reference clock at `reference_mhz`.
  ClockDomain(double mhz, double reference_mhz)
      : m_mhz(mhz), m_period_ps(static_cast<uint64_t>(std::llround(1000.0 * reference_mhz / mhz))) {
    if (m_period_ps == 0) m_period_ps = 1;
  }

  double mhz() const { return m_mhz; }
  sc_core::sc_time period() const { return sc_core::sc_time::from_value(m_period_ps * ps_units()); }
  // The cycle in progress at `t` (edges at k * period).
  Cycle cycle_at(const sc_core::sc_time& t) const { return cycle_at_ps(picoseconds(t)); }
  Cycle now() const { return cycle_at(sim_now()); }
  sc_core::sc_time time_of(Cycle c) const { return sc_core::sc_time::from_value(c * m_period_ps * ps_units()); }
  // Time from now until the edge of cycle `c` (zero if it is now or past).
  sc_core::sc_time until(Cycle c) const {
    const uint64_t t = c * m_period_ps * ps_units(), now = sim_now().value();
    return sc_core::sc_time::from_value(t > now ? t - now : 0);
  }
  // The first edge strictly after `t`, and the first edge at or after `t`.
  sc_core::sc_time edge_after(const sc_core::sc_time& t) const { return time_of(cycle_at(t) + 1); }
  sc_core::sc_time edge_from(const sc_core::sc_time& t) const {
    const Cycle c = cycle_at(t);
    return time_of(c) == t ? t : time_of(c + 1);
  }
  // Whether the current time is exactly a clock edge.
  bool at_edge() const {
    const uint64_t ps = picoseconds(sim_now());
    return cycle_at_ps(ps) * m_period_ps == ps;
  }

 private:
  // Time-resolution units per picosecond (1 with SystemC's default 1 ps resolution).
  static uint64_t ps_units() {
    static const uint64_t units = sc_core::sc_time(1, sc_core::SC_PS).value();
    return units;
  }
  static uint64_t picoseconds(const sc_core::sc_time& t) {
    const uint64_t units = ps_units();
    return units == 1 ? t.value() : t.value() / units;
  }
  // The cycle at `ps`. A module asks at each of its runs, mostly in the cycle it asked last or the
  // one after: those answers come from the last one without a 64-bit division (a hot path).
  Cycle cycle_at_ps(uint64_t ps) const {
    if (ps >= m_memo_ps) {
      const uint64_t d = ps - m_memo_ps;
      if (d < m_period_ps) return m_memo_cycle;
      if (d < 2 * m_period_ps) {
        m_memo_ps += m_period_ps;
        return ++m_memo_cycle;
      }
    }
    m_memo_cycle = ps / m_period_ps;
    m_memo_ps = m_memo_cycle * m_period_ps;
    return m_memo_cycle;
  }
  double m_mhz = 1000.0;
  uint64_t m_period_ps = 1000;
  mutable uint64_t m_memo_ps = 0;   // start of cycle m_memo_cycle, in ps
  mutable Cycle m_memo_cycle = 0;
};

// For the SC_METHOD of a clocked module. Woken between two edges of its clock (by an event from
// another clock domain), the method re-triggers itself at the next edge and should return.
inline bool align_to_edge(const ClockDomain& clock) {
  if (clock.at_edge()) return true;
  sc_core::next_trigger(clock.until(clock.now() + 1));
  return false;
}

// For the SC_METHOD of a clocked module, at the end of each run: run again at cycle `next` or
// when `wake` fires, whichever comes first; with next == kNever, only when `wake` fires.
inline void sleep_until(const ClockDomain& clock, Cycle next, Wakeup& wake) {
  if (wake.polling()) next = std::min(next, clock.now() + 1);
  wake.rearm();  // first: `next` may be now (a zero-cycle wait), which rearm would forget
  if (wake.forwarding()) {  // the owner is statically sensitive to its own event, the shared one runs it
    if (next != kNever) wake.at(clock.time_of(next));
    return;
  }
  if (next == kNever) sc_core::next_trigger(wake.event());
  else sc_core::next_trigger(clock.until(next), wake.event());
}

}  // namespace gputlm
