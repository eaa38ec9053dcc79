#include "models/common/expr.h"

#include <cctype>
#include <climits>
#include <cstdint>
#include <stdexcept>

#include "models/common/error.h"

namespace gputlm {
namespace {

class ExprParser {
 public:
  ExprParser(const std::string& s, const ExprVars& vars) : m_s(s), m_vars(vars) {}

  int64_t parse() {
    int64_t v = sum();
    skip();
    if (m_i != m_s.size()) fail("unexpected '" + m_s.substr(m_i, 20) + "'");
    return v;
  }

 private:
  // The expression (its first 60 characters) and why.
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("expression \"" + (m_s.size() > 60 ? m_s.substr(0, 60) + "..." : m_s) +
                     "\": " + why);
  }
  void skip() {
    while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i]))) ++m_i;
  }
  bool accept(char c) {
    skip();
    if (m_i < m_s.size() && m_s[m_i] == c) {
      ++m_i;
      return true;
    }
    return false;
  }
  int64_t sum() {
    const Nesting nest(*this);
    int64_t v = product();
    for (;;) {
      if (accept('+'))
        v = add(v, product());
      else if (accept('-'))
        v = add(v, product(), true);
      else
        return v;
    }
  }
  int64_t product() {
    int64_t v = unary();
    for (;;) {
      if (accept('*'))
        v = multiply(v, unary());
      else if (accept('/'))
        v = divided(v, unary(), false);
      else if (accept('%'))
        v = divided(v, unary(), true);
      else
        return v;
    }
  }
  // a + b (a - b when `subtract`), a * b: an error instead of a wrapped result.
  int64_t add(int64_t a, int64_t b, bool subtract = false) const {
    int64_t r = 0;
    if (subtract ? __builtin_sub_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r)) overflow();
    return r;
  }
  int64_t multiply(int64_t a, int64_t b) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) overflow();
    return r;
  }
  [[noreturn]] void overflow() const {
    fail("the value does not fit in 64 bits (-2^63 to 2^63-1)");
  }
  int64_t divided(int64_t a, int64_t b, bool remainder) const {
    if (b == 0) fail("division by zero");
    if (a == INT64_MIN && b == -1) overflow();
    return remainder ? a % b : a / b;
  }
  int64_t unary() {
    const Nesting nest(*this);
    if (accept('-')) {
      const int64_t v = unary();
      if (v == INT64_MIN) overflow();
      return -v;
    }
    if (accept('+')) return unary();
    return primary();
  }
  // Bounds the recursion: nested parentheses and unary signs deeper than kMaxDepth are an error,
  // not a stack overflow.
  struct Nesting {
    explicit Nesting(ExprParser& p) : m_p(p) {
      if (++m_p.m_depth > kMaxDepth)
        m_p.fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    ~Nesting() { --m_p.m_depth; }
    ExprParser& m_p;
  };
  static constexpr int kMaxDepth = 100;
  int64_t primary() {
    if (accept('(')) {
      int64_t v = sum();
      if (!accept(')')) fail("missing ')'");
      return v;
    }
    skip();
    const size_t start = m_i;
    if (m_i < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_i]))) {
      while (m_i < m_s.size() && std::isalnum(static_cast<unsigned char>(m_s[m_i]))) ++m_i;
      const std::string digits = m_s.substr(start, m_i - start);
      uint64_t n = 0;
      size_t used = 0;
      try {
        n = std::stoull(digits, &used, 0);
      } catch (const std::logic_error&) {
        fail("bad number '" + digits + "' (integers up to 2^63-1)");
      }
      if (used != digits.size()) fail("bad number '" + digits + "'");
      if (n > static_cast<uint64_t>(INT64_MAX))
        fail("bad number '" + digits + "' (integers up to 2^63-1)");
      return static_cast<int64_t>(n);
    }
    while (m_i < m_s.size() &&
           (std::isalnum(static_cast<unsigned char>(m_s[m_i])) || m_s[m_i] == '_'))
      ++m_i;
    const std::string name = m_s.substr(start, m_i - start);
    if (name.empty())
      fail(m_i < m_s.size() ? "unexpected '" + std::string(1, m_s[m_i]) + "'" : "unexpected end");
    if (name == "min" || name == "max") {
      if (!accept('(')) fail("expected '(' after " + name);
      int64_t a = sum();
      if (!accept(',')) fail("expected ',' in " + name);
      int64_t b = sum();
      if (!accept(')')) fail("missing ')'");
      return name == "min" ? std::min(a, b) : std::max(a, b);
    }
    auto it = m_vars.find(name);
    if (it == m_vars.end()) fail("unknown variable '" + name + "'");
    return it->second;
  }

  const std::string& m_s;
  const ExprVars& m_vars;
  size_t m_i = 0;
  int m_depth = 0;
};

}  // namespace

int64_t eval_expr(const std::string& text, const ExprVars& vars) {
  return ExprParser(text, vars).parse();
}

}  // namespace gputlm
