// Whitespace-separated words and numbers of one text line, read without streams (a trace
// replay reads millions of lines). Shared by gputlm's trace reader and the Accel-Sim importer.
#pragma once

#include <charconv>
#include <string>
#include <string_view>

namespace gputlm::trace {

class LineScanner {
 public:
  explicit LineScanner(std::string_view line)
      : m_p(line.data()), m_end(line.data() + line.size()) {}
  bool word(std::string_view& w) {
    while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\r')) ++m_p;
    const char* b = m_p;
    while (m_p < m_end && *m_p != ' ' && *m_p != '\t' && *m_p != '\r') ++m_p;
    w = std::string_view(b, static_cast<size_t>(m_p - b));
    return !w.empty();
  }
  // A number in `base`; hexadecimal may carry a 0x prefix.
  template <class T>
  bool number(T& v, int base = 10) {
    std::string_view w;
    if (!word(w)) return false;
    if (base == 16 && w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
      w.remove_prefix(2);
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v, base);
    return ec == std::errc() && end == w.data() + w.size();
  }
  bool at_end() {
    while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\r')) ++m_p;
    return m_p == m_end;
  }

 private:
  const char* m_p;
  const char* m_end;
};

}  // namespace gputlm::trace
