// Rounding conversions between double and the narrow PTX float formats (PTX ISA 5.2.5
// "Floating Point Data Types" / "Alternate Floating Point Data Formats", 9.7.9.21 cvt):
//   .f16 (binary16), .bf16 (8-bit exponent, 7-bit mantissa), .tf32 (f32 layout, 10-bit mantissa,
//   low 13 bits zero), .e4m3 (no infinity, S.1111.111 is NaN, max 448), .e5m2 (IEEE-like, max
//   57344).
//
// API (pure functions; all but add_odd/fma_odd are independent of the host rounding mode):
//   uint16_t to_f16(double x, Round r = Rn, bool satfinite = false)    // binary16 bits
//   uint16_t to_bf16(double x, Round r = Rn, bool satfinite = false)   // bfloat16 bits
//   uint32_t to_tf32(double x, Round r = Rna, bool satfinite = false)  // f32 bits, low 13 zero
//   float    to_f32(double x, Round r = Rn)                            // binary32, any mode
//   uint8_t  to_e4m3(double x, Round r = Rn, bool satfinite = true)
//   uint8_t  to_e5m2(double x, Round r = Rn, bool satfinite = true)
//   double   from_f16(uint16_t), from_bf16(uint16_t), from_e4m3(uint8_t), from_e5m2(uint8_t)
//   bool     is_nan_f16(uint16_t), is_nan_bf16(uint16_t)
//   double   add_odd(a, b), fma_odd(a, b, c)   // exact result rounded to odd in double
//                                              // (needs the host in round-to-nearest, the default)
//   uint32_t encode_float(double, const FloatFormat&, Round, bool satfinite) and
//   double   decode_float(uint32_t, const FloatFormat&)  // the same for any format: kF16 kBF16
//                                              // kTF32 kF32 kE4M3 kE5M2
// Example (a dot-product step of a tensor-core model): fp16 inputs a, b, f32 accumulator c,
//   float d = to_f32(fma_odd(from_f16(a), from_f16(b), c));   // one rounding, RN
//
// Round: Rn (nearest even), Rna (nearest, ties away from zero), Rz, Rm, Rp; None means Rn.
// A NaN input gives the format's canonical NaN (f16 0x7FFF, bf16 0x7FFF, tf32/f32 0x7FFFFFFF,
// e4m3 0x7F, e5m2 0x7F). The PTX ISA names the canonical NaN as the result of .relu and of
// min/max.NaN and does not fix NaN payloads elsewhere; the canonical NaN is also what CUDA's
// host emulation in cuda_fp16.hpp/cuda_bf16.hpp returns, so we use it throughout. Overflow
// follows IEEE 754 for the rounding mode (Rn/Rna -> inf, Rz -> max finite, Rm/Rp towards the
// finite side);
// with satfinite, infinities and overflows become the max finite value of the same sign and
// NaN stays NaN. e4m3 has no infinity: an overflow without satfinite gives NaN.
//
// Double rounding: a double computed with round-to-nearest and then rounded again to a narrow
// format can differ from one rounding of the exact value. Products of two f16/bf16/f32 values
// and sums of two f16 values are exact in double; for anything else (bf16 sums, fma, 64-bit
// integers) use add_odd/fma_odd, which return the exact result rounded to odd (sticky last
// bit). Rounding such a value to any format with at most 51 significand bits (all formats here,
// f32 included) gives the correctly rounded exact result in every mode.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "models/isa/types.h"

namespace gputlm::func::sem {

// A binary floating-point format: man_bits explicit mantissa bits, exp_bits exponent bits,
// exponent bias; `ieee` = all-ones exponent encodes inf/NaN (false: e4m3, where only
// S.1111.111 is NaN and there is no infinity).
struct FloatFormat {
  int man_bits;
  int exp_bits;
  int bias;
  bool ieee;
  uint32_t nan;  // canonical NaN bits (positive)

  int emin() const { return 1 - bias; }
  uint32_t sign_bit() const { return 1u << (man_bits + exp_bits); }
  uint32_t inf_bits() const { return ((1u << exp_bits) - 1) << man_bits; }
  // Largest finite magnitude, as bits.
  uint32_t max_bits() const { return ieee ? inf_bits() - 1 : inf_bits() | ((1u << man_bits) - 2); }
};
inline constexpr FloatFormat kF16{10, 5, 15, true, 0x7FFF};
inline constexpr FloatFormat kBF16{7, 8, 127, true, 0x7FFF};
inline constexpr FloatFormat kTF32{10, 8, 127, true, 0x3FFFF};  // as 19 bits; to_tf32 shifts by 13
inline constexpr FloatFormat kF32{23, 8, 127, true, 0x7FFFFFFF};
inline constexpr FloatFormat kE4M3{3, 4, 7, false, 0x7F};
inline constexpr FloatFormat kE5M2{2, 5, 15, true, 0x7F};

// Value of format bits (sign included).
inline double decode_float(uint32_t bits, const FloatFormat& f) {
  const bool neg = (bits & f.sign_bit()) != 0;
  const uint32_t exp = (bits >> f.man_bits) & ((1u << f.exp_bits) - 1);
  const uint32_t man = bits & ((1u << f.man_bits) - 1);
  const uint32_t mag = bits & (f.sign_bit() - 1);
  double v;
  if (f.ieee && exp == (1u << f.exp_bits) - 1)
    v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (!f.ieee && mag == (f.inf_bits() | ((1u << f.man_bits) - 1)))
    v = std::numeric_limits<double>::quiet_NaN();
  else if (exp == 0)
    v = std::ldexp(static_cast<double>(man), f.emin() - f.man_bits);
  else
    v = std::ldexp(static_cast<double>(man | (1u << f.man_bits)),
                   static_cast<int>(exp) - f.bias - f.man_bits);
  return neg ? -v : v;
}

// Rounds the nonnegative value `scaled` to an integer: `up_ok` picks the direction for directed
// modes that round away from zero in magnitude.
inline double round_magnitude(double scaled, isa::Round r, bool neg) {
  const double lo = std::floor(scaled), frac = scaled - lo;
  if (frac == 0) return lo;
  switch (r) {
    case isa::Round::Rz:
      return lo;
    case isa::Round::Rm:
      return neg ? lo + 1 : lo;
    case isa::Round::Rp:
      return neg ? lo : lo + 1;
    case isa::Round::Rna:
      return frac >= 0.5 ? lo + 1 : lo;
    default:  // Rn (and None): nearest, ties to even
      if (frac != 0.5) return frac > 0.5 ? lo + 1 : lo;
      return std::fmod(lo, 2.0) == 0 ? lo : lo + 1;
  }
}

// Rounds x to format f once, in mode r (see the file comment for NaN/overflow/satfinite).
inline uint32_t encode_float(double x, const FloatFormat& f, isa::Round r, bool satfinite) {
  const bool neg = std::signbit(x);
  const uint32_t sign = neg ? f.sign_bit() : 0;
  if (std::isnan(x)) return f.nan;
  const uint32_t max = sign | f.max_bits();
  const uint32_t overflow_inf = f.ieee ? (sign | f.inf_bits()) : f.nan;
  if (std::isinf(x)) return satfinite ? max : overflow_inf;
  const double a = std::fabs(x);
  if (a == 0) return sign;
  const int e = std::max(std::ilogb(a), f.emin());
  const int q = e - f.man_bits;  // weight of the last mantissa bit
  double m = round_magnitude(std::ldexp(a, -q), r, neg);
  int qe = q;
  if (m >= std::ldexp(1.0, f.man_bits + 1)) m /= 2, ++qe;  // rounded up to the next binade
  const double max_val = decode_float(f.max_bits(), f);
  if (std::ldexp(m, qe) > max_val) {
    if (satfinite) return max;
    switch (r) {
      case isa::Round::Rz:
        return max;
      case isa::Round::Rm:
        return neg ? overflow_inf : max;
      case isa::Round::Rp:
        return neg ? max : overflow_inf;
      default:
        return overflow_inf;
    }
  }
  const uint32_t mi = static_cast<uint32_t>(m);
  if (mi < (1u << f.man_bits)) return sign | mi;  // subnormal (or zero)
  const uint32_t exp = static_cast<uint32_t>(qe + f.man_bits + f.bias);
  return sign | (exp << f.man_bits) | (mi - (1u << f.man_bits));
}

inline uint16_t to_f16(double x, isa::Round r = isa::Round::Rn, bool satfinite = false) {
  return static_cast<uint16_t>(encode_float(x, kF16, r, satfinite));
}
inline uint16_t to_bf16(double x, isa::Round r = isa::Round::Rn, bool satfinite = false) {
  return static_cast<uint16_t>(encode_float(x, kBF16, r, satfinite));
}
inline uint32_t to_tf32(double x, isa::Round r = isa::Round::Rna, bool satfinite = false) {
  if (std::isnan(x)) return kF32.nan;
  return encode_float(x, kTF32, r, satfinite) << 13;
}
inline float to_f32(double x, isa::Round r = isa::Round::Rn) {
  const uint32_t u = encode_float(x, kF32, r, false);
  float v;
  std::memcpy(&v, &u, 4);
  return v;
}
inline uint8_t to_e4m3(double x, isa::Round r = isa::Round::Rn, bool satfinite = true) {
  return static_cast<uint8_t>(encode_float(x, kE4M3, r, satfinite));
}
inline uint8_t to_e5m2(double x, isa::Round r = isa::Round::Rn, bool satfinite = true) {
  return static_cast<uint8_t>(encode_float(x, kE5M2, r, satfinite));
}

// The two common decodes without ldexp (hot in half arithmetic and tensor-core products); each
// gives exactly decode_float's value. Inf and NaN go through decode_float.
inline double from_f16(uint16_t h) {
  const uint32_t exp = (h >> 10) & 0x1F, man = h & 0x3FFu;
  if (exp == 0x1F) return decode_float(h, kF16);
  const double v =
      exp == 0 ? man * 0x1p-24 : static_cast<double>(man | 0x400u) * 0x1p-25 * (1u << exp);
  return (h & 0x8000) ? -v : v;
}
inline double from_bf16(uint16_t h) {
  if (((h >> 7) & 0xFF) == 0xFF) return decode_float(h, kBF16);
  float v;
  const uint32_t bits = uint32_t{h} << 16;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}
inline double from_e4m3(uint8_t v) { return decode_float(v, kE4M3); }
inline double from_e5m2(uint8_t v) { return decode_float(v, kE5M2); }
inline bool is_nan_f16(uint16_t h) { return (h & 0x7FFF) > 0x7C00; }
inline bool is_nan_bf16(uint16_t h) { return (h & 0x7FFF) > 0x7F80; }
// A subnormal value of format f (exponent field zero, mantissa nonzero).
inline bool is_subnormal_bits(uint32_t bits, const FloatFormat& f) {
  const uint32_t mag = bits & (f.sign_bit() - 1);
  return mag != 0 && mag < (1u << f.man_bits);
}

// Exact a + b rounded to odd in double: the nearest-even sum s and its exact error e (TwoSum);
// when e != 0 the result is the neighbour of the two around the exact value whose last bit is 1.
inline double add_odd(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s)) return s;
  const double bb = s - a, err = (a - (s - bb)) + (b - bb);
  if (err == 0) return s;
  uint64_t u;
  std::memcpy(&u, &s, 8);
  if (u & 1) return s;
  return std::nextafter(s, err > 0 ? std::numeric_limits<double>::infinity()
                                   : -std::numeric_limits<double>::infinity());
}
// a * b + c rounded to odd; a * b must be exact in double (true for operands of at most 26
// significand bits: f16, bf16, tf32, f32).
inline double fma_odd(double a, double b, double c) { return add_odd(a * b, c); }

}  // namespace gputlm::func::sem
