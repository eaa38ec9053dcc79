// A kernel ready to execute: its IR plus the semantic function bound to every instruction, and
// the one entry point that executes a warp instruction for a set of lanes.
#pragma once

#include <vector>

#include "models/func/exec_context.h"

namespace gputlm::func {

class BoundKernel {
 public:
  // Binds every instruction; an opcode/type/modifier combination the engine does not implement
  // is a SourceError at that instruction's line.
  explicit BoundKernel(const isa::Kernel& kernel);

  const isa::Kernel& kernel() const { return *m_kernel; }

  // Executes the instruction at `pc` for the lanes of `active` (the SIMT mask; the guard
  // predicate is applied here) and returns what happened in `result`.
  void execute(uint32_t pc, CtaState& cta, const ThreadGroup& group, LaneMask active,
               uint64_t clock, ExecResult& result) const;

 private:
  const isa::Kernel* m_kernel;
  std::vector<ExecFn> m_fns;
};

}  // namespace gputlm::func
