// Applies the control effect of an executed warp instruction to the warp's SIMT stack: branch
// divergence with reconvergence at the immediate post-dominator, calls and returns, exits, and
// the step to the next instruction. Shared by the reference executor and the timing model's
// writeback.
#pragma once

#include "models/func/exec_context.h"
#include "models/func/simt_stack.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

// brx.idx needs each lane's target: the 32-lane overload below takes it; formations with wider
// masks refuse kernels that have one (sm::Core::check_kernel).
template <class Mask>
void apply_control(SimtStack<Mask>& stack, const isa::Kernel& kernel, uint32_t pc,
                   Mask taken_or_exited, const isa::Instruction& in) {
  if (in.is_branch()) {
    stack.branch(static_cast<uint32_t>(in.ops[0].imm), pc + 1, taken_or_exited,
                 kernel.cfg.reconv_pc[pc]);
  } else if (in.is_call()) {  // direct calls only; the 32-lane overload below also takes indirect
                              // ones
    const isa::CallSite& site = kernel.calls[static_cast<size_t>(in.ops[0].imm)];
    stack.call(kernel.functions.at(site.callee).entry_pc, pc + 1, taken_or_exited);
  } else if (in.is_return()) {
    stack.ret(taken_or_exited, pc + 1);
  } else if (in.is_exit()) {
    stack.exit(taken_or_exited, pc + 1);
  } else {
    stack.advance(pc + 1);
  }
}

// The common case of a 32-lane warp: the mask that matters is the result's active lanes (lanes
// that branched or called, for bra and call; lanes that exited or returned, for ret/exit).
// The taken lanes grouped by their target pc in r.addr (in the order of their lowest lane), then
// the lanes of `rest` (if any) going to pc `rest_pc`; returns the number of groups.
inline size_t group_by_target(const ExecResult& r, LaneMask rest, uint32_t rest_pc,
                              std::pair<uint32_t, LaneMask>* groups) {
  size_t n = 0;
  auto add = [&](uint32_t target, LaneMask lanes) {
    size_t g = 0;
    while (g < n && groups[g].first != target) ++g;
    if (g == n) groups[n++] = {target, 0};
    groups[g].second |= lanes;
  };
  for_each_lane(r.taken, [&](unsigned lane) {
    add(static_cast<uint32_t>(r.addr[lane]), LaneMask{1} << lane);
  });
  if (rest) add(rest_pc, rest);
  return n;
}

// "its" (simt_stack.h): the lanes a join point names, or false if `in` is none: bar.warp.sync's
// member mask (every lane when it is a register: a simplification), every lane for a CTA barrier.
inline bool join_lanes(const isa::Instruction& in, LaneMask& lanes) {
  const bool warp_sync =
      (in.op == isa::Opcode::Bar || in.op == isa::Opcode::Barrier) && in.has(isa::kWarpSync);
  if (!warp_sync && !in.is_barrier()) return false;
  lanes = warp_sync && in.ops[0].kind == isa::OperandKind::Imm
              ? static_cast<LaneMask>(static_cast<uint32_t>(in.ops[0].imm))
              : ~LaneMask{0};
  return true;
}

// "its": lets the paths at a join point wait for the lanes it names (SimtStack::join) until the
// top path may execute its instruction. Paths waiting at different join points for each other
// go on with the lanes they have after a bounded number of turns.
inline void settle(SimtStack<LaneMask>& stack, const isa::Kernel& kernel) {
  if (!stack.its()) return;
  for (size_t turns = 2 * stack.depth() + 2; turns > 0 && !stack.done(); --turns) {
    LaneMask lanes = 0;
    if (!join_lanes(kernel.code[stack.pc()], lanes) || !stack.join(stack.pc(), lanes)) return;
  }
}

inline void apply_control(SimtStack<LaneMask>& stack, const isa::Kernel& kernel, uint32_t pc,
                          const ExecResult& r) {
  const isa::Instruction& in = kernel.code[pc];
  if (kernel.calls_through_pointer(in)) {
    // Lanes calling through pointers: one call entry per distinct callee (its first pc in r.addr).
    std::pair<uint32_t, LaneMask>
        groups[kWarpSize];  // (in the branch: every instruction passes here)
    stack.call_each(pc + 1, groups, group_by_target(r, 0, 0, groups));
  } else if (in.is_indexed_branch()) {  // brx.idx: one path per distinct target, then the guard's
                                        // false lanes' fall-through
    std::pair<uint32_t, LaneMask> groups[kWarpSize + 1];
    stack.branch_each(kernel.cfg.reconv_pc[pc], groups,
                      group_by_target(r, stack.mask() & ~r.taken, pc + 1, groups));
  } else {
    apply_control<LaneMask>(stack, kernel, pc, in.is_branch() || in.is_call() ? r.taken : r.active,
                            in);
    if (stack.its() && in.is_branch() && r.taken && !stack.done()) {
      const uint32_t target = static_cast<uint32_t>(in.ops[0].imm);
      if (target <= pc && stack.pc() == target) stack.yield();  // a back edge taken
    }
  }
  settle(stack, kernel);
}

}  // namespace gputlm::func
