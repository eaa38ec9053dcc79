// Integer instructions on packed values (PTX ISA, Integer Arithmetic Instructions): dp4a and
// dp2a (dot products of bytes and half-words accumulated in 32 bits), add/min/max on .u16x2 and
// .s16x2 (two 16-bit lanes of a .b32, element 0 in the low half), and min/max .relu on .s32 and
// .s16x2 (a negative result becomes 0).
#include <algorithm>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::DType;

// Element i (of `bits` bits) of v, sign- or zero-extended.
template <bool Signed>
int64_t element(uint32_t v, unsigned i, unsigned bits) {
  const uint32_t raw = (v >> (i * bits)) & ((1u << bits) - 1);
  if (Signed && ((raw >> (bits - 1)) & 1)) return static_cast<int64_t>(raw) - (int64_t{1} << bits);
  return raw;
}

// dp4a: d = c + sum a.byte[i] * b.byte[i]; dp2a: d = c + sum a.half[i] * b.byte[sel + i], sel = 0
// (.lo) or 2 (.hi). The sum wraps modulo 2^32 (c and d are .s32 unless both types are .u32).
template <bool SA, bool SB, unsigned N, unsigned Sel>
uint32_t dot(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t d = c;
  for (unsigned i = 0; i < N; ++i)
    d += static_cast<uint64_t>(element<SA>(a, i, 32 / N) * element<SB>(b, Sel + i, 8));
  return static_cast<uint32_t>(d);
}
template <unsigned N, unsigned Sel>
ExecFn dot_fn(bool sa, bool sb) {
  if (sa && sb)
    return [](ExecCtx& c) {
      ternary<uint32_t>(c, [](auto... x) { return dot<true, true, N, Sel>(x...); });
    };
  if (sa)
    return [](ExecCtx& c) {
      ternary<uint32_t>(c, [](auto... x) { return dot<true, false, N, Sel>(x...); });
    };
  if (sb)
    return [](ExecCtx& c) {
      ternary<uint32_t>(c, [](auto... x) { return dot<false, true, N, Sel>(x...); });
    };
  return [](ExecCtx& c) {
    ternary<uint32_t>(c, [](auto... x) { return dot<false, false, N, Sel>(x...); });
  };
}
ExecFn bind_dot(const isa::Instruction& in) {
  auto int32 = [](DType t) { return t == DType::U32 || t == DType::S32; };
  if (!int32(in.type) || !int32(in.type2)) return nullptr;
  const bool sa = in.type == DType::S32, sb = in.type2 == DType::S32;
  if (in.op == isa::Opcode::Dp4a)
    return in.mul == isa::MulMode::None ? dot_fn<4, 0>(sa, sb) : nullptr;
  if (in.mul == isa::MulMode::Lo) return dot_fn<2, 0>(sa, sb);
  if (in.mul == isa::MulMode::Hi) return dot_fn<2, 2>(sa, sb);
  return nullptr;
}

enum class Op { Add, Min, Max };
template <Op O, bool Signed, bool Relu>
int64_t apply(int64_t a, int64_t b) {
  int64_t r = O == Op::Add ? a + b : O == Op::Min ? std::min(a, b) : std::max(a, b);
  return Relu && r < 0 ? 0 : r;
}
// Both 16-bit lanes of a .b32, each wrapping to 16 bits.
template <Op O, bool Signed, bool Relu>
uint32_t packed(uint32_t a, uint32_t b) {
  uint32_t d = 0;
  for (unsigned i = 0; i < 2; ++i)
    d |= (static_cast<uint32_t>(
              apply<O, Signed, Relu>(element<Signed>(a, i, 16), element<Signed>(b, i, 16))) &
          0xFFFF)
         << (16 * i);
  return d;
}
template <Op O>
ExecFn packed_fn(bool is_signed, bool relu) {
  if (relu)
    return is_signed ? ExecFn([](ExecCtx& c) {
      binary<uint32_t>(c, [](auto... x) { return packed<O, true, true>(x...); });
    })
                     : nullptr;
  return is_signed ? ExecFn([](ExecCtx& c) {
    binary<uint32_t>(c, [](auto... x) { return packed<O, true, false>(x...); });
  })
                   : ExecFn([](ExecCtx& c) {
                       binary<uint32_t>(c, [](auto... x) { return packed<O, false, false>(x...); });
                     });
}

}  // namespace

ExecFn bind_int_packed(const isa::Instruction& in) {
  using isa::Opcode;
  if (in.op == Opcode::Dp4a || in.op == Opcode::Dp2a) return bind_dot(in);
  const bool relu = in.has(isa::kRelu);
  if (in.has(isa::kPacked16x2)) {
    if (in.type != DType::U16 && in.type != DType::S16) return nullptr;
    const bool is_signed = in.type == DType::S16;
    switch (in.op) {
      case Opcode::Add:
        return relu || in.has(isa::kSat) ? nullptr : packed_fn<Op::Add>(is_signed, false);
      case Opcode::Min:
        return packed_fn<Op::Min>(is_signed, relu);
      case Opcode::Max:
        return packed_fn<Op::Max>(is_signed, relu);
      default:
        return nullptr;
    }
  }
  if (!relu || in.type != DType::S32) return nullptr;  // .relu: .s32 and .s16x2 only
  if (in.op == Opcode::Min)
    return [](ExecCtx& c) {
      binary<int32_t>(c, [](int32_t a, int32_t b) { return std::max(0, std::min(a, b)); });
    };
  if (in.op == Opcode::Max)
    return [](ExecCtx& c) {
      binary<int32_t>(c, [](int32_t a, int32_t b) { return std::max(0, std::max(a, b)); });
    };
  return nullptr;
}

}  // namespace gputlm::func::sem
