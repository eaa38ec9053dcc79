#include "models/func/cta_barriers.h"

#include <sstream>

#include "models/func/exec_context.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

CtaBarriers::CtaBarriers(CtaState& cta) : m_cta(&cta), m_threads(cta.nthreads) {}

bool CtaBarriers::arrive(uint32_t warp, const ExecResult& r, uint32_t pc) {
  const uint32_t id = r.barrier_id;
  m_arrived[id] += popcount(r.active);
  m_expected[id] = r.barrier_count;
  if (r.barrier_red != isa::AtomOp::None) {
    Reduction& red = m_red[id];
    red.op = r.barrier_red;
    red.true_count += popcount(r.barrier_red_true & r.active);
    red.false_count += popcount(r.active & ~r.barrier_red_true);
    for_each_lane(r.active, [&](unsigned lane) {
      red.dsts.emplace_back(r.barrier_red_dst, static_cast<uint32_t>(r.addr[lane]));
    });
  }
  if (r.barrier_arrive) return false;
  m_waiting[id].push_back({warp, r.active, pc});
  ++m_waiters;
  return true;
}

// bar.red.popc.u32: the number of threads whose predicate held; .and.pred: whether it held in all
// of them; .or.pred: in any of them.
void CtaBarriers::write_reduction(Reduction& red) {
  if (red.op == isa::AtomOp::None) return;
  const uint64_t value = red.op == isa::AtomOp::Add   ? red.true_count
                         : red.op == isa::AtomOp::And ? (red.false_count == 0)
                                                      : (red.true_count > 0);
  for (const auto& [reg, tid] : red.dsts) m_cta->reg(reg, tid) = value;
  red = Reduction{};
}

void CtaBarriers::release_completed(const std::function<void(uint32_t warp)>& release) {
  const uint32_t live = m_threads - m_exited;
  for (uint32_t id = 0; id < m_arrived.size(); ++id) {
    if (m_arrived[id] == 0) continue;  // bar.arrive alone may complete a barrier nobody waits at
    const uint32_t target = m_expected[id] ? m_expected[id] : live;
    if (m_arrived[id] < target) continue;
    m_arrived[id] = 0;
    write_reduction(m_red[id]);
    std::vector<Waiter>& waiting = m_waiting[id];  // release() only marks warps ready
    m_waiters -= static_cast<uint32_t>(waiting.size());
    for (const Waiter& w : waiting) release(w.warp);
    waiting.clear();  // keeps its capacity for the next round
  }
}

std::string CtaBarriers::deadlock_message(const Launch& launch, const Dim3& ctaid,
                                          const std::function<LaneMask(uint32_t)>& alive,
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
  os << "barrier " << id << " can never complete: " << m_arrived[id] << " of " << target
     << " threads arrived";
  if (stuck)
    os << " (" << stuck
       << " threads of the waiting warps are on other paths: a barrier in divergent code)";
  os << "; CTA " << ctaid.str() << ", thread " << base_tid(first.warp) + lowest_lane(first.lanes)
     << " (warp " << first.warp << "), PC " << first.pc << ", " << launch.kernel->where(first.pc);
  return os.str();
}

}  // namespace gputlm::func
