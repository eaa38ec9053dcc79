// The timed wake-ups of a system's clocked processes (a GPU's cores, VGIW fabrics, caches,
// crossbar and DRAM controllers), run from one process in one fixed order when due in the same
// time step, and ahead of the kernel while nothing else can run: docs/design/time-model.md
// "Mechanisms" (Shared edges, The GPU runs ahead of the kernel) states what dispatch guarantees,
// and rules 7 and 8 when it must stay in step. Each member joins with its own Wakeup, which then
// forwards its timed wake-ups here, and with its process body; the owner calls dispatch() from one
// SC_METHOD sensitive to event(). With many modules (fermi-gtx480's 15 cores, 30 L1s, 6 L2 slices
// and DRAM channels) one kernel event for all also costs less than a timed kernel event per module
// per wake-up, and ahead of the kernel a simulated time step costs none. A member running cycles
// ahead by itself (sm::Core) asks next_due() first.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/common/clock.h"
#include "models/common/wakeup.h"

namespace gputlm {

class SharedEdges {
 public:
  const sc_core::sc_event& event() const { return m_event; }
  // `own` forwards its timed wake-ups here; `run` is its process body, called when one is due;
  // `clock` (its clock domain) follows the time dispatch runs it at. A member's times are edges of
  // its own clock, so `run` never needs to wait for an edge.
  void join(Wakeup& own, ClockDomain& clock, std::function<void()> run);
  // The members' present (the kernel's time unless dispatch runs them ahead).
  const SystemTime& time() const { return m_time; }
  // Dispatch may run the members ahead of the kernel while `check` says yes and the time is
  // before *horizon (a time value); without a check, never.
  void run_ahead_while(std::function<bool()> check, const uint64_t* horizon) {
    m_may_run_ahead = std::move(check);
    m_horizon = horizon;
  }
  // The earliest time (its value) a member asked for and has not run at yet (~0: none): now, while
  // members due now are still to run after the one running.
  uint64_t next_due() const { return m_pass_next < m_now.size() ? m_pass_time : m_earliest; }
  // Whether any member was traced (waves): then dispatch never runs ahead (the trace files
  // sample what the modules show at the kernel's time).
  void keep_in_step() { m_in_step = true; }
  // Member `member` asks to run at `when` (not earlier than now; its Wakeup asks for each time
  // once).
  void at(const sc_core::sc_time& when, uint32_t member);
  // The owner's SC_METHOD body.
  void dispatch();

 private:
  struct Member {
    std::function<void()> run;
    std::vector<uint64_t> times;  // ascending (values): the times it asked for and has not run at
  };
  static constexpr uint64_t kNone = ~uint64_t{0};
  void arm(uint64_t when);     // notifies m_event at `when`
  void run_due(uint64_t now);  // the members due at or before `now`, in the order they joined
  bool may_run_ahead_to(uint64_t when);
  // Outside dispatch(), m_event's pending notification is at the earliest time asked for, m_armed;
  // dispatch() arms it once at its end, for whatever its members asked for.
  sc_core::sc_event m_event;
  uint64_t m_armed = kNone;
  bool m_dispatching = false;
  // In the order they joined. Few (a core's pipeline, caches, crossbar, DRAM; 58 on fermi-gtx480):
  // a look at each member's earliest time per time step costs less than a heap entry per wake-up.
  std::vector<Member> m_members;
  // Per member, the first of its times (kNone: none), side by side: a time step's look at every
  // member reads these few lines and touches a member only when it is due (a 132-SM GPU has some
  // 600 members).
  std::vector<uint64_t> m_first;
  uint64_t m_earliest = kNone;  // the earliest of their times
  std::vector<uint32_t> m_now;  // dispatch's scratch: the members due now
  size_t m_pass_next = 0;       // ... the next of them to run
  uint64_t m_pass_time = 0;     // ... and their time
  SystemTime m_time;
  std::function<bool()> m_may_run_ahead;
  const uint64_t* m_horizon = nullptr;
  bool m_in_step = false;          // see keep_in_step
  uint64_t m_kernel_next = kNone;  // this dispatch's memo: the kernel's earliest pending activity
};

}  // namespace gputlm
