// Floating-point helpers shared by the float, compare and convert semantics: flush-to-zero,
// saturation, directed rounding scopes and half-precision conversion.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "models/isa/types.h"

namespace gputlm::func::sem {

// .ftz: subnormal f32 values become zero of the same sign.
inline float flush_subnormal(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
// .sat: clamp to [0, 1]; NaN becomes 0.
template <class T>
inline T saturate(T x) {
  if (std::isnan(x)) return T(0);
  return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}

// Sets the host rounding mode for .rz/.rm/.rp (and the integer-rounding forms) for its lifetime.
// Files using it are compiled with -frounding-math so the compiler honours the dynamic mode.
class RoundingScope {
 public:
  explicit RoundingScope(isa::Round r) {
    int mode = FE_TONEAREST;
    switch (r) {
      case isa::Round::Rz: case isa::Round::Rzi: mode = FE_TOWARDZERO; break;
      case isa::Round::Rm: case isa::Round::Rmi: mode = FE_DOWNWARD; break;
      case isa::Round::Rp: case isa::Round::Rpi: mode = FE_UPWARD; break;
      default: break;
    }
    m_active = mode != FE_TONEAREST;
    if (m_active) std::fesetround(mode);
  }
  ~RoundingScope() {
    if (m_active) std::fesetround(FE_TONEAREST);
  }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  bool m_active = false;
};

// IEEE binary16 <-> binary32 (round to nearest even).
inline float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF, bits;
  if (exp == 0x1F) bits = sign | 0x7F800000 | (mant << 13);
  else if (exp != 0) bits = sign | ((exp + 112) << 23) | (mant << 13);
  else if (mant == 0) bits = sign;
  else {
    int e = -1;
    do { ++e; mant <<= 1; } while ((mant & 0x400) == 0);
    bits = sign | ((112 - e) << 23) | ((mant & 0x3FF) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t abs = x & 0x7FFFFFFF;
  if (abs >= 0x7F800000) return sign | 0x7C00 | (abs > 0x7F800000 ? 0x200 : 0);
  if (abs >= 0x477FF000) return sign | 0x7C00;  // rounds to infinity
  if (abs < 0x33000001) return sign;             // rounds to zero
  int e = static_cast<int>(abs >> 23) - 127 + 15;
  uint32_t mant = (abs & 0x7FFFFF) | 0x800000;
  int shift = e > 0 ? 13 : 14 - e;
  if (e <= 0) e = 0;
  uint32_t r = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (r & 1))) ++r;
  uint32_t h = e == 0 ? r : ((static_cast<uint32_t>(e) << 10) + (r - 0x400));
  return static_cast<uint16_t>(sign | h);
}

}  // namespace gputlm::func::sem
