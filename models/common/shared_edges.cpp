#include "models/common/shared_edges.h"

#include <algorithm>

namespace gputlm {

void Wakeup::forward(const sc_core::sc_time& when) { m_shared->at(when, m_member); }

void SharedEdges::join(Wakeup& own, std::function<void()> run) {
  own.forward_to(*this, static_cast<uint32_t>(m_members.size()));
  m_members.push_back(std::move(run));
}

void SharedEdges::at(const sc_core::sc_time& when, uint32_t member) {
  m_heap.push_back({when.value(), member});
  std::push_heap(m_heap.begin(), m_heap.end(), std::greater<Due>());
  if (!m_dispatching && when.value() < m_armed) arm(when.value());
}

void SharedEdges::arm(uint64_t when) {
  m_armed = when;
  m_event.notify(sc_core::sc_time::from_value(when - sim_now().value()));
}

void SharedEdges::dispatch() {
  const uint64_t now = sim_now().value();
  m_armed = kNone;
  m_dispatching = true;
  m_now.clear();
  // All due now: they come off the heap in the order the members joined (its second key).
  while (!m_heap.empty() && m_heap.front().when <= now) {
    m_now.push_back(m_heap.front().member);
    std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<Due>());
    m_heap.pop_back();
  }
  // A member run here may ask for now again (a zero-cycle wait): the dispatch then runs again a
  // delta later.
  for (uint32_t m : m_now) m_members[m]();
  m_dispatching = false;
  if (!m_heap.empty()) arm(m_heap.front().when);
}

}  // namespace gputlm
