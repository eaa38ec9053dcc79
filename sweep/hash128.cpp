#include "sweep/hash128.h"

#include <cstdio>

namespace gputlm::sweep {

Hash128& Hash128::add(std::string_view bytes) {
  uint64_t a = m_a, b = m_b;
  for (unsigned char c : bytes) {
    a = (a ^ c) * kPrime;
    b = (b ^ c) * kPrime;
  }
  m_a = a;
  m_b = b;
  return *this;
}

Hash128& Hash128::field(std::string_view bytes) {
  const std::string length = std::to_string(bytes.size()) + ":";
  return add(length).add(bytes);
}

std::string Hash128::hex() const {
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(m_a),
                static_cast<unsigned long long>(m_b));
  return text;
}

}  // namespace gputlm::sweep
