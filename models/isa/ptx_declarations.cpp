#include "models/isa/ptx_declarations.h"

#include <algorithm>
#include <string_view>

#include "models/common/limits.h"

namespace gputlm::isa {

uint32_t grow_space(const TokenCursor& c, const Token& t, uint64_t used, uint64_t more,
                    const char* what) {
  if (used + more > limits::kMaxVariableBytes)
    c.fail(t, what + std::string(" larger than ") + std::to_string(limits::kMaxVariableBytes) +
                  " bytes" + limits::named("max_variable_bytes"));
  return static_cast<uint32_t>(used + more);
}

VarSyntax parse_var_syntax(TokenCursor& c, bool init) {
  VarSyntax v;
  for (;;) {
    const Token& t = c.peek();
    if (t.text == ".align") {
      c.next();
      const Token& at = c.next();
      v.align = c.number(at, limits::kMaxAlign, "max_align");
      if (v.align == 0 || (v.align & (v.align - 1))) c.fail(at, ".align must be a power of two");
    } else if (t.text == ".ptr" || t.text == ".global" || t.text == ".shared" ||
               t.text == ".local" || t.text == ".const")
      c.next();
    else if (t.kind == Token::Ident && t.text[0] == '.') {
      DType d = parse_dtype(std::string_view(t.text).substr(1));
      if (d == DType::None) c.fail(t, "unknown type '" + t.text + "'");
      v.type = d;
      c.next();
    } else
      break;
  }
  const Token& nt = c.next();
  if (nt.kind != Token::Ident) c.fail(nt, "expected a variable name");
  v.name = nt.text;
  if (c.accept("[")) {
    v.is_array = true;
    if (c.accept("]"))
      v.unsized = true;
    else {
      v.count = c.number(c.next(), limits::kMaxVariableBytes, "max_variable_bytes");
      c.expect("]");
    }
    while (c.accept("[")) {  // a multi-dimensional array: its size is the product
      const uint64_t dim = c.number(c.next(), limits::kMaxVariableBytes, "max_variable_bytes");
      c.expect("]");
      grow_space(c, nt, 0, uint64_t{v.count} * dim, ("variable '" + v.name + "'").c_str());
      v.count *= static_cast<uint32_t>(dim);
    }
  }
  if (!init && c.peek().text == "=")
    c.fail(c.peek(), "initialised variables are only supported at module scope");
  if (v.align == 0) v.align = std::max(1u, dtype_bytes(v.type));
  grow_space(c, nt, 0, uint64_t{std::max(1u, dtype_bytes(v.type))} * v.count,
             ("variable '" + v.name + "'").c_str());
  return v;
}

VarDecl to_decl(const VarSyntax& v, Space space) {
  VarDecl d;
  d.name = v.name;
  d.space = space;
  d.type = v.type;
  d.align = v.align;
  d.size = std::max(1u, dtype_bytes(v.type)) * v.count;
  return d;
}

}  // namespace gputlm::isa
