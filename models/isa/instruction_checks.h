// The checks a parsed instruction must pass beyond its syntax: the modifiers, operand kinds and
// register types each opcode needs (a texture's geometry, a predicate operand, a 32-bit index...).
// A failed check is an InputError at the instruction's opcode token, with the file and line.
#pragma once

#include "models/isa/instruction.h"
#include "models/isa/kernel.h"
#include "models/isa/ptx_cursor.h"

namespace gputlm::isa {

// `t`: the opcode's token; `kernel`: the unit being parsed (its registers' types).
void check_instruction_types(const TokenCursor& cursor, const Instruction& in, const Token& t,
                             const Kernel& kernel);

}  // namespace gputlm::isa
