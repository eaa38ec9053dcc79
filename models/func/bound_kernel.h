// A kernel ready to execute: its IR plus the semantic function bound to every instruction, and
// the one entry point that executes a warp instruction for a set of lanes. Operands naming module
// variables (.global/.const: `ld.const [coeffs+4]`, `mov.u64 %rd, table`) get the variables'
// device addresses here, from the ModuleImage the module was loaded into (module_image.h): the
// bound kernel executes its own copy of the instructions with those addresses added.
#pragma once

#include <vector>

#include "models/func/code_layout.h"
#include "models/func/exec_context.h"
#include "models/func/module_image.h"

namespace gputlm::func {

class BoundKernel {
 public:
  // Binds every instruction; an opcode/type/modifier combination the engine does not implement
  // is a SourceError at that instruction's line, as is an operand naming a module variable when
  // `image` is null or lacks it. `code_address`: where its code lies (CodeLayout::place).
  explicit BoundKernel(const isa::Kernel& kernel, const ModuleImage* image = nullptr,
                       uint64_t code_address = 0);

  const isa::Kernel& kernel() const { return *m_kernel; }
  // The device address of its first instruction, for instruction fetches (code_layout.h).
  uint64_t code_address() const { return m_code_address; }

  // Executes the instruction at `pc` for the lanes of `active` (the SIMT mask; the guard
  // predicate is applied here) and returns what happened in `result`.
  // Inline: called once per warp instruction.
  void execute(uint32_t pc, CtaState& cta, const ThreadGroup& group, LaneMask active,
               uint64_t clock, ExecResult& result) const;

  // What the timing model asks of the instruction at `pc` for every warp instruction, worked out
  // once here: its registers and its class.
  const isa::InstructionRegisters& registers(uint32_t pc) const { return m_registers[pc]; }
  isa::InstrClass instr_class(uint32_t pc) const { return m_classes[pc]; }

 private:
  const isa::Kernel* m_kernel;
  uint64_t m_code_address;
  std::vector<isa::Instruction> m_code;  // kernel.code with module variable addresses bound
  std::vector<ExecFn> m_fns;
  std::vector<isa::InstructionRegisters> m_registers;
  std::vector<isa::InstrClass> m_classes;
};

inline void BoundKernel::execute(uint32_t pc, CtaState& cta, const ThreadGroup& group,
                                 LaneMask active, uint64_t clock, ExecResult& result) const {
  const isa::Instruction& in = m_code[pc];
  LaneMask mask = active;
  if (in.guard >= 0) {
    LaneMask held = 0;
    if (active == kFullMask && !group.tids) {  // a whole warp of consecutive threads: one pointer
      const uint64_t* g = &cta.reg(in.guard, group.base_tid);
      const uint64_t neg = in.guard_neg ? 1 : 0;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        held |= static_cast<LaneMask>((g[lane] & 1) != neg) << lane;
    } else {
      for_each_lane(active, [&](unsigned lane) {
        if (cta.guard_holds(in, group.tid(lane))) held |= 1u << lane;
      });
    }
    mask = held;
  }
  result.clear();
  result.active = mask;
  ExecCtx c;
  c.in = &in;
  c.pc = pc;
  c.cta = &cta;
  c.group = group;
  c.mask = mask;
  c.clock = clock;
  c.result = &result;
  m_fns[pc](c);
}

}  // namespace gputlm::func
