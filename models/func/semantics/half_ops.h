// Binders for the narrow float types (.f16 .f16x2 .bf16 .bf16x2 and the cvt forms of .tf32 and
// the fp8 types), used by the float, compare, convert and memory binders.
#pragma once

#include "models/func/exec_context.h"

namespace gputlm::func::sem {

// .f16 .f16x2 .bf16 .bf16x2
bool is_half_type(isa::DType t);
// add sub mul fma min max neg abs ex2.approx tanh.approx on a half type (half_ops.cpp).
ExecFn bind_half(const isa::Instruction& in);
// add/sub/fma.f32 with .f16/.bf16 sources (mixed precision, half_ops.cpp).
ExecFn bind_mixed_f32(const isa::Instruction& in);
// setp set selp with a half source type (half_compare_ops.cpp).
ExecFn bind_half_compare(const isa::Instruction& in);
// cvt with a narrow float (.f16 .f16x2 .bf16 .bf16x2 .tf32 .e4m3x2 .e5m2x2) on either side
// (small_float_convert.cpp).
ExecFn bind_small_float_convert(const isa::Instruction& in);
// atom/red .add on .f16 .f16x2 .bf16 .bf16x2 (half_ops.cpp): the new memory bits from the old
// ones and the operand, per PTX ISA 9.7.13.5 (round to nearest even, subnormals kept).
uint32_t half_atomic_add(isa::DType t, uint32_t old_bits, uint32_t b_bits);

}  // namespace gputlm::func::sem
