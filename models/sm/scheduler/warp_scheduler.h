// Which ready warp the fetch stage takes next: a plain C++ policy chosen by name ("scheduler"),
// registered in a Registry and unit-tested without a SystemC kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/clock.h"
#include "models/sm/scheduler/slot_set.h"
#include "models/sm/warp_slot.h"

namespace gputlm::sm {

// What a scheduler is built with (from the core's config).
struct SchedulerParams {
  uint32_t slots = 32;  // warp slots of the core
  // Two-level scheduling (config keys fetch_group_size, fetch_group_timeout, long_latency_cycles):
  uint32_t fetch_group_size = 8;  // warp slots per fetch group (dissertation Sec. 5.2: 8 is best)
  uint64_t group_timeout =
      0;  // switch after this many fetches from one group (0: never; LWM+2Lev: 32K)
  Cycle long_latency_cycles = 2;  // a warp waiting for memory longer than this is stalled on a
                                  // long-latency operation (chosen: more than an L1 hit)

  SchedulerParams with_slots(uint32_t n) const {
    SchedulerParams p = *this;
    p.slots = n;
    return p;
  }
};

class IWarpScheduler {
 public:
  virtual ~IWarpScheduler() = default;
  // One of `eligible` (never empty) to fetch from at `now`; `warps` describes every slot.
  // `fetchable` holds `eligible` and the warps that may be fetched once their wait for time ends
  // (the fetch stage's candidates): a warp there can still be scheduled, so it is not stalled.
  virtual uint32_t pick(const SlotSet& eligible, const SlotSet& fetchable,
                        const std::vector<WarpSlot>& warps, Cycle now) = 0;
  // For callers with no warp waiting for time (tests): every fetchable warp is eligible.
  uint32_t pick(const SlotSet& eligible, const std::vector<WarpSlot>& warps, Cycle now) {
    return pick(eligible, eligible, warps, now);
  }
  // The fetch group with the highest priority (0 for single-level policies), and how often the
  // priority moved to another group: for the statistics and the waves.
  virtual uint32_t prioritized_group() const { return 0; }
  virtual uint64_t group_switches() const { return 0; }
  // Whether the policy has fetch groups (the waves then show the prioritised one).
  virtual bool has_fetch_groups() const { return false; }
};

using WarpSchedulerFactory = std::function<std::unique_ptr<IWarpScheduler>(const SchedulerParams&)>;

struct WarpSchedulerRegistration {
  WarpSchedulerRegistration(const char* name, WarpSchedulerFactory f);
};
std::unique_ptr<IWarpScheduler> make_warp_scheduler(const std::string& name,
                                                    const SchedulerParams& params);
inline std::unique_ptr<IWarpScheduler> make_warp_scheduler(const std::string& name,
                                                           uint32_t slots) {
  return make_warp_scheduler(name, SchedulerParams{}.with_slots(slots));
}

}  // namespace gputlm::sm
