// Floating-point arithmetic (PTX ISA 9.7.3, 9.7.4): add sub mul fma mad div abs neg min max
// rcp sqrt rsqrt sin cos lg2 ex2 tanh copysign testp, for f32 and f64. Rounding modifiers set
// the host rounding mode (this file is compiled with -frounding-math), .ftz flushes f32
// subnormal inputs and results, .sat clamps to [0, 1]. The .approx functions use the host's
// correctly rounded libm, which is within the hardware's stated error bounds.
#include <cmath>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/fp_util.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::Opcode;

template <class T>
struct FpMods {
  explicit FpMods(const isa::Instruction& in)
      : ftz(std::is_same_v<T, float> && in.has(isa::kFtz)), sat(in.has(isa::kSat)) {}
  T in(T x) const {
    if constexpr (std::is_same_v<T, float>) return ftz ? flush_subnormal(x) : x;
    return x;
  }
  T out(T x) const { return sat ? saturate(in(x)) : in(x); }
  bool ftz, sat;
};

// Through the lane loops of dispatch.h (whole-warp path included); the plain forms (no .ftz, no
// .sat) without the modifiers' per-lane tests.
template <class T, class F>
void f_unary(ExecCtx& c, F f) {
  const FpMods<T> m(*c.in);
  RoundingScope rs(c.in->rnd);
  if (!m.ftz && !m.sat) return unary<T>(c, f);
  unary<T>(c, [&](T a) { return m.out(f(m.in(a))); });
}
template <class T, class F>
void f_binary(ExecCtx& c, F f) {
  const FpMods<T> m(*c.in);
  RoundingScope rs(c.in->rnd);
  if (!m.ftz && !m.sat) return binary<T>(c, f);
  binary<T>(c, [&](T a, T b) { return m.out(f(m.in(a), m.in(b))); });
}
template <class T, class F>
void f_ternary(ExecCtx& c, F f) {
  const FpMods<T> m(*c.in);
  RoundingScope rs(c.in->rnd);
  if (!m.ftz && !m.sat) return ternary<T>(c, f);
  ternary<T>(c, [&](T a, T b, T d) { return m.out(f(m.in(a), m.in(b), m.in(d))); });
}

// min/max: a NaN operand yields the other operand; -0 orders below +0.
template <class T>
T fmin_ptx(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class T>
T fmax_ptx(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
// min/max{.NaN}{.xorsign.abs}.f32 (PTX ISA 9.7.3.10/11): .NaN makes a NaN operand give the
// canonical NaN; .xorsign.abs compares |a|, |b| and gives the result the sign sign(a)^sign(b).
template <bool IsMax>
void f32_min_max_ext(ExecCtx& c) {
  const FpMods<float> m(*c.in);
  const bool nan = c.in->has(isa::kNaN), xorsign = c.in->has(isa::kXorsignAbs);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    float a = m.in(src<float>(c, 1, lane, tid)), b = m.in(src<float>(c, 2, lane, tid));
    const bool neg = std::signbit(a) != std::signbit(b);
    if (xorsign) a = std::fabs(a), b = std::fabs(b);
    float d;
    if (nan && (std::isnan(a) || std::isnan(b)))
      d = get<float>(0x7FFFFFFFu);
    else
      d = IsMax ? fmax_ptx(a, b) : fmin_ptx(a, b);
    if (std::isnan(d))
      d = get<float>(0x7FFFFFFFu);
    else if (xorsign)
      d = std::copysign(d, neg ? -1.0f : 1.0f);
    dst<float>(c, lane, tid, m.out(d));
  });
}

template <class T>
bool testp(isa::TestpMode mode, T x) {
  switch (mode) {
    case isa::TestpMode::Finite:
      return std::isfinite(x);
    case isa::TestpMode::Infinite:
      return std::isinf(x);
    case isa::TestpMode::Number:
      return !std::isnan(x);
    case isa::TestpMode::NotANumber:
      return std::isnan(x);
    case isa::TestpMode::Normal:
      return std::isnormal(x) || x == T(0);  // PTX: zeros count as normal
    case isa::TestpMode::Subnormal:
      return std::fpclassify(x) == FP_SUBNORMAL;
    default:
      return false;
  }
}

template <class T>
ExecFn float_fn(Opcode op) {
  switch (op) {
    case Opcode::Add:
      return [](ExecCtx& c) { f_binary<T>(c, [](T a, T b) { return a + b; }); };
    case Opcode::Sub:
      return [](ExecCtx& c) { f_binary<T>(c, [](T a, T b) { return a - b; }); };
    case Opcode::Mul:
      return [](ExecCtx& c) { f_binary<T>(c, [](T a, T b) { return a * b; }); };
    case Opcode::Div:
      return [](ExecCtx& c) { f_binary<T>(c, [](T a, T b) { return a / b; }); };
    case Opcode::Min:
      return [](ExecCtx& c) { f_binary<T>(c, [](auto... x) { return fmin_ptx<T>(x...); }); };
    case Opcode::Max:
      return [](ExecCtx& c) { f_binary<T>(c, [](auto... x) { return fmax_ptx<T>(x...); }); };
    case Opcode::Copysign:
      return [](ExecCtx& c) { f_binary<T>(c, [](T a, T b) { return std::copysign(b, a); }); };
    case Opcode::Fma:
    case Opcode::Mad:
      return [](ExecCtx& c) { f_ternary<T>(c, [](T a, T b, T d) { return std::fma(a, b, d); }); };
    case Opcode::Abs:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::fabs(a); }); };
    case Opcode::Neg:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return -a; }); };
    case Opcode::Rcp:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return T(1) / a; }); };
    case Opcode::Sqrt:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::sqrt(a); }); };
    case Opcode::Rsqrt:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return T(1) / std::sqrt(a); }); };
    case Opcode::Sin:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::sin(a); }); };
    case Opcode::Cos:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::cos(a); }); };
    case Opcode::Lg2:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::log2(a); }); };
    case Opcode::Ex2:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::exp2(a); }); };
    case Opcode::Tanh:
      return [](ExecCtx& c) { f_unary<T>(c, [](T a) { return std::tanh(a); }); };
    case Opcode::Testp:
      return [](ExecCtx& c) {
        lanes(c, [&](unsigned lane, uint32_t tid) {
          c.reg(c.in->ops[0].reg, tid) = testp(c.in->testp, src<T>(c, 1, lane, tid));
        });
      };
    default:
      return nullptr;
  }
}

}  // namespace

ExecFn bind_float(const isa::Instruction& in) {
  if (is_half_type(in.type)) return bind_half(in);
  if (in.has(isa::kRelu) || in.has(isa::kSatFinite) || in.has(isa::kNoftz)) return nullptr;
  if (in.has(isa::kNaN) || in.has(isa::kXorsignAbs)) {
    if (in.type != isa::DType::F32) return nullptr;
    if (in.op == Opcode::Min) return f32_min_max_ext<false>;
    if (in.op == Opcode::Max) return f32_min_max_ext<true>;
    return nullptr;
  }
  if (in.type == isa::DType::F32 && (in.type2 == isa::DType::F16 || in.type2 == isa::DType::BF16))
    return bind_mixed_f32(in);
  if (in.type2 != isa::DType::None) return nullptr;
  GPUTLM_DISPATCH_FLOAT(in.type, float_fn, in.op)
}

}  // namespace gputlm::func::sem
