// Whether an instruction's literal operands suit its type, as ptxas 13 decides (checked against
// ptxas -arch=sm_75; PTX ISA 4.5 "Constants" and 6.4.4 "Immediate operands"):
//  - an integer literal is a 64-bit value and is accepted for every integer operand whatever its
//    width (the instruction reads its low bits: mov.u16 %rs, 70000 and
//    mul.wide.s32 %rd, %r, -9223372036854775808 assemble without a diagnostic); a literal that
//    does not fit 64 bits is rejected when it is read (ptx_cursor.cpp);
//  - a floating-point literal (0f..., 0d..., 1.5) is refused for a .u/.s operand, and for a .b
//    operand unless its width matches (0f for .b32, 0d or a decimal for .b64): ptxas reports
//    "Arguments mismatch".
// Float-typed instructions are converted (convert_float_immediates) and not checked here.
#pragma once

#include <string>

#include "models/isa/instruction.h"

namespace gputlm::isa {

// The error for the first literal operand of `in` that its type refuses, or "" if none.
std::string immediate_type_error(const Instruction& in);
// PTX 5.2.4: a literal is converted to the type the instruction reads it as; for float types an
// f64 or integer literal in an f32 instruction becomes f32 bits, and so on (the parser calls this).
void convert_float_immediates(Instruction& in);

}  // namespace gputlm::isa
