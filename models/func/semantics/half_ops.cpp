// Half-precision arithmetic (PTX ISA 9.7.4 "Half Precision Floating-Point Instructions"): add
// sub mul fma neg abs min max ex2.approx tanh.approx on .f16 .f16x2 .bf16 .bf16x2.
//
// Each element is computed exactly (or rounded to odd, small_float.h) in double and rounded once
// to the element format with round-to-nearest-even, the only rounding .rn these instructions
// allow. Packed x2 types compute their two 16-bit halves separately, element 0 in bits 0..15.
// Modifiers: .ftz (f16 only) flushes subnormal inputs and results to sign-preserving zero;
// .sat clamps the result to [0.0, 1.0] with NaN becoming +0.0; .relu (fma) makes a negative
// result +0.0 and a NaN result canonical NaN. A NaN result is the canonical NaN 0x7FFF.
// min/max: a NaN operand yields the other operand (both NaN: canonical NaN), -0.0 < +0.0; .NaN
// makes any NaN operand give canonical NaN; .xorsign.abs compares |a| and |b| and gives the
// result the sign sign(a) ^ sign(b). neg/abs change the sign bit only.
#include <cmath>
#include <cstdint>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/semantics.h"
#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {
namespace {

using isa::Opcode;

enum class HOp { Add, Sub, Mul, Fma, Min, Max, Neg, Abs, Ex2, Tanh };

// The modifiers of one instruction, read at each execution (bound functions are plain pointers).
struct HalfMods {
  HalfMods(const isa::Instruction& in, const FloatFormat& fmt)
      : f(fmt),
        ftz(in.has(isa::kFtz)),
        sat(in.has(isa::kSat)),
        relu(in.has(isa::kRelu)),
        nan(in.has(isa::kNaN)),
        xorsign(in.has(isa::kXorsignAbs)) {}
  const FloatFormat& f;
  bool ftz, sat, relu, nan, xorsign;

  uint16_t flush(uint16_t x) const {
    return ftz && is_subnormal_bits(x, f) ? static_cast<uint16_t>(x & f.sign_bit()) : x;
  }
  double in(uint16_t x) const { return decode_float(flush(x), f); }
  bool is_nan(uint16_t x) const { return std::isnan(decode_float(x, f)); }
  // Rounds an exact (or round-to-odd) result once and applies .ftz, .sat, .relu.
  uint16_t out(double r) const {
    if (std::isnan(r)) return static_cast<uint16_t>(sat ? 0 : f.nan);
    if (relu && (r < 0 || (r == 0 && std::signbit(r)))) r = 0.0;
    if (sat) r = r < 0 ? 0.0 : std::fmin(r, 1.0);
    return flush(static_cast<uint16_t>(encode_float(r, f, isa::Round::Rn, false)));
  }
};

// min/max per PTX ISA 9.7.4.10 (min) and 9.7.4.11 (max); returns the chosen bits unrounded.
template <bool IsMax>
uint16_t min_max(const HalfMods& m, uint16_t a, uint16_t b) {
  a = m.flush(a), b = m.flush(b);
  const uint16_t sign = static_cast<uint16_t>(m.f.sign_bit());
  const uint16_t xsign = static_cast<uint16_t>((a ^ b) & sign);
  if (m.xorsign) a &= static_cast<uint16_t>(~sign), b &= static_cast<uint16_t>(~sign);
  const bool na = m.is_nan(a), nb = m.is_nan(b);
  if ((na && nb) || (m.nan && (na || nb))) return static_cast<uint16_t>(m.f.nan);
  uint16_t d;
  if (na)
    d = b;
  else if (nb)
    d = a;
  else {
    const double x = decode_float(a, m.f), y = decode_float(b, m.f);
    if (x == y)
      d = (std::signbit(x) == IsMax) ? b : a;  // -0 < +0
    else
      d = ((x < y) != IsMax) ? a : b;
  }
  if (m.xorsign) d = static_cast<uint16_t>((d & ~sign) | xsign);
  return d;
}

template <HOp Op>
uint16_t element(const HalfMods& m, uint16_t a, uint16_t b, uint16_t c) {
  const uint16_t sign = static_cast<uint16_t>(m.f.sign_bit());
  switch (Op) {
    case HOp::Add:
      return m.out(add_odd(m.in(a), m.in(b)));
    case HOp::Sub:
      return m.out(add_odd(m.in(a), -m.in(b)));
    case HOp::Mul:
      return m.out(m.in(a)*m.in(b));  // exact: at most 22 significand bits
    case HOp::Fma:
      return m.out(fma_odd(m.in(a), m.in(b), m.in(c)));
    case HOp::Min:
      return min_max<false>(m, a, b);
    case HOp::Max:
      return min_max<true>(m, a, b);
    case HOp::Neg:
      return static_cast<uint16_t>(m.flush(a) ^ sign);
    case HOp::Abs:
      return static_cast<uint16_t>(m.flush(a) & ~sign);
    case HOp::Ex2:
      return m.out(std::exp2(m.in(a)));
    case HOp::Tanh:
      return m.out(std::tanh(m.in(a)));
  }
  return 0;
}

template <HOp Op, bool Packed, bool BF>
void half_exec(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const HalfMods m(in, BF ? kBF16 : kF16);
  const unsigned n = in.nops;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t a = c.raw(in.ops[1], lane, tid);
    const uint64_t b = n > 2 ? c.raw(in.ops[2], lane, tid) : 0;
    const uint64_t cc = n > 3 ? c.raw(in.ops[3], lane, tid) : 0;
    uint64_t d = element<Op>(m, a & 0xFFFF, b & 0xFFFF, cc & 0xFFFF);
    if (Packed)
      d |= uint64_t{element<Op>(m, (a >> 16) & 0xFFFF, (b >> 16) & 0xFFFF, (cc >> 16) & 0xFFFF)}
           << 16;
    c.reg(in.ops[0].reg, tid) = d;
  });
}

template <HOp Op>
ExecFn by_type(isa::DType t) {
  switch (t) {
    case isa::DType::F16:
      return half_exec<Op, false, false>;
    case isa::DType::F16x2:
      return half_exec<Op, true, false>;
    case isa::DType::BF16:
      return half_exec<Op, false, true>;
    case isa::DType::BF16x2:
      return half_exec<Op, true, true>;
    default:
      return nullptr;
  }
}

// Mixed precision (PTX ISA 9.7.3.1 add, 9.7.3.2 sub, 9.7.3.5 fma, PTX 8.6):
// add/sub{.rnd}{.sat}.f32.atype d, a, c and fma.rnd{.sat}.f32.abtype d, a, b, c, with a (and b)
// .f16 or .bf16 and c and d .f32; one rounding to f32 in the instruction's mode.
template <HOp Op, bool BF>
void mixed_exec(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const FloatFormat& f = BF ? kBF16 : kF16;
  const isa::Round r = in.rnd == isa::Round::None ? isa::Round::Rn : in.rnd;
  const bool sat = in.has(isa::kSat);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const double a = decode_float(static_cast<uint16_t>(c.raw(in.ops[1], lane, tid)), f);
    double v;
    if (Op == HOp::Fma) {
      const double b = decode_float(static_cast<uint16_t>(c.raw(in.ops[2], lane, tid)), f);
      v = fma_odd(a, b, get<float>(c.raw(in.ops[3], lane, tid)));
    } else {
      const double cc = get<float>(c.raw(in.ops[2], lane, tid));
      v = add_odd(a, Op == HOp::Sub ? -cc : cc);
    }
    float d = std::isnan(v) ? get<float>(0x7FFFFFFFu) : to_f32(v, r);
    if (sat) d = std::isnan(d) ? 0.0f : (d < 0 ? 0.0f : std::fmin(d, 1.0f));
    dst<float>(c, lane, tid, d);
  });
}

}  // namespace

ExecFn bind_mixed_f32(const isa::Instruction& in) {
  const bool bf = in.type2 == isa::DType::BF16;
  if (in.has(isa::kFtz) || in.has(isa::kRelu) || in.rnd == isa::Round::Rna ||
      in.rnd >= isa::Round::Rni)
    return nullptr;
  switch (in.op) {
    case Opcode::Add:
      return bf ? mixed_exec<HOp::Add, true> : mixed_exec<HOp::Add, false>;
    case Opcode::Sub:
      return bf ? mixed_exec<HOp::Sub, true> : mixed_exec<HOp::Sub, false>;
    case Opcode::Fma:
      return bf ? mixed_exec<HOp::Fma, true> : mixed_exec<HOp::Fma, false>;
    default:
      return nullptr;
  }
}

bool is_half_type(isa::DType t) {
  return t == isa::DType::F16 || t == isa::DType::F16x2 || t == isa::DType::BF16 ||
         t == isa::DType::BF16x2;
}

// atom/red.add.noftz on .f16 .f16x2 .bf16 .bf16x2 (PTX ISA 9.7.13.5 atom): round to nearest
// even, subnormal inputs and results kept; each half of an x2 value is added separately.
uint32_t half_atomic_add(isa::DType t, uint32_t old_bits, uint32_t b_bits) {
  const FloatFormat& f = t == isa::DType::BF16 || t == isa::DType::BF16x2 ? kBF16 : kF16;
  auto add = [&](uint32_t x, uint32_t y) {
    return encode_float(add_odd(decode_float(x & 0xFFFF, f), decode_float(y & 0xFFFF, f)), f,
                        isa::Round::Rn, false);
  };
  uint32_t d = add(old_bits, b_bits);
  if (t == isa::DType::F16x2 || t == isa::DType::BF16x2)
    d |= add(old_bits >> 16, b_bits >> 16) << 16;
  return d;
}

ExecFn bind_half(const isa::Instruction& in) {
  const bool bf = in.type == isa::DType::BF16 || in.type == isa::DType::BF16x2;
  const bool rn_only = in.rnd == isa::Round::None || in.rnd == isa::Round::Rn;
  // The ISA's forms (9.7.4): .ftz exists for f16 only (ex2.approx.ftz for bf16 only); .sat for
  // f16 add/sub/mul/fma; .relu for fma; .rn is the only rounding.
  if (!rn_only) return nullptr;
  if (in.has(isa::kSat) && (bf || in.has(isa::kRelu))) return nullptr;
  if (in.has(isa::kRelu) && in.op != Opcode::Fma) return nullptr;
  if ((in.has(isa::kNaN) || in.has(isa::kXorsignAbs)) && in.op != Opcode::Min &&
      in.op != Opcode::Max)
    return nullptr;
  if (in.has(isa::kFtz) && bf && in.op != Opcode::Ex2) return nullptr;
  switch (in.op) {
    case Opcode::Add:
      return by_type<HOp::Add>(in.type);
    case Opcode::Sub:
      return by_type<HOp::Sub>(in.type);
    case Opcode::Mul:
      return by_type<HOp::Mul>(in.type);
    case Opcode::Fma:
      return by_type<HOp::Fma>(in.type);
    case Opcode::Min:
      return in.has(isa::kSat) ? nullptr : by_type<HOp::Min>(in.type);
    case Opcode::Max:
      return in.has(isa::kSat) ? nullptr : by_type<HOp::Max>(in.type);
    case Opcode::Neg:
      return in.has(isa::kSat) ? nullptr : by_type<HOp::Neg>(in.type);
    case Opcode::Abs:
      return in.has(isa::kSat) ? nullptr : by_type<HOp::Abs>(in.type);
    case Opcode::Ex2: {  // ex2.approx.f16/.f16x2, ex2.approx.ftz.bf16/.bf16x2
      const bool ok = in.has(isa::kApprox) && !in.has(isa::kSat) && (in.has(isa::kFtz) || !bf);
      return ok ? by_type<HOp::Ex2>(in.type) : nullptr;
    }
    case Opcode::Tanh:
      return in.has(isa::kApprox) && !in.has(isa::kSat) ? by_type<HOp::Tanh>(in.type) : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
