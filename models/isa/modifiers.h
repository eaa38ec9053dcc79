// Classifies one dotted opcode suffix ("rn", "u32", "global", "wide", ...) into an Instruction
// field. Which words are legal depends on the opcode ("lo" is a comparison for setp, a result
// half for mul). Returns false when the word is not a modifier of that opcode.
#pragma once

#include <string_view>

#include "models/isa/instruction.h"

namespace gputlm::isa {

bool apply_modifier(Instruction& in, std::string_view word);

}  // namespace gputlm::isa
