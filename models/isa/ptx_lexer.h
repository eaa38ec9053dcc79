// Splits PTX text into tokens with their line numbers. Comments (// and /* */) are dropped.
// Identifiers keep their dots ("ld.global.f32", "%tid.x", ".reg") and "::" ("L2::128B").
#pragma once

#include <string>
#include <vector>

namespace gputlm::isa {

struct Token {
  enum Kind { Ident, Number, String, Punct, End } kind = End;
  std::string text;
  int line = 0;
};

// Throws SourceError (file, line) on a character PTX does not use.
std::vector<Token> lex_ptx(const std::string& source, const std::string& file);

}  // namespace gputlm::isa
