// "2lev": two-level round-robin warp scheduling (Narasiman, Shebanow, Lee, Miftakhutdinov, Mutlu,
// Patt, MICRO 2011, Sec. 4; dissertation Sec. 4.2). The warp slots form fixed fetch groups of
// `fetch_group_size` consecutive slots. Groups have a priority order: the prioritised group's
// eligible warps are picked round-robin among themselves; a lower group issues only when no warp
// of a higher one is eligible (the paper describes a priority order, not exclusive selection).
// "Once all warps in the highest prioritized fetch group are stalled on a long latency operation,
// a fetch group switch occurs": the priority order rotates by one group, the old first becoming
// last. The paper switches "until no warp from that fetch group can be scheduled (i.e., all of the
// warps in the fetch group are stalled)" (Sec. 3.2): a warp counts as stalled on a long-latency
// operation when it cannot be fetched (it is not among the fetch stage's candidates, waiting for
// time or not) and has waited for memory longer than `long_latency_cycles` (chosen: more than an
// L1 hit; the paper's example is a cache miss). A warp still in the pipeline for another reason is
// not stalled (the premature switches of too small a group, TR Sec. 3.2.1, are not modelled). A
// large warp that may be fetched again after its first sub-warp (dissertation Sec. 4.2.2) is not
// stalled while its other sub-warps wait for memory. A group with no live warp has nothing to
// stall on and gives up its priority too. With LWM, one large warp per group may run alone
// through stall-free code; `group_timeout` (the dissertation's "prioritized for more than timeout
// instructions", 32K, Sec. 4.4) switches after that many instructions fetched from the
// prioritised group (a large warp's instruction counts once, however many sub-warps it forms).
#include <algorithm>

#include "models/common/registry.h"
#include "models/sm/scheduler/warp_scheduler.h"

namespace gputlm::sm {
namespace {

class TwoLevel : public IWarpScheduler {
 public:
  explicit TwoLevel(const SchedulerParams& p)
      : m_p(p),
        m_groups((p.slots + p.fetch_group_size - 1) / p.fetch_group_size),
        m_next(m_groups, 0) {}

  uint32_t pick(const SlotSet& eligible, const SlotSet& fetchable,
                const std::vector<WarpSlot>& warps, Cycle now) override {
    // Switch (possibly several times) while the prioritised group has no warp that can go on.
    for (uint32_t i = 0; i + 1 < m_groups && all_stalled(m_first, fetchable, warps, now); ++i)
      rotate();
    if (m_p.group_timeout && m_fetches >= m_p.group_timeout) rotate();
    for (uint32_t k = 0; k < m_groups; ++k) {
      const uint32_t g = (m_first + k) % m_groups;
      const uint32_t lo = g * m_p.fetch_group_size,
                     hi = std::min(lo + m_p.fetch_group_size, m_p.slots);
      // Round-robin inside the group: the first eligible slot at or after the group's pointer.
      const uint32_t best = eligible.first_from(m_next[g], lo, hi);
      if (best == SlotSet::kNone) continue;
      m_next[g] = best + 1 == hi ? lo : best + 1;
      if (g == m_first) ++m_fetches;
      return best;
    }
    return eligible.first_in(0, m_p.slots);  // unreachable: every slot is in a group
  }
  uint32_t prioritized_group() const override { return m_first; }
  uint64_t group_switches() const override { return m_switches; }
  bool has_fetch_groups() const override { return true; }

 private:
  bool all_stalled(uint32_t g, const SlotSet& fetchable, const std::vector<WarpSlot>& warps,
                   Cycle now) const {
    const uint32_t lo = g * m_p.fetch_group_size,
                   hi = std::min<uint32_t>(lo + m_p.fetch_group_size,
                                           static_cast<uint32_t>(warps.size()));
    for (uint32_t s = lo; s < hi; ++s) {
      const WarpSlot& w = warps[s];
      if (!w.active()) continue;
      if (fetchable.contains(s) || !w.waiting_memory ||
          now - w.waiting_since <= m_p.long_latency_cycles)
        return false;
    }
    return true;
  }
  void rotate() {
    m_first = (m_first + 1) % m_groups;
    m_fetches = 0;
    ++m_switches;
  }

  SchedulerParams m_p;
  uint32_t m_groups;
  std::vector<uint32_t> m_next;  // per group: round-robin pointer
  uint32_t m_first = 0;          // the prioritised group
  uint64_t m_fetches = 0;        // fetches from the prioritised group since it got priority
  uint64_t m_switches = 0;
};

const WarpSchedulerRegistration k2Lev("2lev", [](const SchedulerParams& p) {
  return std::make_unique<TwoLevel>(p);
});

}  // namespace
}  // namespace gputlm::sm
