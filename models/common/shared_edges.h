// The timed wake-ups of several clocked processes that must run in one fixed order when due in
// the same time step (the GPU's cores: their execute stages act on the shared functional memory,
// where atomics and racing loads and stores see each other in that order). Each joins with its
// own Wakeup, which then forwards its timed wake-ups here, and with its process body; the owner
// of SharedEdges calls dispatch() from one SC_METHOD sensitive to event(), which runs, in the
// order they joined, exactly the members whose own wake-up is due. (Each member being sensitive
// to one shared event instead woke every member at every member's wake-up.) A member's delta
// wake-ups (Wakeup::now) stay on its own event and process.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "models/common/wakeup.h"

namespace gputlm {

class SharedEdges {
 public:
  const sc_core::sc_event& event() const { return m_wake.event(); }
  // `own` forwards its timed wake-ups here; `run` is its process body, called when one is due.
  // A member's times are edges of its own clock, so `run` never needs to wait for an edge.
  void join(Wakeup& own, std::function<void()> run) {
    own.forward_to(m_wake);
    m_members.push_back({&own, std::move(run)});
  }
  // The owner's SC_METHOD body.
  void dispatch() {
    for (Member& m : m_members)
      if (m.own->time_due()) m.run();
    m_wake.rearm();
  }

 private:
  struct Member {
    Wakeup* own;
    std::function<void()> run;
  };
  Wakeup m_wake;
  std::vector<Member> m_members;
};

}  // namespace gputlm
