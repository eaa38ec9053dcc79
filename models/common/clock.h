// A clock domain. Simulation time is measured so that one period of the reference clock (the
// core clock of a GPU, the component clock of a testbench) is 1 ns: VCD time then reads directly
// in reference cycles. Other domains have periods of ref_mhz / mhz ns.
#pragma once

#include <cmath>
#include <cstdint>
#include <systemc>

namespace gputlm {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle{0};  // "no cycle": nothing scheduled

class ClockDomain {
 public:
  ClockDomain() = default;
  // A domain at `mhz` measured against a reference clock at `reference_mhz`.
  ClockDomain(double mhz, double reference_mhz) : m_mhz(mhz), m_period(sc_core::sc_time(reference_mhz / mhz, sc_core::SC_NS)) {}

  double mhz() const { return m_mhz; }
  const sc_core::sc_time& period() const { return m_period; }
  // The cycle in progress at `t` (edges at k * period).
  Cycle cycle_at(const sc_core::sc_time& t) const { return static_cast<Cycle>(std::floor(t / m_period + 1e-9)); }
  Cycle now() const { return cycle_at(sc_core::sc_time_stamp()); }
  sc_core::sc_time time_of(Cycle c) const { return m_period * static_cast<double>(c); }
  // Time from now until the edge of cycle `c` (zero if it is now or past).
  sc_core::sc_time until(Cycle c) const {
    const sc_core::sc_time t = time_of(c), now = sc_core::sc_time_stamp();
    return t > now ? t - now : sc_core::SC_ZERO_TIME;
  }
  // Whether the current time is exactly a clock edge.
  bool at_edge() const { return time_of(now()) == sc_core::sc_time_stamp(); }

 private:
  double m_mhz = 1000.0;
  sc_core::sc_time m_period{1.0, sc_core::SC_NS};
};

// For the SC_METHOD of a clocked module. Woken between two edges of its clock (by an event from
// another clock domain), the method re-triggers itself at the next edge and should return.
inline bool align_to_edge(const ClockDomain& clock) {
  if (clock.at_edge()) return true;
  sc_core::next_trigger(clock.until(clock.now() + 1));
  return false;
}

// For the SC_METHOD of a clocked module: run again at cycle `next` or when `wake` fires,
// whichever comes first; with next == kNever, only when `wake` fires.
inline void sleep_until(const ClockDomain& clock, Cycle next, const sc_core::sc_event& wake) {
  if (next == kNever) sc_core::next_trigger(wake);
  else sc_core::next_trigger(clock.until(next), wake);
}

}  // namespace gputlm
