// How a core groups threads into what it issues: a plain C++ policy chosen by name ("formation").
// The baseline ("static") forms warps of 32 consecutive threads, each with its own SIMT stack;
// large warps and compaction plug in here without touching the pipeline stages: the fetch stage
// asks the policy what a warp slot issues next, and writeback hands the result back to it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/isa/kernel.h"
#include "models/sm/warp_slot.h"

namespace gputlm::sm {

// The threads of one warp slot of a new CTA.
struct WarpLayout {
  uint32_t base_tid = 0;
  LaneMask valid = 0;
};

// What a warp slot issues: a PC, the threads (lane -> CTA thread) and the active lanes.
struct IssueUnit {
  uint32_t pc = 0;
  func::ThreadGroup group;
  LaneMask lanes = 0;
};

class IWarpFormation {
 public:
  virtual ~IWarpFormation() = default;
  // Warp slots a CTA of `threads` threads occupies, and their threads.
  virtual std::vector<WarpLayout> layout(uint32_t threads) = 0;
  // What slot `w` issues next, or nullopt if it has nothing to issue (finished).
  virtual std::optional<IssueUnit> next(const WarpSlot& w) = 0;
  // The instruction `u` issued from `w` has executed (`r`): update the slot's control state (PC,
  // active mask, divergence stack).
  virtual void retire(WarpSlot& w, const IssueUnit& u, const isa::Kernel& k, const func::ExecResult& r) = 0;
};

using WarpFormationFactory = std::function<std::unique_ptr<IWarpFormation>()>;

struct WarpFormationRegistration {
  WarpFormationRegistration(const char* name, WarpFormationFactory f);
};
std::unique_ptr<IWarpFormation> make_warp_formation(const std::string& name);

}  // namespace gputlm::sm
