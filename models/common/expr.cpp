#include "models/common/expr.h"

#include <cctype>

#include "models/common/error.h"

namespace gputlm {
namespace {

class ExprParser {
 public:
  ExprParser(const std::string& s, const ExprVars& vars) : m_s(s), m_vars(vars) {}

  int64_t parse() {
    int64_t v = sum();
    skip();
    if (m_i != m_s.size()) fail("unexpected '" + m_s.substr(m_i) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw InputError("expression \"" + m_s + "\": " + why); }
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
    int64_t v = product();
    for (;;) {
      if (accept('+')) v += product();
      else if (accept('-')) v -= product();
      else return v;
    }
  }
  int64_t product() {
    int64_t v = unary();
    for (;;) {
      if (accept('*')) v *= unary();
      else if (accept('/')) v /= nonzero(unary());
      else if (accept('%')) v %= nonzero(unary());
      else return v;
    }
  }
  int64_t nonzero(int64_t v) const {
    if (v == 0) fail("division by zero");
    return v;
  }
  int64_t unary() {
    if (accept('-')) return -unary();
    if (accept('+')) return unary();
    return primary();
  }
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
      try {
        return static_cast<int64_t>(std::stoull(m_s.substr(start, m_i - start), nullptr, 0));
      } catch (...) {
        fail("bad number '" + m_s.substr(start, m_i - start) + "'");
      }
    }
    while (m_i < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_i])) || m_s[m_i] == '_')) ++m_i;
    const std::string name = m_s.substr(start, m_i - start);
    if (name.empty()) fail(m_i < m_s.size() ? "unexpected '" + std::string(1, m_s[m_i]) + "'" : "unexpected end");
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
};

}  // namespace

int64_t eval_expr(const std::string& text, const ExprVars& vars) { return ExprParser(text, vars).parse(); }

}  // namespace gputlm
