// Typed access to the elements of a host buffer: write a generated value, read an element for
// comparison or display. Types are the workload buffer type names (u8 ... f64), resolved once into
// an ElemType: a study-size buffer has millions of elements, and comparing the name for each was
// half of a reduction run's host time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::workload {

struct ElemType {
  enum class Kind : uint8_t { Unsigned, Signed, F32, F64 };
  Kind kind = Kind::Unsigned;
  uint8_t bytes = 0;  // 0: not a buffer type
  bool is_float() const { return kind == Kind::F32 || kind == Kind::F64; }
};
ElemType elem_type(const std::string& type);

// Stores `v` (integer types) or `f` (float types) as element i.
void store_int(std::vector<uint8_t>& bytes, ElemType type, size_t i, int64_t v);
void store_real(std::vector<uint8_t>& bytes, ElemType type, size_t i, double f);
// Element i as a double (exact for integers up to 2^53) and as text.
double element_value(const std::vector<uint8_t>& bytes, ElemType type, size_t i);
std::string element_text(const std::vector<uint8_t>& bytes, ElemType type, size_t i);

}  // namespace gputlm::workload
