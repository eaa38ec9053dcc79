// Control instructions (PTX ISA 9.7.13): bra, ret, exit, bar/barrier, bar.warp.sync, membar, fence,
// nanosleep, trap. They only report what happened (ExecResult); the SIMT control of the executor
// or of the core's writeback stage acts on it.
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {

ExecFn bind_control(const isa::Instruction& in) {
  using isa::Opcode;
  switch (in.op) {
    case Opcode::Bra:
      return [](ExecCtx& c) { c.result->taken = c.mask; };
    case Opcode::Ret:
    case Opcode::Exit:
      return [](ExecCtx& c) { c.result->exit = true; };
    case Opcode::Bar:
    case Opcode::Barrier:
      if (in.has(isa::kArrive)) return nullptr;
      // bar.warp.sync (__syncwarp): a warp's threads run in lockstep here, so its threads have
      // all arrived when it executes; with regrouping formations it is a warp collective (class Warp).
      if (in.has(isa::kWarpSync)) return [](ExecCtx&) {};
      return [](ExecCtx& c) {
        if (!c.mask) return;
        const unsigned lane = lowest_lane(c.mask);
        const uint32_t tid = c.group.tid(lane);
        ExecResult& r = *c.result;
        r.barrier = true;
        r.barrier_id = static_cast<uint32_t>(c.raw(c.in->ops[0], lane, tid));
        r.barrier_count = c.in->nops > 1 ? static_cast<uint32_t>(c.raw(c.in->ops[1], lane, tid)) : 0;
        if (r.barrier_id >= 16) c.fault("barrier id " + std::to_string(r.barrier_id) + " out of range 0..15", tid, 0, false);
      };
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Nanosleep:
      return [](ExecCtx&) {};
    case Opcode::Trap:
      return [](ExecCtx& c) {
        if (c.mask) c.fault("trap instruction executed", c.group.tid(lowest_lane(c.mask)), 0, false);
      };
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
