#include "runtime/ptx_text_link.h"

#include <regex>
#include <set>
#include <sstream>

namespace gputlm::runtime {
namespace {

// Names of internal linkage a module declares at its top level (outside every brace).
std::set<std::string> internal_names(const std::string& ptx) {
  static const std::regex var(
      R"(^\s*\.(?:global|const)\s+(?:\.align\s+\d+\s+|\.[\w:]+\s+)*([A-Za-z_$][\w$]*))");
  static const std::regex func(R"(^\s*\.func\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*))");
  std::set<std::string> names;
  std::istringstream in(ptx);
  std::string line;
  int depth = 0;
  while (std::getline(in, line)) {
    std::smatch m;
    if (depth == 0 && (std::regex_search(line, m, var) || std::regex_search(line, m, func)))
      names.insert(m[1]);
    for (char ch : line) depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
    if (depth < 0) depth = 0;
  }
  return names;
}

bool is_header(const std::string& line) {
  static const std::regex header(R"(^\s*\.(version|target|address_size)\b)");
  return std::regex_search(line, header);
}

// `text` with every whole-word NAME of `names` renamed NAME + suffix.
std::string rename(const std::string& text, const std::set<std::string>& names,
                   const std::string& suffix) {
  if (names.empty()) return text;
  std::string out;
  out.reserve(text.size() + 64);
  auto word = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$';
  };
  for (size_t i = 0; i < text.size();) {
    const bool starts =
        word(text[i]) &&
        (i == 0 || (!word(text[i - 1]) && text[i - 1] != '.' && text[i - 1] != '%'));
    if (!starts) {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && word(text[j])) ++j;
    std::string w = text.substr(i, j - i);
    out += names.count(w) ? w + suffix : w;
    i = j;
  }
  return out;
}

}  // namespace

std::string link_ptx_modules(const std::vector<std::string>& modules) {
  std::string out;
  std::set<std::string> seen;
  for (size_t m = 0; m < modules.size(); ++m) {
    std::set<std::string> own = internal_names(modules[m]), clash;
    for (const std::string& n : own)
      if (seen.count(n)) clash.insert(n);
    seen.insert(own.begin(), own.end());
    const std::string text = rename(modules[m], clash, "$lnk" + std::to_string(m));
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
      if (m == 0 || !is_header(line)) out += line + "\n";
  }
  return out;
}

}  // namespace gputlm::runtime
