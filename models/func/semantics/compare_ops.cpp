// Comparison and selection (PTX ISA 9.7.5, 9.7.6): setp set selp slct. Float comparisons follow
// IEEE (fp_util.h float_compare): the ordered operators are false and the unordered (*u) ones true
// when an operand is NaN.
// Half-precision sources and destinations are in half_compare_ops.cpp.
#include <cmath>
#include <type_traits>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/fp_util.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::CmpOp;

// An integer comparison with its operator fixed at compile time (the operators other than the
// ten integer ones are false).
template <CmpOp Op, class T>
bool int_compare(T a, T b) {
  using U = Unsigned<T>;
  if constexpr (Op == CmpOp::Eq)
    return a == b;
  else if constexpr (Op == CmpOp::Ne)
    return a != b;
  else if constexpr (Op == CmpOp::Lt)
    return a < b;
  else if constexpr (Op == CmpOp::Le)
    return a <= b;
  else if constexpr (Op == CmpOp::Gt)
    return a > b;
  else if constexpr (Op == CmpOp::Ge)
    return a >= b;
  else if constexpr (Op == CmpOp::Lo)
    return U(a) < U(b);
  else if constexpr (Op == CmpOp::Ls)
    return U(a) <= U(b);
  else if constexpr (Op == CmpOp::Hi)
    return U(a) > U(b);
  else if constexpr (Op == CmpOp::Hs)
    return U(a) >= U(b);
  else
    return false;
}

// f(std::integral_constant<CmpOp, op>{}) for the integer operators (None for any other): the
// switch on the operator happens here, once, and f sees a constant.
template <class F>
decltype(auto) with_int_op(CmpOp op, F f) {
  using C = CmpOp;
  switch (op) {
    case C::Eq:
      return f(std::integral_constant<C, C::Eq>{});
    case C::Ne:
      return f(std::integral_constant<C, C::Ne>{});
    case C::Lt:
      return f(std::integral_constant<C, C::Lt>{});
    case C::Le:
      return f(std::integral_constant<C, C::Le>{});
    case C::Gt:
      return f(std::integral_constant<C, C::Gt>{});
    case C::Ge:
      return f(std::integral_constant<C, C::Ge>{});
    case C::Lo:
      return f(std::integral_constant<C, C::Lo>{});
    case C::Ls:
      return f(std::integral_constant<C, C::Ls>{});
    case C::Hi:
      return f(std::integral_constant<C, C::Hi>{});
    case C::Hs:
      return f(std::integral_constant<C, C::Hs>{});
    default:
      return f(std::integral_constant<C, C::None>{});
  }
}

template <class T>
bool compare(CmpOp op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return float_compare(op, a, b);
  } else {
    return with_int_op(op, [&](auto k) { return int_compare<decltype(k)::value>(a, b); });
  }
}

template <class T>
bool compare_lanes(ExecCtx& c, unsigned lane, uint32_t tid) {
  T a = src<T>(c, 1, lane, tid), b = src<T>(c, 2, lane, tid);
  if constexpr (std::is_same_v<T, float>)
    if (c.in->has(isa::kFtz)) a = flush_subnormal(a), b = flush_subnormal(b);
  return compare<T>(c.in->cmp, a, b);
}

// d[i] = a[i] op b[i] (and d2[i] its negation) for a whole warp, the operator chosen once.
template <class T>
[[gnu::always_inline]] inline void compare_warp(const isa::Instruction& in, const uint64_t* a,
                                                const uint64_t* b, uint64_t* d, uint64_t* d2) {
  auto run = [&](auto op) {
    for (unsigned i = 0; i < kWarpSize; ++i) d[i] = op(get<T>(a[i]), get<T>(b[i]));
  };
  if constexpr (std::is_floating_point_v<T>) {
    const bool ftz = std::is_same_v<T, float> && in.has(isa::kFtz);
    run([&](T x, T y) {
      return ftz ? compare<T>(in.cmp, flush_subnormal(x), flush_subnormal(y))
                 : compare<T>(in.cmp, x, y);
    });
  } else {
    with_int_op(in.cmp, [&](auto k) {
      run([](T x, T y) { return int_compare<decltype(k)::value>(x, y); });
    });
  }
  if (d2)
    for (unsigned i = 0; i < kWarpSize; ++i) d2[i] = !d[i];
}

template <class T>
ExecFn setp_fn() {
  return [](ExecCtx& c) {
    const isa::Instruction& in = *c.in;
    WarpSources s;
    if (in.boolop == isa::BoolOp::None)
      if (uint64_t* d = whole_warp(c, 2, s)) {
        compare_warp<T>(in, s.p[0], s.p[1], d,
                        in.dst2 >= 0 ? &c.reg(in.dst2, c.group.base_tid) : nullptr);
        return;
      }
    lanes(c, [&](unsigned lane, uint32_t tid) {
      const bool t = compare_lanes<T>(c, lane, tid);
      const uint64_t cv = in.boolop != isa::BoolOp::None ? c.raw(in.ops[3], lane, tid) : 0;
      c.reg(in.ops[0].reg, tid) = combine(in.boolop, t, cv);
      if (in.dst2 >= 0) c.reg(in.dst2, tid) = combine(in.boolop, !t, cv);
    });
  };
}

// set: d = all ones (integer) or 1.0f when the comparison holds, else 0.
template <class T>
ExecFn set_fn(isa::DType dtype) {
  if (dtype == isa::DType::F32)
    return [](ExecCtx& c) {
      lanes(c, [&](unsigned lane, uint32_t tid) {
        const uint64_t cv = c.in->boolop != isa::BoolOp::None ? c.raw(c.in->ops[3], lane, tid) : 0;
        dst<float>(c, lane, tid,
                   combine(c.in->boolop, compare_lanes<T>(c, lane, tid), cv) ? 1.0f : 0.0f);
      });
    };
  return [](ExecCtx& c) {
    lanes(c, [&](unsigned lane, uint32_t tid) {
      const uint64_t cv = c.in->boolop != isa::BoolOp::None ? c.raw(c.in->ops[3], lane, tid) : 0;
      dst<uint32_t>(c, lane, tid,
                    combine(c.in->boolop, compare_lanes<T>(c, lane, tid), cv) ? 0xFFFFFFFFu : 0u);
    });
  };
}

template <class T>
ExecFn selp_fn() {
  return [](ExecCtx& c) {
    WarpSources s;
    if (uint64_t* d = whole_warp(c, 3, s)) {
      for (unsigned i = 0; i < kWarpSize; ++i)
        d[i] = put<T>(get<T>((s.p[2][i] & 1) ? s.p[0][i] : s.p[1][i]));
      return;
    }
    lanes(c, [&](unsigned lane, uint32_t tid) {
      const bool p = c.raw(c.in->ops[3], lane, tid) & 1;
      dst<T>(c, lane, tid, src<T>(c, p ? 1 : 2, lane, tid));
    });
  };
}

// slct: d = c >= 0 ? a : b, with c an s32 or f32 (.ftz: a subnormal c counts as a signed zero,
// so it selects a).
template <class T>
ExecFn slct_fn(isa::DType ctype) {
  if (ctype == isa::DType::F32)
    return [](ExecCtx& c) {
      const bool ftz = c.in->has(isa::kFtz);
      lanes(c, [&](unsigned lane, uint32_t tid) {
        float sel = src<float>(c, 3, lane, tid);
        if (ftz) sel = flush_subnormal(sel);
        dst<T>(c, lane, tid, src<T>(c, sel >= 0.0f ? 1 : 2, lane, tid));
      });
    };
  return [](ExecCtx& c) {
    lanes(c, [&](unsigned lane, uint32_t tid) {
      dst<T>(c, lane, tid, src<T>(c, src<int32_t>(c, 3, lane, tid) >= 0 ? 1 : 2, lane, tid));
    });
  };
}

}  // namespace

ExecFn bind_compare(const isa::Instruction& in) {
  using isa::Opcode;
  switch (in.op) {
    case Opcode::Setp:
      if (is_half_type(in.type)) return bind_half_compare(in);
      if (in.type == isa::DType::F32) return setp_fn<float>();
      if (in.type == isa::DType::F64) return setp_fn<double>();
      { GPUTLM_DISPATCH_INT(in.type, setp_fn) }
    case Opcode::Set: {
      const isa::DType stype = in.type2;
      if (is_half_type(stype) || is_half_type(in.type)) return bind_half_compare(in);
      if (stype == isa::DType::F32) return set_fn<float>(in.type);
      if (stype == isa::DType::F64) return set_fn<double>(in.type);
      GPUTLM_DISPATCH_INT(stype, set_fn, in.type)
    }
    case Opcode::Selp:
      // Half types select their bits like .b16/.b32.
      if (in.type == isa::DType::F16 || in.type == isa::DType::BF16) return selp_fn<uint16_t>();
      if (in.type == isa::DType::F16x2 || in.type == isa::DType::BF16x2) return selp_fn<uint32_t>();
      if (in.type == isa::DType::F32) return selp_fn<float>();
      if (in.type == isa::DType::F64) return selp_fn<double>();
      { GPUTLM_DISPATCH_INT(in.type, selp_fn) }
    case Opcode::Slct:
      if (in.type == isa::DType::F32) return slct_fn<float>(in.type2);
      if (in.type == isa::DType::F64) return slct_fn<double>(in.type2);
      { GPUTLM_DISPATCH_INT(in.type, slct_fn, in.type2) }
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
