// The per-warp and per-CTA state a core keeps for its resident threads (no SystemC): warp slots
// with their SIMT stack and pipeline bookkeeping, CTA slots with their architectural state and
// barriers. Stages and policies read it; the core owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/common/clock.h"
#include "models/func/bound_kernel.h"
#include "models/func/cta_barriers.h"
#include "models/func/simt_stack.h"
#include "models/sm/memory/copy_groups.h"

namespace gputlm::sm {

struct WarpSlot {
  enum class Status : uint8_t { Free = 0, Ready = 1, Barrier = 2, Done = 3 };
  Status status = Status::Free;
  uint32_t cta_slot = 0;
  uint32_t index_in_cta = 0;
  uint32_t base_tid = 0;  // first thread of the warp in its CTA
  LaneMask valid = 0;     // lanes that are threads
  func::SimtStack<LaneMask> stack;
  uint64_t age = 0;              // order in which warps became resident (GTO's "oldest")
  uint32_t inflight = 0;         // instructions between fetch and writeback
  bool control_pending = false;  // an in-flight instruction decides the next PC
  bool draining =
      false;  // its stack is done, its last instructions still in flight (CoreContext::ending)
  uint32_t waiting_memory = 0;  // instructions (sub-warps) set aside for their lines
  Cycle waiting_since = 0;      // since when the first of them (valid while waiting_memory)
  // Scoreboard: registers an in-flight instruction of the warp writes, marked when it is fetched
  // and cleared when it retires.
  std::vector<uint64_t> pending_regs;
  uint64_t ibuffer_line = ~0ull;  // instruction-fetch line held in the warp's buffer
  Cycle eligible_from = 0;  // barrel: first cycle after its last instruction left the pipeline
  CopyGroups copies;        // its cp.async groups (memory/copy_groups.h)
  // Its bulk groups (cp.async.bulk and cp.reduce.async.bulk with .bulk_group, PTX ISA
  // 9.7.9.25.4), made at its first bulk copy: as cp.async groups, counted twice: a copy is read
  // once its lines are all sent (wait_group.read), written once they have all returned
  // (wait_group).
  struct BulkGroups {
    CopyGroups reads, writes;
  };
  std::unique_ptr<BulkGroups> bulk;

  bool active() const { return status == Status::Ready || status == Status::Barrier; }
  bool register_pending(int32_t r) const {
    return (pending_regs[static_cast<size_t>(r) >> 6] >> (r & 63)) & 1;
  }
  void set_register_pending(int32_t r, bool pending) {
    const uint64_t bit = 1ull << (r & 63);
    uint64_t& word = pending_regs[static_cast<size_t>(r) >> 6];
    word = pending ? word | bit : word & ~bit;
  }
};

struct CtaSlot {
  bool valid = false;
  const func::BoundKernel* kernel = nullptr;
  std::unique_ptr<func::CtaState> state;
  std::unique_ptr<func::CtaBarriers> barriers;
  std::vector<uint32_t> warp_slots;  // the core's slots holding this CTA's warps
  uint32_t warps_done = 0;
};

}  // namespace gputlm::sm
