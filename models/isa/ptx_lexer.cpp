#include "models/isa/ptx_lexer.h"

#include <cctype>

#include "models/common/error.h"

namespace gputlm::isa {
namespace {
bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
         c == '.';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
}  // namespace

std::vector<Token> lex_ptx(const std::string& src, const std::string& file) {
  std::vector<Token> out;
  int line = 1;
  size_t i = 0;
  const size_t n = src.size();
  while (i < n) {
    char c = src[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) line += src[i++] == '\n';
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    size_t start = i;
    if (ident_start(c)) {
      t.kind = Token::Ident;
      ++i;
      while (i < n && (ident_char(src[i]) || (src[i] == ':' && i + 1 < n && src[i + 1] == ':')))
        i += src[i] == ':' ? 2 : 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = Token::Number;
      while (i < n && (std::isalnum(static_cast<unsigned char>(src[i])) || src[i] == '.')) ++i;
    } else if (c == '"') {
      t.kind = Token::String;
      ++i;
      while (i < n && src[i] != '"' && src[i] != '\n') ++i;
      if (i >= n || src[i] != '"') throw SourceError(file, line, "unterminated string");
      ++i;
    } else if (std::string_view(",;:{}[]()<>|!@+-=").find(c) != std::string_view::npos) {
      t.kind = Token::Punct;
      ++i;
    } else {
      throw SourceError(file, line, "unexpected character", std::string(1, c));
    }
    t.text = src.substr(start, i - start);
    out.push_back(std::move(t));
  }
  Token end;
  end.line = line;
  out.push_back(end);
  return out;
}

}  // namespace gputlm::isa
