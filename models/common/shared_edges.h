// The timed wake-ups of a system's clocked processes (a GPU's cores, VGIW fabrics, caches,
// crossbar and DRAM controllers), run from one process in one fixed order when due in the same
// time step. Each member joins with its own Wakeup, which then forwards its timed wake-ups here,
// and with its process body; the owner calls dispatch() from one SC_METHOD sensitive to event(),
// which runs, in the order they joined, exactly the members due now. So the order of modules due
// together is the system's own, not the kernel's: it matters for the cores, whose execute stages
// act on the shared functional memory, where atomics and racing loads and stores see each other in
// that order. With many modules (fermi-gtx480's 15 cores, 30 L1s, 6 L2 slices and DRAM channels)
// one kernel event for all also costs less than a timed kernel event per module per wake-up; with
// one core, whose own event fires nearly every cycle, the heap costs more. A member's delta
// wake-ups (Wakeup::now) stay on its own event and process.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/common/wakeup.h"

namespace gputlm {

class SharedEdges {
 public:
  const sc_core::sc_event& event() const { return m_event; }
  // `own` forwards its timed wake-ups here; `run` is its process body, called when one is due.
  // A member's times are edges of its own clock, so `run` never needs to wait for an edge.
  void join(Wakeup& own, std::function<void()> run);
  // Member `member` asks to run at `when` (not earlier than now; its Wakeup asks for each time once).
  void at(const sc_core::sc_time& when, uint32_t member);
  // The owner's SC_METHOD body.
  void dispatch();

 private:
  struct Due {
    uint64_t when;  // a time's value
    uint32_t member;
    bool operator>(const Due& o) const { return when > o.when || (when == o.when && member > o.member); }
  };
  static constexpr uint64_t kNone = ~uint64_t{0};
  void arm(uint64_t when);  // notifies m_event at `when`
  // Outside dispatch(), m_event's pending notification is at the heap's earliest time, m_armed;
  // dispatch() arms it once at its end, for whatever its members asked for.
  sc_core::sc_event m_event;
  uint64_t m_armed = kNone;
  bool m_dispatching = false;
  std::vector<Due> m_heap;  // a min-heap of every member's times to come
  std::vector<std::function<void()>> m_members;  // in the order they joined
  std::vector<uint32_t> m_now;                   // dispatch's scratch: the members due now
};

}  // namespace gputlm
