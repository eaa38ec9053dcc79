// Integer arithmetic (PTX ISA 9.7.1): add sub mul mad mul24 mad24 sad div rem abs neg min max.
// Arithmetic wraps modulo 2^width (computed unsigned, so no C++ overflow). Division by zero
// gives all ones (unsigned) or -1 (signed), remainder by zero the dividend, as hardware does;
// INT_MIN / -1 gives INT_MIN.
#include <algorithm>
#include <limits>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::MulMode;

template <class T>
T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
}
template <class T>
T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
}
template <class T>
T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<Unsigned<T>>(a) * static_cast<Unsigned<T>>(b));
}

// The wide type of T (twice the width, same signedness); 64-bit products use __int128.
template <class T>
struct Wide;
template <>
struct Wide<uint8_t> {
  using type = uint16_t;
};
template <>
struct Wide<int8_t> {
  using type = int16_t;
};
template <>
struct Wide<uint16_t> {
  using type = uint32_t;
};
template <>
struct Wide<int16_t> {
  using type = int32_t;
};
template <>
struct Wide<uint32_t> {
  using type = uint64_t;
};
template <>
struct Wide<int32_t> {
  using type = int64_t;
};
template <>
struct Wide<uint64_t> {
  using type = unsigned __int128;
};
template <>
struct Wide<int64_t> {
  using type = __int128;
};

template <class T>
T mul_hi(T a, T b) {
  using W = typename Wide<T>::type;
  return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (8 * sizeof(T)));
}
template <class T>
typename Wide<T>::type mul_wide(T a, T b) {
  using W = typename Wide<T>::type;
  return static_cast<W>(a) * static_cast<W>(b);
}

// .sat (s32 only in PTX): clamp the exact result to the s32 range.
int32_t sat32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}

template <class T>
ExecFn add_fn(bool sat) {
  if constexpr (std::is_same_v<T, int32_t>)
    if (sat)
      return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return sat32(int64_t{a} + b); }); };
  return [](ExecCtx& c) { binary<T>(c, [](auto... x) { return wrap_add<T>(x...); }); };
}
template <class T>
ExecFn sub_fn(bool sat) {
  if constexpr (std::is_same_v<T, int32_t>)
    if (sat)
      return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return sat32(int64_t{a} - b); }); };
  return [](ExecCtx& c) { binary<T>(c, [](auto... x) { return wrap_sub<T>(x...); }); };
}

template <class T>
ExecFn mul_fn(MulMode mode) {
  if constexpr (sizeof(T) == 1) return nullptr;
  switch (mode) {
    case MulMode::Hi:
      return [](ExecCtx& c) { binary<T>(c, [](auto... x) { return mul_hi<T>(x...); }); };
    case MulMode::Wide:
      if constexpr (sizeof(T) == 8)
        return nullptr;
      else
        return [](ExecCtx& c) {
          binary<T, typename Wide<T>::type>(c, [](auto... x) { return mul_wide<T>(x...); });
        };
    default:
      return [](ExecCtx& c) { binary<T>(c, [](auto... x) { return wrap_mul<T>(x...); }); };
  }
}
template <class T>
ExecFn mad_fn(MulMode mode) {
  if constexpr (sizeof(T) == 1) return nullptr;
  switch (mode) {
    case MulMode::Hi:
      return [](ExecCtx& c) {
        ternary<T>(c, [](T a, T b, T d) { return wrap_add(mul_hi(a, b), d); });
      };
    case MulMode::Wide:
      if constexpr (sizeof(T) == 8)
        return nullptr;
      else
        return [](ExecCtx& c) {
          using W = typename Wide<T>::type;
          ternary<T, W, W>(c, [](T a, T b, W d) { return wrap_add<W>(mul_wide(a, b), d); });
        };
    default:
      return [](ExecCtx& c) {
        ternary<T>(c, [](T a, T b, T d) { return wrap_add(wrap_mul(a, b), d); });
      };
  }
}

// mul24/mad24: 24-bit operands, 48-bit product; .lo keeps bits 31..0, .hi bits 47..16.
template <class T>
int64_t product24(T a, T b) {
  auto ext = [](T v) -> int64_t {
    if constexpr (std::is_signed_v<T>)
      return static_cast<int32_t>(static_cast<uint32_t>(v) << 8) >> 8;
    else
      return static_cast<uint32_t>(v) & 0xFFFFFF;
  };
  return ext(a) * ext(b);
}
template <class T>
ExecFn mul24_fn(MulMode mode, bool mad) {
  if constexpr (sizeof(T) != 4) return nullptr;
  const bool hi = mode == MulMode::Hi;
  if (!mad) {
    if (hi)
      return [](ExecCtx& c) {
        binary<T>(c, [](T a, T b) { return static_cast<T>(product24(a, b) >> 16); });
      };
    return
        [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return static_cast<T>(product24(a, b)); }); };
  }
  if (hi)
    return [](ExecCtx& c) {
      ternary<T>(c,
                 [](T a, T b, T d) { return wrap_add(static_cast<T>(product24(a, b) >> 16), d); });
    };
  return [](ExecCtx& c) {
    ternary<T>(c, [](T a, T b, T d) { return wrap_add(static_cast<T>(product24(a, b)), d); });
  };
}

// mad.hi.sat.s32 / mad24.hi.sat.s32 (the only saturating forms PTX has): the high part plus c,
// clamped to the s32 range.
ExecFn mad_hi_sat_fn(const isa::Instruction& in) {
  if (in.type != isa::DType::S32 || in.mul != MulMode::Hi) return nullptr;
  if (in.op == isa::Opcode::Mad24)
    return [](ExecCtx& c) {
      ternary<int32_t>(c, [](int32_t a, int32_t b, int32_t d) {
        return sat32(int64_t{static_cast<int32_t>(product24(a, b) >> 16)} + d);
      });
    };
  return [](ExecCtx& c) {
    ternary<int32_t>(
        c, [](int32_t a, int32_t b, int32_t d) { return sat32(int64_t{mul_hi(a, b)} + d); });
  };
}

template <class T>
ExecFn sad_fn() {
  return [](ExecCtx& c) {
    ternary<T>(c, [](T a, T b, T d) {
      Unsigned<T> diff = a < b ? static_cast<Unsigned<T>>(b) - static_cast<Unsigned<T>>(a)
                               : static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b);
      return wrap_add<T>(static_cast<T>(diff), d);
    });
  };
}

template <class T>
T int_div(T a, T b) {
  if (b == 0) return static_cast<T>(-1);
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == -1) return a;
  return static_cast<T>(a / b);
}
template <class T>
T int_rem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == -1) return 0;
  return static_cast<T>(a % b);
}
template <class T>
ExecFn div_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](auto... x) { return int_div<T>(x...); }); };
}
template <class T>
ExecFn rem_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](auto... x) { return int_rem<T>(x...); }); };
}

template <class T>
ExecFn abs_fn() {
  if constexpr (!std::is_signed_v<T>)
    return nullptr;
  else
    return [](ExecCtx& c) { unary<T>(c, [](T a) { return a < 0 ? wrap_sub<T>(0, a) : a; }); };
}
template <class T>
ExecFn neg_fn() {
  return [](ExecCtx& c) { unary<T>(c, [](T a) { return wrap_sub<T>(0, a); }); };
}
template <class T>
ExecFn min_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return std::min(a, b); }); };
}
template <class T>
ExecFn max_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return std::max(a, b); }); };
}

}  // namespace

ExecFn bind_int(const isa::Instruction& in) {
  using isa::Opcode;
  if (isa::dtype_is_float(in.type)) return nullptr;
  if (in.has(isa::kCc) || in.op == Opcode::Addc || in.op == Opcode::Subc || in.op == Opcode::Madc)
    return bind_carry(in);
  if (in.has(isa::kPacked16x2) || in.has(isa::kRelu) || in.op == Opcode::Dp4a ||
      in.op == Opcode::Dp2a)
    return bind_int_packed(in);
  // .sat exists for add/sub .s32 and mad.hi .s32 only (PTX ISA, Integer Arithmetic Instructions).
  if (in.has(isa::kSat) &&
      (in.type != isa::DType::S32 || (in.op != Opcode::Add && in.op != Opcode::Sub &&
                                      in.op != Opcode::Mad && in.op != Opcode::Mad24)))
    return nullptr;
  const MulMode mode = in.mul;
  const bool mad = in.op == Opcode::Mad24;
  if ((in.op == Opcode::Mad || in.op == Opcode::Mad24) && in.has(isa::kSat))
    return mad_hi_sat_fn(in);
  switch (in.op) {
    case Opcode::Add: {
      GPUTLM_DISPATCH_INT(in.type, add_fn, in.has(isa::kSat))
    }
    case Opcode::Sub: {
      GPUTLM_DISPATCH_INT(in.type, sub_fn, in.has(isa::kSat))
    }
    case Opcode::Sad: {
      GPUTLM_DISPATCH_INT(in.type, sad_fn)
    }
    case Opcode::Div: {
      GPUTLM_DISPATCH_INT(in.type, div_fn)
    }
    case Opcode::Rem: {
      GPUTLM_DISPATCH_INT(in.type, rem_fn)
    }
    case Opcode::Abs: {
      GPUTLM_DISPATCH_INT(in.type, abs_fn)
    }
    case Opcode::Neg: {
      GPUTLM_DISPATCH_INT(in.type, neg_fn)
    }
    case Opcode::Min: {
      GPUTLM_DISPATCH_INT(in.type, min_fn)
    }
    case Opcode::Max: {
      GPUTLM_DISPATCH_INT(in.type, max_fn)
    }
    case Opcode::Mul: {
      GPUTLM_DISPATCH_INT(in.type, mul_fn, mode)
    }
    case Opcode::Mad: {
      GPUTLM_DISPATCH_INT(in.type, mad_fn, mode)
    }
    case Opcode::Mul24:
    case Opcode::Mad24: {
      GPUTLM_DISPATCH_INT(in.type, mul24_fn, mode, mad)
    }
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
