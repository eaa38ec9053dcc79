// Warp scheduling policies.
//   rr   loose round-robin (the papers' baseline, "giving equal priority to each warp"): the first
//        eligible slot after the one picked last.
//   gto  greedy-then-oldest (Rogers et al., MICRO 2012): keep picking the last warp while it is
//        eligible, otherwise the oldest eligible warp (the one resident longest).
//   srr  sticky round-robin, thread block compaction's scheduler (Narasiman dissertation Sec. 5.1:
//        it "performed slightly better than round-robin"): keep picking the last slot while it is
//        eligible, otherwise the first eligible slot after it. With "tbc" a slot is a block, so
//        the scheduler stays with one block while any of its warps can issue (chosen reading).
#include "models/common/registry.h"
#include "models/sm/scheduler/warp_scheduler.h"

namespace gputlm::sm {
namespace {

class RoundRobin : public IWarpScheduler {
 public:
  explicit RoundRobin(uint32_t slots) : m_slots(slots) {}
  uint32_t pick(const SlotSet& eligible, const SlotSet&, const std::vector<WarpSlot>&,
                Cycle) override {
    const uint32_t best = eligible.first_from(m_next, 0, m_slots);
    m_next = best + 1 == m_slots ? 0 : best + 1;
    return best;
  }

 private:
  uint32_t m_slots;
  uint32_t m_next = 0;
};

class StickyRoundRobin : public IWarpScheduler {
 public:
  explicit StickyRoundRobin(uint32_t slots) : m_rr(slots) {}
  uint32_t pick(const SlotSet& eligible, const SlotSet& fetchable,
                const std::vector<WarpSlot>& warps, Cycle now) override {
    if (eligible.contains(m_last)) return m_last;
    m_last = m_rr.pick(eligible, fetchable, warps, now);
    return m_last;
  }

 private:
  RoundRobin m_rr;
  uint32_t m_last = ~0u;
};

class GreedyThenOldest : public IWarpScheduler {
 public:
  uint32_t pick(const SlotSet& eligible, const SlotSet&, const std::vector<WarpSlot>& warps,
                Cycle) override {
    if (eligible.contains(m_last)) return m_last;
    uint32_t best = SlotSet::kNone;
    eligible.for_each([&](uint32_t s) {
      if (best == SlotSet::kNone || warps[s].age < warps[best].age) best = s;
    });
    m_last = best;
    return best;
  }

 private:
  uint32_t m_last = ~0u;
};

const WarpSchedulerRegistration kRr("rr", [](const SchedulerParams& p) {
  return std::make_unique<RoundRobin>(p.slots);
});
const WarpSchedulerRegistration kSrr("srr", [](const SchedulerParams& p) {
  return std::make_unique<StickyRoundRobin>(p.slots);
});
const WarpSchedulerRegistration kGto("gto", [](const SchedulerParams&) {
  return std::make_unique<GreedyThenOldest>();
});

}  // namespace

WarpSchedulerRegistration::WarpSchedulerRegistration(const char* name, WarpSchedulerFactory f) {
  Registry<WarpSchedulerFactory>::instance().add(name, std::move(f));
}

std::unique_ptr<IWarpScheduler> make_warp_scheduler(const std::string& name,
                                                    const SchedulerParams& params) {
  return Registry<WarpSchedulerFactory>::instance().get(name, "warp scheduler")(params);
}

}  // namespace gputlm::sm
