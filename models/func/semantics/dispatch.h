// Helpers shared by the semantics files: per-type dispatch and lane loops for common shapes.
#pragma once

#include <algorithm>
#include <type_traits>

#include "models/func/exec_context.h"

namespace gputlm::func::sem {

// Picks FN<T>(args...) for the integer (and bit) types; nullptr for others.
#define GPUTLM_DISPATCH_INT(type, FN, ...) \
  switch (type) {                          \
    case isa::DType::U8:                   \
    case isa::DType::B8:                   \
      return FN<uint8_t>(__VA_ARGS__);     \
    case isa::DType::S8:                   \
      return FN<int8_t>(__VA_ARGS__);      \
    case isa::DType::U16:                  \
    case isa::DType::B16:                  \
      return FN<uint16_t>(__VA_ARGS__);    \
    case isa::DType::S16:                  \
      return FN<int16_t>(__VA_ARGS__);     \
    case isa::DType::U32:                  \
    case isa::DType::B32:                  \
      return FN<uint32_t>(__VA_ARGS__);    \
    case isa::DType::S32:                  \
      return FN<int32_t>(__VA_ARGS__);     \
    case isa::DType::U64:                  \
    case isa::DType::B64:                  \
      return FN<uint64_t>(__VA_ARGS__);    \
    case isa::DType::S64:                  \
      return FN<int64_t>(__VA_ARGS__);     \
    default:                               \
      return nullptr;                      \
  }
// Picks FN<T>(args...) for f32/f64.
#define GPUTLM_DISPATCH_FLOAT(type, FN, ...) \
  switch (type) {                            \
    case isa::DType::F32:                    \
      return FN<float>(__VA_ARGS__);         \
    case isa::DType::F64:                    \
      return FN<double>(__VA_ARGS__);        \
    default:                                 \
      return nullptr;                        \
  }

template <class T>
using Unsigned = std::make_unsigned_t<T>;

// v saturated to the range of a `bits`-wide (below 64) signed or unsigned integer.
inline int64_t saturate_bits(int64_t v, unsigned bits, bool is_signed) {
  const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  return std::clamp(v, lo, hi);
}

// The address an address operand names for one thread: its register (if any) plus its offset
// (operands of call frames aside: memory_ops.cpp adds the frame).
inline uint64_t operand_address(ExecCtx& c, uint32_t tid, const isa::Operand& a) {
  return (a.reg >= 0 ? c.reg(a.reg, tid) : 0) + static_cast<uint64_t>(a.imm);
}

// The whole-warp path of the lane loops below: when all 32 lanes of a warp of consecutive threads
// execute and every source is a register, a plain immediate or a special register, the sources
// are read through pointers (the register file is per register, thread-major, so a warp's values
// are adjacent) and the loop runs over a fixed 32 lanes. Same results as the lane-by-lane loop.
struct WarpSources {
  const uint64_t* p[3] = {};
  uint64_t imm[3][kWarpSize];
};
// All 32 lanes of a warp of consecutive threads execute: lane i is thread base_tid + i.
inline bool full_warp(const ExecCtx& c) { return c.mask == kFullMask && !c.group.tids; }
// Fills `s` with operands 1..n and returns the destination's 32 values, or nullptr when the
// instruction does not qualify.
inline uint64_t* whole_warp(ExecCtx& c, unsigned n, WarpSources& s) {
  if (!full_warp(c)) return nullptr;
  const uint32_t base = c.group.base_tid;
  for (unsigned i = 0; i < n; ++i) {
    const isa::Operand& o = c.in->ops[i + 1];
    if (o.kind == isa::OperandKind::Reg && !o.negate) {
      s.p[i] = &c.reg(o.reg, base);
    } else if (o.kind == isa::OperandKind::Imm && !o.frame) {
      std::fill_n(s.imm[i], kWarpSize, static_cast<uint64_t>(o.imm));
      s.p[i] = s.imm[i];
    } else if (o.kind == isa::OperandKind::Special) {  // %tid, %laneid, ...: each lane's own
      c.special_warp(o, base, s.imm[i]);
      s.p[i] = s.imm[i];
    } else {
      return nullptr;
    }
  }
  return &c.reg(c.in->ops[0].reg, base);
}

// The loops are always inlined into their instruction's function; give `f` as a lambda (a
// function pointer stays an indirect call per lane).
// d = f(a)
template <class T, class R = T, class F>
[[gnu::always_inline]] inline void unary(ExecCtx& c, F f) {
  WarpSources s;
  if (uint64_t* d = whole_warp(c, 1, s)) {
    for (unsigned i = 0; i < kWarpSize; ++i) d[i] = put<R>(f(get<T>(s.p[0][i])));
    return;
  }
  lanes(c, [&](unsigned lane, uint32_t tid) { dst<R>(c, lane, tid, f(src<T>(c, 1, lane, tid))); });
}
// d = f(a, b), b read as U (a shift amount: .u32 whatever the type)
template <class T, class R = T, class U = T, class F>
[[gnu::always_inline]] inline void binary(ExecCtx& c, F f) {
  WarpSources s;
  if (uint64_t* d = whole_warp(c, 2, s)) {
    for (unsigned i = 0; i < kWarpSize; ++i) d[i] = put<R>(f(get<T>(s.p[0][i]), get<U>(s.p[1][i])));
    return;
  }
  lanes(c, [&](unsigned lane, uint32_t tid) {
    dst<R>(c, lane, tid, f(src<T>(c, 1, lane, tid), src<U>(c, 2, lane, tid)));
  });
}
// d = f(a, b, c)
template <class T, class R = T, class C = T, class F>
[[gnu::always_inline]] inline void ternary(ExecCtx& c, F f) {
  WarpSources s;
  if (uint64_t* d = whole_warp(c, 3, s)) {
    for (unsigned i = 0; i < kWarpSize; ++i)
      d[i] = put<R>(f(get<T>(s.p[0][i]), get<T>(s.p[1][i]), get<C>(s.p[2][i])));
    return;
  }
  lanes(c, [&](unsigned lane, uint32_t tid) {
    dst<R>(c, lane, tid,
           f(src<T>(c, 1, lane, tid), src<T>(c, 2, lane, tid), src<C>(c, 3, lane, tid)));
  });
}

}  // namespace gputlm::func::sem
