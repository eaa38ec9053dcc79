// Instruction semantics of the functional engine. At kernel load each instruction is bound once
// to a function (ExecFn) specialised for its opcode, type and modifiers; executing is then one
// indirect call per warp instruction and a loop over the active lanes. A combination the engine
// does not implement is reported at bind time with the instruction's location.
#pragma once

#include "models/func/exec_context.h"

namespace gputlm::func {

// The semantic function of `in`, or nullptr if this opcode/type/modifier combination is not
// implemented.
ExecFn bind_instruction(const isa::Instruction& in);

namespace sem {
ExecFn bind_int(const isa::Instruction& in);      // add sub mul mad div rem abs neg min max ...
ExecFn bind_bits(const isa::Instruction& in);     // and or xor not shl shr popc clz brev bfe ...
ExecFn bind_compare(const isa::Instruction& in);  // setp set selp slct
ExecFn bind_move(const isa::Instruction& in);     // mov cvta
ExecFn bind_float(const isa::Instruction& in);    // float arithmetic and special functions
ExecFn bind_convert(const isa::Instruction& in);  // cvt
ExecFn bind_memory(const isa::Instruction& in);   // ld st atom red prefetch
ExecFn bind_warp(const isa::Instruction& in);     // vote shfl activemask
ExecFn bind_control(const isa::Instruction& in);  // bra ret exit bar membar fence trap
ExecFn bind_call(const isa::Instruction& in);     // call, ret from a device function
ExecFn bind_carry(const isa::Instruction& in);    // add.cc addc sub.cc subc mad.cc madc
}  // namespace sem

}  // namespace gputlm::func
