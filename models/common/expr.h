// Integer expressions in JSON descriptions and configs: "(n + 255) / 256", "min(n, 1024) * 4".
// Operators + - * / % with C semantics, unary minus, parentheses, min(a, b), max(a, b), and
// variables looked up by name. Values are int64: a result that does not fit (overflow of + - *
// or unary minus, INT64_MIN / -1, a literal above 2^63-1) is an error, as are nesting deeper than
// 100 levels, syntax, unknown variables and division by zero; each throws InputError with the
// expression (its first 60 characters) in the message; callers prefix the location.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gputlm {

using ExprVars = std::map<std::string, int64_t>;

int64_t eval_expr(const std::string& text, const ExprVars& vars);

}  // namespace gputlm
