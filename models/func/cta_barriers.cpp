#include "models/func/cta_barriers.h"

#include <sstream>

#include "models/isa/kernel.h"

namespace gputlm::func {

void CtaBarriers::arrive(uint32_t warp, uint32_t id, uint32_t count, LaneMask lanes, uint32_t pc) {
  m_arrived[id] += popcount(lanes);
  m_expected[id] = count;
  m_waiting[id].push_back({warp, lanes, pc});
  ++m_waiters;
}

void CtaBarriers::release_completed(const std::function<void(uint32_t warp)>& release) {
  const uint32_t live = m_threads - m_exited;
  for (uint32_t id = 0; id < m_arrived.size(); ++id) {
    if (m_waiting[id].empty()) continue;
    const uint32_t target = m_expected[id] ? m_expected[id] : live;
    if (m_arrived[id] < target) continue;
    m_arrived[id] = 0;
    std::vector<Waiter> waiting;
    waiting.swap(m_waiting[id]);
    m_waiters -= static_cast<uint32_t>(waiting.size());
    for (const Waiter& w : waiting) release(w.warp);
  }
}

std::string CtaBarriers::deadlock_message(const Launch& launch, const Dim3& ctaid, const std::function<LaneMask(uint32_t)>& alive,
                                          const std::function<uint32_t(uint32_t)>& base_tid) const {
  std::ostringstream os;
  os << "kernel fault in '" << launch.kernel->name << "': ";
  uint32_t id = 0;
  while (id < m_waiting.size() && m_waiting[id].empty()) ++id;
  if (id == m_waiting.size()) {
    os << "no warp can make progress; CTA " << ctaid.str();
    return os.str();
  }
  const uint32_t target = m_expected[id] ? m_expected[id] : m_threads - m_exited;
  uint32_t stuck = 0;  // threads of waiting warps that are on other paths of their warp
  for (const auto& list : m_waiting)
    for (const Waiter& w : list) stuck += popcount(alive(w.warp) & ~w.lanes);
  const Waiter& first = m_waiting[id].front();
  os << "barrier " << id << " can never complete: " << m_arrived[id] << " of " << target << " threads arrived";
  if (stuck) os << " (" << stuck << " threads of the waiting warps are on other paths: a barrier in divergent code)";
  os << "; CTA " << ctaid.str() << ", thread " << base_tid(first.warp) + lowest_lane(first.lanes) << " (warp " << first.warp
     << "), PC " << first.pc << ", " << launch.kernel->where(first.pc);
  return os.str();
}

}  // namespace gputlm::func
