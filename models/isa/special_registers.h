// Names of the PTX special registers (PTX ISA 10, "Special Registers") and how an operand that
// reads one is recorded: the register in Operand::sreg, the component (x, y, z = 0, 1, 2) of a
// vector register or the index N of %envreg<N>, %pm<N> and %pm<N>_64 in Operand::comp.
#pragma once

#include <string_view>

#include "models/isa/instruction.h"

namespace gputlm::isa {

// Fills `o` (kind Special) when `name` is a special register ("%tid.x", "%clock64", "%envreg3");
// returns false, leaving `o` as it was, otherwise.
bool parse_special_register(std::string_view name, Operand& o);

}  // namespace gputlm::isa
