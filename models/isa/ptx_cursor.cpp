#include "models/isa/ptx_cursor.h"

#include <cstring>
#include <stdexcept>

#include "models/common/error.h"
#include "models/common/limits.h"

namespace gputlm::isa {

const Token& TokenCursor::next() {
  const Token& t = peek();
  if (t.kind == Token::End) fail(t, "unexpected end of file");
  ++m_pos;
  return t;
}

bool TokenCursor::accept(std::string_view s) {
  if (peek().text == s && peek().kind != Token::String) {
    ++m_pos;
    return true;
  }
  return false;
}

void TokenCursor::expect(std::string_view s) {
  if (!accept(s)) fail(peek(), "expected '" + std::string(s) + "'");
}

void TokenCursor::fail(const Token& t, const std::string& msg) const {
  throw SourceError(m_file, t.line, msg, statement_text(t.line));
}

std::string TokenCursor::statement_text(int line) const {
  std::string s;
  bool glue_next = true;
  for (const auto& t : m_t) {
    if (t.line != line || t.kind == Token::End) continue;
    const bool glue_before = t.text == "," || t.text == ";" || t.text == "]" || t.text == "}" ||
                             t.text == ">" || t.text == ")" || t.text == "|" || t.text == "+" ||
                             t.text == ":" || (t.text == "<" && !s.empty() && s.back() != ' ');
    if (!glue_next && !glue_before) s += ' ';
    s += t.text;
    glue_next = t.text == "[" || t.text == "{" || t.text == "(" || t.text == "<" || t.text == "!" ||
                t.text == "@" || t.text == "|" || t.text == "+" || t.text == "-";
  }
  return s;
}

void TokenCursor::skip_statement_line() {
  const int line = peek().line;
  while (peek().kind != Token::End && peek().line == line) ++m_pos;
}

void TokenCursor::skip_braces() {
  while (peek().kind != Token::End && peek().text != "{") next();
  int depth = 0;
  do {
    const Token& t = next();
    depth += t.text == "{" ? 1 : t.text == "}" ? -1 : 0;
  } while (depth > 0);
}

uint32_t TokenCursor::number(const Token& t, uint64_t max, const char* limit) const {
  uint64_t v = 0;
  size_t used = 0;
  try {
    if (t.kind != Token::String && !t.text.empty() && t.text[0] != '-' && t.text[0] != '+')
      v = std::stoull(t.text, &used, 0);
  } catch (const std::logic_error&) {
    used = 0;
  }
  if (used == 0 || used != t.text.size()) fail(t, "expected a number");
  if (v > max)
    fail(t, "more than " + std::to_string(max) + (limit ? limits::named(limit) : std::string()));
  if (v > UINT32_MAX) fail(t, "more than " + std::to_string(UINT32_MAX));
  return static_cast<uint32_t>(v);
}

int64_t TokenCursor::parse_number(const Token& t, bool neg) const {
  const std::string& s = t.text;
  size_t used = 0;
  try {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
      const bool single = s[1] == 'f' || s[1] == 'F';
      uint64_t bits = std::stoull(s.substr(2), &used, 16);
      if (used + 2 != s.size() || s.size() != (single ? 10u : 18u))
        fail(t, "bad number '" + s + "'");
      if (neg) bits ^= single ? 0x80000000ull : 0x8000000000000000ull;
      return static_cast<int64_t>(bits);
    }
    const bool hex = s.size() > 1 && (s[1] == 'x' || s[1] == 'X');
    if (!hex && s.find_first_of(".eE") != std::string::npos) {
      double d = std::stod(s, &used) * (neg ? -1 : 1);
      if (used != s.size()) fail(t, "bad number '" + s + "'");
      int64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return bits;  // a decimal float literal is an f64 immediate (PTX 5.2.4)
    }
    std::string digits = s;
    if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u'))
      digits.pop_back();  // 123U
    uint64_t v = std::stoull(digits, &used, 0);
    if (used != digits.size()) fail(t, "bad number '" + s + "'");
    return static_cast<int64_t>(neg ? 0 - v : v);  // two's complement, no signed overflow
  } catch (const std::logic_error&) {
    fail(t, "bad number '" + s + "'");
  }
}

}  // namespace gputlm::isa
