// A 128-bit content hash for run identities: two 64-bit FNV-1a hashes of the same bytes with
// different offset bases (the standard one and the FNV-1a hash of "gputlm sweep"), so two inputs
// must collide in both to share an identity. Not cryptographic: it names results, it does not
// defend against someone forging them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gputlm::sweep {

class Hash128 {
 public:
  Hash128& add(std::string_view bytes);
  // A length-prefixed field, so ("ab","c") and ("a","bc") hash differently.
  Hash128& field(std::string_view bytes);
  Hash128& add(const Hash128& other) { return field(other.hex()); }
  // 32 lowercase hex digits.
  std::string hex() const;

 private:
  static constexpr uint64_t kPrime = 1099511628211ull;
  uint64_t m_a = 1469598103934665603ull;  // FNV-1a 64 offset basis
  uint64_t m_b = 0x839a313d9975f542ull;   // a second basis: FNV-1a 64 of "gputlm sweep"
};

}  // namespace gputlm::sweep
