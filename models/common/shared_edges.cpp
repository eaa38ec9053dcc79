#include "models/common/shared_edges.h"

#include <algorithm>

namespace gputlm {

void Wakeup::forward(const sc_core::sc_time& when) { m_shared->at(when, m_member); }

bool Wakeup::forward_now() {
  if (!m_shared->time().ahead()) return false;
  forward(time_from_value(m_shared->time().value()));
  return true;
}

void Wakeup::keep_in_step() {
  m_in_step = true;
  if (m_shared) m_shared->keep_in_step();
}

void SharedEdges::join(Wakeup& own, ClockDomain& clock, std::function<void()> run) {
  own.forward_to(*this, static_cast<uint32_t>(m_members.size()));
  if (own.in_step()) keep_in_step();
  clock.follow(m_time);
  m_members.push_back({std::move(run), {}});
  m_first.push_back(kNone);
}

void SharedEdges::at(const sc_core::sc_time& when, uint32_t member) {
  const uint64_t w = when.value();
  std::vector<uint64_t>& times = m_members[member].times;
  if (times.empty() || times.back() < w) {
    times.push_back(w);
  } else {
    auto it = std::lower_bound(times.begin(), times.end(), w);
    if (*it == w) return;
    times.insert(it, w);
  }
  m_first[member] = times.front();
  m_earliest = std::min(m_earliest, w);
  if (!m_dispatching && w < m_armed) arm(w);
}

void SharedEdges::arm(uint64_t when) {
  m_armed = when;
  m_event.notify(time_from_value(when - sim_now().value()));
}

void SharedEdges::run_due(uint64_t now) {
  m_now.clear();
  uint64_t earliest = kNone;
  for (uint32_t m = 0; m < m_first.size(); ++m) {
    if (m_first[m] <= now) {  // kNone never is
      m_now.push_back(m);
      std::vector<uint64_t>& times = m_members[m].times;
      if (times.back() <= now) {  // the usual case: nothing further asked for yet
        times.clear();
        m_first[m] = kNone;
        continue;
      }
      times.erase(times.begin(), std::upper_bound(times.begin(), times.end(), now));
      m_first[m] = times.front();
    }
    earliest = std::min(earliest, m_first[m]);
  }
  m_earliest = earliest;  // the members run now lower it by what they ask for
  m_pass_time = now;
  for (m_pass_next = 0; m_pass_next < m_now.size();) m_members[m_now[m_pass_next++]].run();
}

// Nothing but the members can run before `when`: no other process is pending in the kernel before
// it (m_event is not armed while dispatch runs), the running sc_start goes on past it, and the
// owner's check allows it. The kernel is asked once a dispatch, after the members due at its time
// have run: ahead of it, they make nothing pending there (their wake-ups come here, Wakeup::now
// included; the owner's check keeps them in step when they might, as a core whose CTA is about to
// finish).
bool SharedEdges::may_run_ahead_to(uint64_t when) {
  if (m_in_step || !m_may_run_ahead || !m_horizon || when >= *m_horizon || !m_may_run_ahead())
    return false;
  if (m_kernel_next == kNone)
    m_kernel_next = sim_now().value() + sc_core::sc_time_to_pending_activity().value();
  return when < m_kernel_next;
}

void SharedEdges::dispatch() {
  m_armed = kNone;
  m_dispatching = true;
  m_kernel_next = kNone;
  uint64_t now = sim_now().value();
  run_due(now);
  // A member run here may ask for now again (a zero-cycle wait): the dispatch then runs again a
  // delta later (or, ahead of the kernel, at that time once the kernel gets there).
  while (m_earliest != kNone && m_earliest > now && may_run_ahead_to(m_earliest)) {
    now = m_earliest;
    m_time.run_ahead(now);
    run_due(now);
  }
  m_time.catch_up();
  m_dispatching = false;
  if (m_earliest != kNone) arm(m_earliest);
}

}  // namespace gputlm
