// Variable declarations of a PTX file: "[.align N] .type [.ptr ...] name[N]..." after a state
// space directive (.shared, .local, .param, .global, .const), as the parser reads them for module
// variables, kernel and function parameters and frame variables, and the size checks they need.
#pragma once

#include <cstdint>
#include <string>

#include "models/isa/kernel.h"
#include "models/isa/ptx_cursor.h"
#include "models/isa/types.h"

namespace gputlm::isa {

struct VarSyntax {
  DType type = DType::B8;
  uint32_t align = 0;
  uint32_t count = 1;
  bool is_array = false;
  bool unsized = false;
  std::string name;
};

// Parses the declaration at the cursor; with `init`, an initialiser may follow (module variables),
// else "=" is an error.
VarSyntax parse_var_syntax(TokenCursor& c, bool init);
// The declaration as a variable of `space` (its size: the element size times the count).
VarDecl to_decl(const VarSyntax& v, Space space);
// `used` + `more` bytes of a space (`what`: named in the error), checked against
// limits::kMaxVariableBytes at token `t`.
uint32_t grow_space(const TokenCursor& c, const Token& t, uint64_t used, uint64_t more,
                    const char* what);

}  // namespace gputlm::isa
