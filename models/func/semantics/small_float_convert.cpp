// cvt with a narrow float type on either side (PTX ISA 9.7.9.21 "cvt"):
//   cvt{.frnd}{.irnd}{.ftz}{.sat}{.relu}{.satfinite}.dtype.atype d, a  with .f16/.bf16 and any of
//       .f16 .bf16 .f32 .f64 and the integer types (.frnd = .rn .rz .rm .rp; .irnd = .rni .rzi
//       .rmi .rpi for float-to-integer and float-to-float integral rounding);
//   cvt.frnd2{.relu}{.satfinite}.f16x2/.bf16x2.f32 d, a, b    (a -> d[31:16], b -> d[15:0]);
//   cvt.rna{.satfinite}.tf32.f32 d, a  and  cvt.rn/.rz{.satfinite}{.relu}.tf32.f32 d, a;
//   cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f32 d, a, b        (a -> d[15:8], b -> d[7:0]);
//   cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f16x2 d, a         (a[31:16] -> d[15:8]);
//   cvt.rn{.relu}.f16x2.e4m3x2/.e5m2x2 d, a                   (a[15:8] -> d[31:16]).
// Every result is rounded once from the exact source value (small_float.h). .ftz flushes
// subnormal f32 inputs and results; .sat clamps a float result to [0, 1] (NaN -> 0); .relu
// makes a negative result +0 and a NaN result the canonical NaN; .satfinite turns infinities
// and overflows into the largest finite value of the same sign (NaN stays NaN). NaN results
// are canonical (f16/bf16 0x7FFF, f32 0x7FFFFFFF, fp8 0x7F). Float-to-integer conversions
// saturate to the destination range and give 0 for NaN. The .tf32 result is an f32 bit
// pattern with its 13 low mantissa bits zero.
#include <cmath>
#include <cstdint>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {
namespace {

using isa::DType;
using isa::Round;

bool is_int(DType t) { return !isa::dtype_is_float(t) && t != DType::Pred && t != DType::None; }
bool integral_round(Round r) {
  return r == Round::Rni || r == Round::Rzi || r == Round::Rmi || r == Round::Rpi;
}

// The exact value of a source of type t (64-bit integers rounded to odd, which a later rounding
// to any narrow format turns into the correctly rounded result).
double source_value(DType t, uint64_t bits, bool ftz) {
  const unsigned w = isa::dtype_bits(t);
  switch (t) {
    case DType::F16:
      return from_f16(static_cast<uint16_t>(bits));
    case DType::BF16:
      return from_bf16(static_cast<uint16_t>(bits));
    case DType::F32: {
      uint32_t u = static_cast<uint32_t>(bits);
      if (ftz && is_subnormal_bits(u, kF32)) u &= 0x80000000u;
      return decode_float(u, kF32);
    }
    case DType::F64:
      return get<double>(bits);
    default:
      break;
  }
  if (w < 64) {
    bits &= (uint64_t{1} << w) - 1;
    if (isa::dtype_is_signed(t) && (bits >> (w - 1)) & 1) bits |= ~uint64_t{0} << w;  // sign-extend
  }
  if (isa::dtype_is_signed(t)) {
    const int64_t v = static_cast<int64_t>(bits), lo = v & 0xFFFFFFFF;
    return add_odd(static_cast<double>(v - lo), static_cast<double>(lo));
  }
  return add_odd(static_cast<double>(bits & 0xFFFFFFFF00000000ull),
                 static_cast<double>(bits & 0xFFFFFFFFull));
}

double round_integral(double v, Round r) {
  switch (r) {
    case Round::Rni:
      return v - std::floor(v) == 0.5 ? 2 * std::round(v / 2) : std::round(v);
    case Round::Rmi:
      return std::floor(v);
    case Round::Rpi:
      return std::ceil(v);
    default:
      return std::trunc(v);
  }
}

// .relu and .sat on an unrounded float result; returns false for a NaN result.
double clamp_result(double v, const isa::Instruction& in) {
  if (in.has(isa::kRelu) && (v < 0 || (v == 0 && std::signbit(v)))) v = 0.0;
  if (in.has(isa::kSat)) v = std::isnan(v) ? 0.0 : (v < 0 ? 0.0 : std::fmin(v, 1.0));
  return v;
}

// Rounds v into the narrow destination element format f.
uint32_t narrow(double v, const FloatFormat& f, Round r, const isa::Instruction& in) {
  if (integral_round(r)) v = round_integral(v, r), r = Round::Rn;  // integral values are exact
  if (r == Round::None) r = Round::Rn;
  v = clamp_result(v, in);
  return encode_float(v, f, r, in.has(isa::kSatFinite));
}

// Saturating conversion of an integral value to an integer type (NaN -> 0), with the register
// bits written as put<> writes that type (signed values sign-extended).
uint64_t to_int(double v, DType t) {
  const unsigned w = isa::dtype_bits(t);
  if (std::isnan(v)) return 0;
  if (isa::dtype_is_signed(t)) {
    const double lim = std::ldexp(1.0, static_cast<int>(w) - 1);
    const int64_t max = w == 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1, min = -max - 1;
    return static_cast<uint64_t>(v <= -lim ? min : (v >= lim ? max : static_cast<int64_t>(v)));
  }
  if (v <= 0) return 0;
  if (v >= std::ldexp(1.0, static_cast<int>(w)))
    return w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  return static_cast<uint64_t>(v);
}

// The element format of a narrow scalar or packed type.
const FloatFormat* format_of(DType t) {
  switch (t) {
    case DType::F16:
    case DType::F16x2:
      return &kF16;
    case DType::BF16:
    case DType::BF16x2:
      return &kBF16;
    case DType::E4M3x2:
      return &kE4M3;
    case DType::E5M2x2:
      return &kE5M2;
    default:
      return nullptr;
  }
}

// cvt.rna.tf32.f32 d, a (what wmma::__float_to_tf32 gives) on the bits: adding half of the 13
// dropped bits' weight to the magnitude and clearing them rounds half away from zero, a carry
// into the exponent giving the next binade (past the largest finite value, the infinity); this is
// to_tf32's result for every value but NaN, which gives the canonical NaN.
void cvt_rna_tf32(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint32_t a = static_cast<uint32_t>(c.raw(in.ops[1], lane, tid));
    c.reg(in.ops[0].reg, tid) =
        (a & 0x7FFFFFFFu) > 0x7F800000u ? kF32.nan : (a + 0x1000u) & 0xFFFFE000u;
  });
}

// cvt.dtype.atype d, a with one value in and one out.
void cvt_scalar(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const DType d = in.type, s = in.type2;
  const bool ftz = in.has(isa::kFtz);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const double v = source_value(s, c.raw(in.ops[1], lane, tid), ftz);
    uint64_t out;
    if (d == DType::F16 || d == DType::BF16) {
      out = narrow(v, *format_of(d), in.rnd, in);
    } else if (d == DType::TF32) {
      const double r = clamp_result(v, in);
      out = std::isnan(r) ? kF32.nan : to_tf32(r, in.rnd, in.has(isa::kSatFinite));
    } else if (d == DType::F32 || d == DType::F64) {  // from f16/bf16: exact
      double r = clamp_result(integral_round(in.rnd) ? round_integral(v, in.rnd) : v, in);
      if (d == DType::F32) {
        uint32_t u = std::isnan(r) ? kF32.nan : encode_float(r, kF32, Round::Rn, false);
        if (ftz && is_subnormal_bits(u, kF32)) u &= 0x80000000u;
        out = u;
      } else {
        out = put<double>(std::isnan(r) ? get<double>(0x7FFFFFFFFFFFFFFFull) : r);
      }
    } else {  // integer destination
      out = to_int(round_integral(v, in.rnd), d);
    }
    c.reg(in.ops[0].reg, tid) = out;
  });
}

// cvt.*x2.f32 d, a, b: a goes to the upper element, b to the lower.
void cvt_pack_f32(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const FloatFormat& f = *format_of(in.type);
  const unsigned w = static_cast<unsigned>(f.man_bits + f.exp_bits + 1);
  const bool ftz = in.has(isa::kFtz);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const double a = source_value(DType::F32, c.raw(in.ops[1], lane, tid), ftz);
    const double b = source_value(DType::F32, c.raw(in.ops[2], lane, tid), ftz);
    c.reg(in.ops[0].reg, tid) = uint64_t{narrow(a, f, in.rnd, in)} << w | narrow(b, f, in.rnd, in);
  });
}

// cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f16x2 d, a and cvt.rn{.relu}.f16x2.e4m3x2/.e5m2x2 d, a:
// element i of a becomes element i of d.
void cvt_repack(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const FloatFormat& df = *format_of(in.type);
  const FloatFormat& sf = *format_of(in.type2);
  const unsigned dw = static_cast<unsigned>(df.man_bits + df.exp_bits + 1);
  const unsigned sw = static_cast<unsigned>(sf.man_bits + sf.exp_bits + 1);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t a = c.raw(in.ops[1], lane, tid);
    uint64_t d = 0;
    for (unsigned i = 0; i < 2; ++i) {
      const double v = decode_float(static_cast<uint32_t>(a >> (i * sw)) & ((1u << sw) - 1), sf);
      d |= uint64_t{narrow(v, df, Round::Rn, in)} << (i * dw);
    }
    c.reg(in.ops[0].reg, tid) = d;
  });
}

bool scalar_float(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64;
}
bool fp8x2(DType t) { return t == DType::E4M3x2 || t == DType::E5M2x2; }

}  // namespace

ExecFn bind_small_float_convert(const isa::Instruction& in) {
  const DType d = in.type, s = in.type2;
  const Round r = in.rnd;
  const bool frnd =
      r == Round::None || r == Round::Rn || r == Round::Rz || r == Round::Rm || r == Round::Rp;
  const bool rn = r == Round::Rn || r == Round::None;
  const bool three = in.nops == 3;
  if (d == DType::F16x2 || d == DType::BF16x2) {
    if (s == DType::F32 && three && (rn || r == Round::Rz) && !in.has(isa::kSat))
      return cvt_pack_f32;
    if (d == DType::F16x2 && fp8x2(s) && !three && rn && !in.has(isa::kSatFinite))
      return cvt_repack;
    return nullptr;
  }
  if (fp8x2(d)) {
    if (!rn || !in.has(isa::kSatFinite) || in.has(isa::kSat))
      return nullptr;  // .rn.satfinite is mandatory
    if (s == DType::F32 && three) return cvt_pack_f32;
    if (s == DType::F16x2 && !three) return cvt_repack;
    return nullptr;
  }
  if (three) return nullptr;
  if (d == DType::TF32) {
    const bool ok = s == DType::F32 && (r == Round::Rna || r == Round::Rn || r == Round::Rz) &&
                    !in.has(isa::kSat);
    if (ok && r == Round::Rna && !in.has(isa::kSatFinite) && !in.has(isa::kRelu) &&
        !in.has(isa::kFtz))
      return cvt_rna_tf32;
    return ok ? cvt_scalar : nullptr;
  }
  const bool narrow_side =
      d == DType::F16 || d == DType::BF16 || s == DType::F16 || s == DType::BF16;
  if (!narrow_side || !(scalar_float(s) || is_int(s)) || !(scalar_float(d) || is_int(d)))
    return nullptr;
  if (is_int(d) && !(r == Round::None || integral_round(r))) return nullptr;  // float -> int: .irnd
  if (is_int(s) && !frnd) return nullptr;                                     // int -> float: .frnd
  if (integral_round(r) && !scalar_float(s)) return nullptr;
  if ((in.has(isa::kRelu) || in.has(isa::kSatFinite)) && !(d == DType::F16 || d == DType::BF16))
    return nullptr;
  if (r == Round::Rna) return nullptr;
  return cvt_scalar;
}

}  // namespace gputlm::func::sem
