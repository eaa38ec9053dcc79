// How a core groups threads into what it issues: a plain C++ policy chosen by name ("formation").
// The baseline ("static") forms warps of 32 consecutive threads, each with its own SIMT stack;
// large warps ("lwm") and compaction plug in here without touching the pipeline stages. The fetch
// stage asks the policy what a warp slot issues next; one fetched instruction may issue as
// several units (sub-warps), one a cycle, while fetch waits; writeback hands each unit's result
// back. The slot's `stack` stays the pipeline's view of the slot (done, PC, active lanes).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/func/cta_state.h"
#include "models/isa/kernel.h"
#include "models/sm/warp_slot.h"

namespace gputlm::sm {

// The threads of one warp slot of a new CTA: `threads` consecutive threads from `base_tid`.
struct WarpLayout {
  uint32_t base_tid = 0;
  uint32_t threads = 0;
  LaneMask valid = 0;  // the lanes of the first row
};

// The slots of a CTA of `threads` threads in blocks of `block` consecutive threads (the last one
// partial): a warp, a large warp, a compaction block.
std::vector<WarpLayout> block_layout(uint32_t threads, uint32_t block);

// What a warp slot issues: a PC, the threads (lane -> CTA thread) and the active lanes. `threads`
// is how many threads of the SIMT mask the unit stands for (thread-instruction count: its lanes,
// plus threads a large warp skips or covers without a lane of their own). A unit with `bubble`
// set issues nothing this cycle (its threads are still busy with the previous instruction).
struct IssueUnit {
  uint32_t pc = 0;
  func::ThreadGroup group;
  LaneMask lanes = 0;
  uint32_t threads = 0;
  uint32_t tag = 0;  // the policy's name for the instruction the unit belongs to
  bool bubble = false;
};

// What the policy may look at when it forms a unit: the kernel and the CTA's registers (a large
// warp packs only the threads whose guard holds, Sec. 4.2.3 "predicated instructions").
struct FormationInput {
  const isa::Kernel& kernel;
  func::CtaState& cta;
};

// Parameters of the formation policies (config keys under core.lwm, core.tbc and core.dwf).
struct FormationParams {
  uint32_t large_warp_size = 256;  // threads per large warp (dissertation Sec. 5.3: 256 is best)
  bool perfect_register_file = false;  // "LWM perfRF": any thread in any lane (Sec. 5.3.1)
  bool memory_rows =
      true;  // memory divergence optimisation: one sub-warp per row for global memory
  bool single_jump = true;      // unconditional branch optimisation: a jump forms one sub-warp
  bool pack_predicated = true;  // pack only the threads whose guard holds
  // Re-fetch of a large warp: after its first sub-warp completed (dissertation Sec. 4.2.2, with a
  // dependency bit per thread) or after all of them (MICRO 2011 Sec. 3.3, no interlock needed).
  bool refetch_after_all = false;
  // Only busy threads left to form: suspend the instruction and fetch others (chosen) or wait.
  bool suspend_on_busy = true;
  // Thread block compaction: threads per block sharing one divergence stack (Narasiman
  // dissertation Sec. 5.1: 256). Dynamic warp formation: threads per warp pool (chosen: 256, a
  // pool does not span CTAs).
  uint32_t block_threads = 256;
  // Dynamic warp formation's issue priority: the PC most threads wait at ("majority") or the
  // fewest post-dominators passed ("pdom") (MICRO 2011 Sec. 6).
  bool pdom_priority = false;
};

class IWarpFormation {
 public:
  virtual ~IWarpFormation() = default;
  // Warp slots a CTA of `threads` threads occupies, and their threads.
  virtual std::vector<WarpLayout> layout(uint32_t threads) = 0;
  // Slot `slot` now holds the warp `l` of a CTA running `k` (the slot's fields and stack are set as
  // for a 32-thread warp).
  virtual void start(uint32_t slot, WarpSlot& w, const WarpLayout& l, const isa::Kernel& k) {
    (void)slot, (void)w, (void)l, (void)k;
  }
  // What slot `slot` issues next, or nullopt if it has finished. Only looks: a fetch that must wait
  // for the I-cache asks again later. When `forming(slot)`, the next unit of the instruction begun.
  virtual std::optional<IssueUnit> next(uint32_t slot, const WarpSlot& w,
                                        const FormationInput& in) = 0;
  // The unit `next` gave went down the pipeline (or, a bubble, used the cycle).
  virtual void issued(uint32_t slot, WarpSlot& w, const IssueUnit& u) {
    (void)slot, (void)w, (void)u;
  }
  // The instruction begun has more units to form now: fetch forms them before fetching another
  // (a policy may also set one aside, then may_fetch() says when it can go on).
  virtual bool forming(uint32_t slot) const {
    (void)slot;
    return false;
  }
  // The instruction begun still has threads not yet in a unit, set aside or not (a large warp
  // suspended on busy threads): a barrier's first units must not stop the slot before the rest.
  virtual bool unformed(uint32_t slot) const { return forming(slot); }
  // Barrel processing: whether the slot may be fetched again (the baseline: nothing in flight).
  virtual bool may_fetch(uint32_t slot, const WarpSlot& w) const {
    (void)slot;
    return w.inflight == 0;
  }
  // The unit `u` issued from `w` has executed (`r`): update the slot's control state (PC,
  // active mask, divergence stack).
  virtual void retire(uint32_t slot, WarpSlot& w, const IssueUnit& u, const isa::Kernel& k,
                      const func::ExecResult& r) = 0;
  // Waves: the rows of a slot's active mask (one for 32-thread warps).
  // Whether it runs kernels with device-function calls (its SIMT stacks follow call/ret).
  virtual bool supports_calls() const { return false; }
  virtual uint32_t rows() const { return 1; }
  virtual LaneMask row_mask(uint32_t slot, const WarpSlot& w, uint32_t row) const {
    (void)slot, (void)row;
    return w.stack.done() ? 0 : w.stack.mask();
  }
  // Threads of one slot at most (how many slots a core's threads fill).
  virtual uint32_t slot_threads() const { return kWarpSize; }
};

using WarpFormationFactory = std::function<std::unique_ptr<IWarpFormation>(const FormationParams&)>;

struct WarpFormationRegistration {
  WarpFormationRegistration(const char* name, WarpFormationFactory f);
};
std::unique_ptr<IWarpFormation> make_warp_formation(const std::string& name,
                                                    const FormationParams& params = {});

}  // namespace gputlm::sm
