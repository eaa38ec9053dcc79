// Applies the control effect of an executed warp instruction to the warp's SIMT stack: branch
// divergence with reconvergence at the immediate post-dominator, calls and returns, exits, and
// the step to the next instruction. Shared by the reference executor and the timing model's writeback.
#pragma once

#include "models/func/exec_context.h"
#include "models/func/simt_stack.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

template <class Mask>
void apply_control(SimtStack<Mask>& stack, const isa::Kernel& kernel, uint32_t pc, Mask taken_or_exited,
                   const isa::Instruction& in) {
  if (in.is_branch()) {
    stack.branch(static_cast<uint32_t>(in.ops[0].imm), pc + 1, taken_or_exited, kernel.cfg.reconv_pc[pc]);
  } else if (in.is_call()) {  // direct calls only; the 32-lane overload below also takes indirect ones
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
inline void apply_control(SimtStack<LaneMask>& stack, const isa::Kernel& kernel, uint32_t pc, const ExecResult& r) {
  const isa::Instruction& in = kernel.code[pc];
  if (in.is_call() && kernel.calls[static_cast<size_t>(in.ops[0].imm)].callee == isa::CallSite::kIndirect) {
    // Lanes calling through pointers: one call entry per distinct callee (its first pc in r.addr).
    std::pair<uint32_t, LaneMask> groups[kWarpSize];
    size_t n = 0;
    for_each_lane(r.taken, [&](unsigned lane) {
      const auto target = static_cast<uint32_t>(r.addr[lane]);
      size_t g = 0;
      while (g < n && groups[g].first != target) ++g;
      if (g == n) groups[n++] = {target, 0};
      groups[g].second |= LaneMask{1} << lane;
    });
    return stack.call_each(pc + 1, groups, n);
  }
  apply_control<LaneMask>(stack, kernel, pc, in.is_branch() || in.is_call() ? r.taken : r.active, in);
}

}  // namespace gputlm::func
