// Integer expressions in JSON descriptions and configs: "(n + 255) / 256", "min(n, 1024) * 4".
// Operators + - * / % with C semantics, unary minus, parentheses, min(a, b), max(a, b), and
// variables looked up by name. Errors (syntax, unknown variable, division by zero) throw
// InputError with the expression in the message; callers prefix the location.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gputlm {

using ExprVars = std::map<std::string, int64_t>;

int64_t eval_expr(const std::string& text, const ExprVars& vars);

}  // namespace gputlm
