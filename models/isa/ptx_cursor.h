// A cursor over the tokens of one PTX file with the helpers every part of the front end uses:
// look-ahead, expectations, numbers, and errors that name the file, line and statement text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/isa/ptx_lexer.h"

namespace gputlm::isa {

class TokenCursor {
 public:
  TokenCursor(std::vector<Token> toks, std::string file)
      : m_t(std::move(toks)), m_file(std::move(file)) {}

  const std::string& file() const { return m_file; }
  const Token& peek(size_t k = 0) const { return m_t[std::min(m_pos + k, m_t.size() - 1)]; }
  // The next token; the end of the file is an error.
  const Token& next();
  bool accept(std::string_view s);
  void expect(std::string_view s);
  size_t position() const { return m_pos; }
  void seek(size_t pos) { m_pos = pos; }

  [[noreturn]] void fail(const Token& t, const std::string& msg) const;
  // The source text of the statement on `line`, rebuilt from its tokens.
  std::string statement_text(int line) const;
  // Skips the rest of the current line (.file, .loc, .pragma).
  void skip_statement_line();
  // Skips up to and including the next balanced { } group (a .section body, a kernel that failed).
  void skip_braces();

  // A non-negative integer no larger than `max` (`limit`: the limits.h name of `max`).
  uint32_t number(const Token& t, uint64_t max = UINT32_MAX, const char* limit = nullptr) const;
  // An integer or float literal as 64 bits: integers two's complement (negated if `neg`), 0f/0d
  // as their bits, decimal floats as f64 bits.
  int64_t parse_number(const Token& t, bool neg) const;

 private:
  std::vector<Token> m_t;
  size_t m_pos = 0;
  std::string m_file;
};

}  // namespace gputlm::isa
