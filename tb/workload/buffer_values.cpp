#include "tb/workload/buffer_values.h"

#include <cstring>
#include <sstream>

#include "tb/workload/launch_spec.h"

namespace gputlm::workload {
namespace {
template <class T>
void put(std::vector<uint8_t>& b, size_t i, T v) { std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T)); }
template <class T>
T get(const std::vector<uint8_t>& b, size_t i) {
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

void store_int(std::vector<uint8_t>& b, const std::string& t, size_t i, int64_t v) {
  if (t == "f32") return put<float>(b, i, static_cast<float>(v));
  if (t == "f64") return put<double>(b, i, static_cast<double>(v));
  const size_t n = buffer_type_size(t);
  std::memcpy(b.data() + i * n, &v, n);  // little-endian truncation
}

void store_real(std::vector<uint8_t>& b, const std::string& t, size_t i, double f) {
  if (t == "f32") return put<float>(b, i, static_cast<float>(f));
  if (t == "f64") return put<double>(b, i, f);
  store_int(b, t, i, static_cast<int64_t>(f));
}

double element_value(const std::vector<uint8_t>& b, const std::string& t, size_t i) {
  if (t == "f32") return get<float>(b, i);
  if (t == "f64") return get<double>(b, i);
  if (t == "u8") return get<uint8_t>(b, i);
  if (t == "s8") return get<int8_t>(b, i);
  if (t == "u16") return get<uint16_t>(b, i);
  if (t == "s16") return get<int16_t>(b, i);
  if (t == "u32") return get<uint32_t>(b, i);
  if (t == "s32") return get<int32_t>(b, i);
  if (t == "u64") return static_cast<double>(get<uint64_t>(b, i));
  return static_cast<double>(get<int64_t>(b, i));
}

std::string element_text(const std::vector<uint8_t>& b, const std::string& t, size_t i) {
  std::ostringstream os;
  if (t == "u64") os << get<uint64_t>(b, i);
  else if (t == "s64") os << get<int64_t>(b, i);
  else {
    os.precision(9);
    os << element_value(b, t, i);
  }
  return os.str();
}

}  // namespace gputlm::workload
