// Which ready warp the fetch stage takes next: a plain C++ policy chosen by name ("scheduler"),
// registered in a Registry and unit-tested without a SystemC kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/clock.h"
#include "models/sm/warp_slot.h"

namespace gputlm::sm {

class IWarpScheduler {
 public:
  virtual ~IWarpScheduler() = default;
  // One of `eligible` (slot numbers, ascending, never empty) to fetch from at `now`; `warps`
  // describes every slot.
  virtual uint32_t pick(const std::vector<uint32_t>& eligible, const std::vector<WarpSlot>& warps, Cycle now) = 0;
};

using WarpSchedulerFactory = std::function<std::unique_ptr<IWarpScheduler>(uint32_t slots)>;

struct WarpSchedulerRegistration {
  WarpSchedulerRegistration(const char* name, WarpSchedulerFactory f);
};
std::unique_ptr<IWarpScheduler> make_warp_scheduler(const std::string& name, uint32_t slots);

}  // namespace gputlm::sm
