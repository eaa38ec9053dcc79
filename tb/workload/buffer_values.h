// Typed access to the elements of a host buffer: write a generated value, read an element for
// comparison or display. Types are the workload buffer type names (u8 ... f64).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::workload {

// Stores `v` (integer types) or `f` (float types) as element i.
void store_int(std::vector<uint8_t>& bytes, const std::string& type, size_t i, int64_t v);
void store_real(std::vector<uint8_t>& bytes, const std::string& type, size_t i, double f);
// Element i as a double (exact for integers up to 2^53) and as text.
double element_value(const std::vector<uint8_t>& bytes, const std::string& type, size_t i);
std::string element_text(const std::vector<uint8_t>& bytes, const std::string& type, size_t i);
inline bool is_float_type(const std::string& type) { return !type.empty() && type[0] == 'f'; }

}  // namespace gputlm::workload
