// Classifies one dotted opcode suffix ("rn", "u32", "global", "wide", ...) into an Instruction
// field. Which words are legal depends on the opcode ("lo" is a comparison for setp, a result
// half for mul). Returns false when the word is not a modifier of that opcode.
#pragma once

#include <string_view>

#include "models/isa/instruction.h"

namespace gputlm::isa {

bool apply_modifier(Instruction& in, std::string_view word);
// A matrix fragment type by its PTX name ("f16", "tf32", "s8", "e4m3", ...); false if none.
bool parse_mma_type(std::string_view name, MmaType& type);
// The type of a tensor instruction's A operand: mma's second type, wmma.mma's too when it names
// four (.f32.bf16.bf16.f32), f16 when it names two (d.c: the inputs are f16).
MmaType mma_input_type(const TensorForm& t);

}  // namespace gputlm::isa
