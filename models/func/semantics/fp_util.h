// Floating-point helpers shared by the float, compare and convert semantics: flush-to-zero,
// saturation and directed rounding scopes.
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
      case isa::Round::Rz:
      case isa::Round::Rzi:
        mode = FE_TOWARDZERO;
        break;
      case isa::Round::Rm:
      case isa::Round::Rmi:
        mode = FE_DOWNWARD;
        break;
      case isa::Round::Rp:
      case isa::Round::Rpi:
        mode = FE_UPWARD;
        break;
      default:
        break;
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

// Conversions to and from the narrow float formats (f16, bf16, tf32, fp8): small_float.h.

// setp/set on floats (PTX ISA 9.7.6.1): the ordered operators are false and the unordered (*u)
// ones true when an operand is NaN.
template <class T>
bool float_compare(isa::CmpOp op, T a, T b) {
  using isa::CmpOp;
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (op) {
    case CmpOp::Eq:
      return !unordered && a == b;
    case CmpOp::Ne:
      return !unordered && a != b;
    case CmpOp::Lt:
      return !unordered && a < b;
    case CmpOp::Le:
      return !unordered && a <= b;
    case CmpOp::Gt:
      return !unordered && a > b;
    case CmpOp::Ge:
      return !unordered && a >= b;
    case CmpOp::Equ:
      return unordered || a == b;
    case CmpOp::Neu:
      return unordered || a != b;
    case CmpOp::Ltu:
      return unordered || a < b;
    case CmpOp::Leu:
      return unordered || a <= b;
    case CmpOp::Gtu:
      return unordered || a > b;
    case CmpOp::Geu:
      return unordered || a >= b;
    case CmpOp::Num:
      return !unordered;
    case CmpOp::Nan:
      return unordered;
    default:
      return false;
  }
}

// setp/set's optional third source (PTX ISA 9.7.6.1): the comparison `t` combined with predicate
// `c` by .and/.or/.xor.
inline bool combine(isa::BoolOp op, bool t, uint64_t c) {
  const bool cb = c & 1;
  switch (op) {
    case isa::BoolOp::And:
      return t && cb;
    case isa::BoolOp::Or:
      return t || cb;
    case isa::BoolOp::Xor:
      return t != cb;
    default:
      return t;
  }
}

}  // namespace gputlm::func::sem
