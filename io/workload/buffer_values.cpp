#include "io/workload/buffer_values.h"

#include <cstring>
#include <sstream>

#include "io/workload/launch_spec.h"

namespace gputlm::workload {
namespace {
template <class T>
void put(std::vector<uint8_t>& b, size_t i, T v) {
  std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
}
template <class T>
T get(const std::vector<uint8_t>& b, size_t i) {
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

ElemType elem_type(const std::string& t) {
  using K = ElemType::Kind;
  const uint8_t bytes = static_cast<uint8_t>(buffer_type_size(t));
  if (t == "f32") return {K::F32, bytes};
  if (t == "f64") return {K::F64, bytes};
  return {!t.empty() && t[0] == 's' ? K::Signed : K::Unsigned, bytes};
}

void store_int(std::vector<uint8_t>& b, ElemType t, size_t i, int64_t v) {
  if (t.kind == ElemType::Kind::F32) return put<float>(b, i, static_cast<float>(v));
  if (t.kind == ElemType::Kind::F64) return put<double>(b, i, static_cast<double>(v));
  switch (t.bytes) {  // little-endian truncation
    case 1:
      return put<uint8_t>(b, i, static_cast<uint8_t>(v));
    case 2:
      return put<uint16_t>(b, i, static_cast<uint16_t>(v));
    case 4:
      return put<uint32_t>(b, i, static_cast<uint32_t>(v));
    default:
      return put<uint64_t>(b, i, static_cast<uint64_t>(v));
  }
}

void store_real(std::vector<uint8_t>& b, ElemType t, size_t i, double f) {
  if (t.kind == ElemType::Kind::F32) return put<float>(b, i, static_cast<float>(f));
  if (t.kind == ElemType::Kind::F64) return put<double>(b, i, f);
  store_int(b, t, i, static_cast<int64_t>(f));
}

double element_value(const std::vector<uint8_t>& b, ElemType t, size_t i) {
  using K = ElemType::Kind;
  if (t.kind == K::F32) return get<float>(b, i);
  if (t.kind == K::F64) return get<double>(b, i);
  const bool s = t.kind == K::Signed;
  switch (t.bytes) {
    case 1:
      return s ? get<int8_t>(b, i) : get<uint8_t>(b, i);
    case 2:
      return s ? get<int16_t>(b, i) : get<uint16_t>(b, i);
    case 4:
      return s ? get<int32_t>(b, i) : get<uint32_t>(b, i);
    default:
      return s ? static_cast<double>(get<int64_t>(b, i)) : static_cast<double>(get<uint64_t>(b, i));
  }
}

std::string element_text(const std::vector<uint8_t>& b, ElemType t, size_t i) {
  std::ostringstream os;
  if (t.bytes == 8 && t.kind == ElemType::Kind::Unsigned)
    os << get<uint64_t>(b, i);
  else if (t.bytes == 8 && t.kind == ElemType::Kind::Signed)
    os << get<int64_t>(b, i);
  else {
    os.precision(9);
    os << element_value(b, t, i);
  }
  return os.str();
}

}  // namespace gputlm::workload
