// Extended-precision integer arithmetic (PTX ISA 9.7.1.1-2): add.cc, addc, sub.cc, subc, mad.cc
// and madc on 32- and 64-bit integers, through each thread's carry flag (CtaState::carry, the
// condition code CC.CF). nvcc emits them for wide products, e.g. in the double-precision
// trigonometric slow path. sub.cc/subc use the flag as borrow: subc d = a - (b + CF), and the
// flag becomes 1 when that needs a borrow.
#include <type_traits>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::Opcode;
using U128 = unsigned __int128;

// One lane: (result, carry out) from a, b, c and the carry in.
template <class U>
void carry_lane(ExecCtx& c, unsigned lane, uint32_t tid, Opcode op, isa::MulMode mode, bool set_cf,
                bool is_signed) {
  constexpr unsigned kBits = 8 * sizeof(U);
  const U a = src<U>(c, 1, lane, tid), b = src<U>(c, 2, lane, tid);
  uint8_t& cf = c.cta->carry[tid];
  const bool use_cf = op == Opcode::Addc || op == Opcode::Subc || op == Opcode::Madc;
  const unsigned cin = use_cf ? cf : 0;
  U128 wide;
  bool out;
  if (op == Opcode::Sub || op == Opcode::Subc) {
    const U128 sub = U128{b} + cin;
    wide = U128{a} - sub;
    out = U128{a} < sub;
  } else {
    U128 t = U128{b};
    if (op == Opcode::Mad || op == Opcode::Madc) {
      using S = std::make_signed_t<U>;
      const U128 product =
          is_signed ? static_cast<U128>(__int128{static_cast<S>(a)} * __int128{static_cast<S>(b)})
                    : U128{a} * U128{b};
      t = static_cast<U>(mode == isa::MulMode::Hi
                             ? static_cast<U128>(static_cast<__int128>(product) >> kBits)
                             : product);
      wide = t + U128{src<U>(c, 3, lane, tid)} + cin;
    } else {
      wide = U128{a} + t + cin;
    }
    out = (wide >> kBits) != 0;
  }
  dst<U>(c, lane, tid, static_cast<U>(wide));
  if (set_cf) cf = out ? 1 : 0;
}

template <class U>
ExecFn carry_fn() {
  return [](ExecCtx& c) {
    const isa::Instruction& in = *c.in;
    const bool is_signed = isa::dtype_is_signed(in.type);
    lanes(c, [&](unsigned lane, uint32_t tid) {
      carry_lane<U>(c, lane, tid, in.op, in.mul, in.has(isa::kCc), is_signed);
    });
  };
}

}  // namespace

ExecFn bind_carry(const isa::Instruction& in) {
  const bool mad = in.op == Opcode::Mad || in.op == Opcode::Madc;
  if (mad && in.mul != isa::MulMode::Lo && in.mul != isa::MulMode::Hi) return nullptr;
  if (in.has(isa::kSat)) return nullptr;
  switch (in.type) {
    case isa::DType::U32:
    case isa::DType::S32:
    case isa::DType::B32:
      return carry_fn<uint32_t>();
    case isa::DType::U64:
    case isa::DType::S64:
    case isa::DType::B64:
      return carry_fn<uint64_t>();
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
