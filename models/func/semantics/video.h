// What the scalar and SIMD video instructions share (PTX ISA 9.7.18): taking a byte or half-word of
// a source, sign- or zero-extended, and vset's comparisons.
#pragma once

#include <cstdint>

#include "models/isa/types.h"
#include "models/isa/video_form.h"

namespace gputlm::func::sem::video {

// Bits `bits` of v from bit `shift`, sign- or zero-extended.
inline int64_t extend(uint32_t v, unsigned shift, unsigned bits, bool is_signed) {
  const uint64_t x = (uint64_t{v} >> shift) & ((uint64_t{1} << bits) - 1);
  return is_signed && (x >> (bits - 1)) ? static_cast<int64_t>(x) - (int64_t{1} << bits)
                                        : static_cast<int64_t>(x);
}

// partSelectSignExtend (9.7.18.1): the word, or the byte or half-word a scalar selector names.
inline int64_t part(uint32_t v, bool is_signed, uint16_t sel) {
  if (isa::vsel_count(sel) == 0) return extend(v, 0, 32, is_signed);
  const unsigned bits = isa::vsel_half(sel) ? 16 : 8;
  return extend(v, bits * isa::vsel_digit(sel, 0), bits, is_signed);
}

inline int64_t compare(isa::CmpOp op, int64_t a, int64_t b) {
  switch (op) {
    case isa::CmpOp::Eq:
      return a == b;
    case isa::CmpOp::Ne:
      return a != b;
    case isa::CmpOp::Lt:
      return a < b;
    case isa::CmpOp::Le:
      return a <= b;
    case isa::CmpOp::Gt:
      return a > b;
    default:
      return a >= b;  // Ge
  }
}

}  // namespace gputlm::func::sem::video
