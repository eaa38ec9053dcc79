// What wakes a module's process: an sc_event that remembers every time it was asked to fire at.
// SystemC keeps one pending notification per event (an earlier one replaces a later one, a later
// one is dropped), so a module woken by several links for different cycles would lose all but
// the earliest. A Wakeup keeps the others and arms the next after each run of its owner.
//
// Contract (docs/design/time-model.md, rules 1, 5 and 9): the owner's process is sensitive to
// event() (statically, or in every next_trigger) and calls rearm() at the end of each run; at() is
// given times not earlier than now.
#pragma once

#include <algorithm>
#include <systemc>
#include <vector>

#include "models/common/sim_time.h"

namespace gputlm {

class SharedEdges;  // shared_edges.h

class Wakeup {
 public:
  const sc_core::sc_event& event() const { return m_event; }

  // Runs the owner at absolute simulation time `when` (now: again in this time step, a delta
  // later). Only a new earliest time needs a notification: every time in the list was notified when
  // it was the earliest or came after one that was, and the event keeps the earliest pending one
  // (or it fired, and its owner runs and rearms the next).
  void at(const sc_core::sc_time& when) {
    ++m_asks;
    if (m_shared)
      return forward(when);  // the shared edges keep the member's times (and drop repeats)
    if (m_times.empty() || m_times.back() < when) {  // the usual case: later than all asked for
      m_times.push_back(when);
    } else {
      auto it = std::lower_bound(m_times.begin(), m_times.end(), when);
      if (*it == when) return;
      m_times.insert(it, when);
    }
    if (m_times.front() == when) m_event.notify(when - sim_now());
  }
  // Runs the owner again in the current time step, one delta cycle later (forwarded while the
  // shared edges run ahead of the kernel: again at their time, after the members due then).
  void now() {
    ++m_asks;
    if (m_shared && forward_now()) return;
    m_event.notify(sc_core::SC_ZERO_TIME);
  }
  // How many times the owner was asked to run (at() and now()), over its life: an owner that
  // remembers what the kernel had pending can tell whether its own process has asked for more.
  uint64_t asks() const { return m_asks; }
  // Timed wake-ups go through `shared` (see SharedEdges, whose one process runs the owners due in
  // one fixed order), where the owner is member `member`. Delta wake-ups (now()) stay on this
  // Wakeup's event, except while the shared edges run ahead of the kernel (see now()).
  void forward_to(SharedEdges& shared, uint32_t member) {
    m_shared = &shared;
    m_member = member;
  }
  // The owner is traced (waves sample what it shows at the kernel's time): shared edges it joined
  // or joins never run it ahead of the kernel.
  void keep_in_step();  // shared_edges.cpp
  bool in_step() const { return m_in_step; }
  const SharedEdges* shared() const { return m_shared; }  // see forward_to (null: its own event)
  // While *flag holds, the owner is polled: it runs at every edge of its clock (sleep_until
  // and the core ask for the next cycle). A check against missed wake-ups: a module's outcome must
  // not depend on whether it ran at an edge where it had nothing to do.
  void poll_while(const bool* flag) { m_poll = flag; }
  bool polling() const { return m_poll && *m_poll; }
  // Forgets the times that have come and arms the earliest still to come (a delta notification
  // or an earlier time may have replaced it); forwarded, the shared edges keep their own armed.
  void rearm() {
    if (m_shared) return;
    const uint64_t now = sim_now().value();
    m_times.erase(m_times.begin(), std::upper_bound(m_times.begin(), m_times.end(), now,
                                                    [](uint64_t v, const sc_core::sc_time& t) {
                                                      return v < t.value();
                                                    }));
    if (!m_times.empty()) m_event.notify(m_times.front() - sim_now());
  }

 private:
  void forward(const sc_core::sc_time& when);  // to the shared edges (shared_edges.cpp)
  bool forward_now();  // ... now(), if they run ahead of the kernel (else: a delta notification)
  sc_core::sc_event m_event;
  std::vector<sc_core::sc_time>
      m_times;  // ascending, not yet come when asked for (forwarding: kept there)
  const bool* m_poll = nullptr;
  SharedEdges* m_shared = nullptr;  // see forward_to
  uint32_t m_member = 0;
  uint64_t m_asks = 0;     // see asks()
  bool m_in_step = false;  // see keep_in_step
};

// A clocked module whose process can be polled (Wakeup::poll_while) and whose timed wake-ups can
// go through shared edges (SharedEdges::join); the GPU finds them in its hierarchy.
class Pollable {
 public:
  virtual ~Pollable() = default;
  virtual void poll_while(const bool* flag) = 0;
  virtual void share_edges(SharedEdges& edges) = 0;
};

}  // namespace gputlm
