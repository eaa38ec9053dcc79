// Initial values of module variables (PTX ISA 5.4.4): `= value` or `= {v, ...}` lists, nested for
// multi-dimensional arrays, of integer and float literals converted to the element type, and
// addresses of other variables (`sym`, `generic(sym)`, `sym+imm`) for pointer-sized elements.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/isa/kernel.h"
#include "models/isa/ptx_cursor.h"

namespace gputlm::isa {

// Parses the initialiser after '=' for a variable of element type `type` and `size` bytes into
// var.init (and var.relocs for addresses). More values than fit is an error.
void parse_initializer(TokenCursor& c, DType type, ModuleVar& var);

}  // namespace gputlm::isa
