// Scalar video instructions (PTX ISA 9.7.18.1), as the ISA's pseudocode gives them:
//   vop.dtype.atype.btype{.sat}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c}   vop: vadd vsub vabsdiff
//   vmin vmax vshl/vshr.dtype.atype.u32{.sat}.{clamp,wrap}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c}
//   vset.atype.btype.cmp{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c}
//   vmad.dtype.atype.btype{.sat}{.shr7,.shr15} d, {-}a{.asel}, {-}b{.bsel}, {-}c   (or .po: + 1)
// The sources are a byte, half-word or word of a and b, sign- or zero-extended by their types; the
// result is optionally clamped to dtype's range (of the destination's byte or half-word when it
// has one), then combined with c (.add .min .max, c signed as dtype) or merged into c's other
// bits (d.dsel). The SIMD forms are in video_simd_ops.cpp.
#include <algorithm>
#include <cstdint>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"
#include "models/func/semantics/video.h"
#include "models/isa/video_form.h"

namespace gputlm::func::sem {
namespace {

using isa::Opcode;
using video::part;

// Bits of the destination's part (8 or 16), 32 without one.
unsigned part_bits(uint16_t dsel) {
  return isa::vsel_count(dsel) == 0 ? 32 : isa::vsel_half(dsel) ? 16 : 8;
}

// optSaturate, then optSecondaryOp or optMerge (PTX ISA 9.7.18.1).
uint32_t finish(const isa::Instruction& in, int64_t tmp, bool sat, uint32_t c) {
  const bool sd = in.type == isa::DType::S32;
  const uint16_t dsel = in.ops[0].vsel;
  if (sat) tmp = saturate_bits(tmp, part_bits(dsel), sd);
  const int64_t c33 = sd ? int64_t{static_cast<int32_t>(c)} : int64_t{c};
  switch (in.atom) {
    case isa::AtomOp::Add:
      return static_cast<uint32_t>(tmp + c33);
    case isa::AtomOp::Min:
      return static_cast<uint32_t>(std::min(tmp, c33));
    case isa::AtomOp::Max:
      return static_cast<uint32_t>(std::max(tmp, c33));
    default:
      break;
  }
  if (isa::vsel_count(dsel) == 0) return static_cast<uint32_t>(tmp);
  const unsigned bits = part_bits(dsel), shift = bits * isa::vsel_digit(dsel, 0);
  const uint32_t mask = (bits == 16 ? 0xffffu : 0xffu) << shift;
  return ((static_cast<uint32_t>(tmp) << shift) & mask) | (c & ~mask);
}

// The third source (c) when the instruction has one.
uint32_t third(ExecCtx& c, unsigned lane, uint32_t tid) {
  return c.in->nops > 3 ? src<uint32_t>(c, 3, lane, tid) : 0;
}

template <Opcode Op>
void vop(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const bool sa = in.type2 == isa::DType::S32, sb = in.video.btype == isa::DType::S32,
             sat = in.has(isa::kSat);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const int64_t a = part(src<uint32_t>(c, 1, lane, tid), sa, in.ops[1].vsel);
    int64_t tmp;
    if constexpr (Op == Opcode::Vshl || Op == Opcode::Vshr) {
      uint64_t n =
          static_cast<uint64_t>(part(src<uint32_t>(c, 2, lane, tid), false, in.ops[2].vsel));
      n = in.video.wrap ? n & 31 : std::min<uint64_t>(n, 32);
      // a is 33 bits; a shift by up to 32 stays within 65: kept in 128 bits, then clamped or
      // truncated.
      const __int128 wide =
          Op == Opcode::Vshl ? static_cast<__int128>(a) << n : static_cast<__int128>(a) >> n;
      if (sat)
        tmp = wide > INT64_MAX   ? INT64_MAX
              : wide < INT64_MIN ? INT64_MIN
                                 : static_cast<int64_t>(wide);
      else
        tmp = static_cast<int64_t>(static_cast<uint64_t>(wide));
    } else {
      const int64_t b = part(src<uint32_t>(c, 2, lane, tid), sb, in.ops[2].vsel);
      if constexpr (Op == Opcode::Vadd) tmp = a + b;
      if constexpr (Op == Opcode::Vsub) tmp = a - b;
      if constexpr (Op == Opcode::Vabsdiff) tmp = a > b ? a - b : b - a;
      if constexpr (Op == Opcode::Vmin) tmp = std::min(a, b);
      if constexpr (Op == Opcode::Vmax) tmp = std::max(a, b);
      if constexpr (Op == Opcode::Vset) tmp = video::compare(in.cmp, a, b);
    }
    dst<uint32_t>(c, lane, tid, finish(in, tmp, sat && Op != Opcode::Vset, third(c, lane, tid)));
  });
}

// vmad (PTX ISA 9.7.18.1.3): the 128-bit product plus c, negated by complement and a carry in,
// then scaled, then clamped to the final sign's 32-bit range.
void vmad(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const bool sa = in.type2 == isa::DType::S32, sb = in.video.btype == isa::DType::S32;
  const bool an = in.ops[1].minus, bn = in.ops[2].minus, cn = in.ops[3].minus;
  const bool signed_final = sa || sb || (an != bn) || cn;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    __int128 tmp = static_cast<__int128>(part(src<uint32_t>(c, 1, lane, tid), sa, in.ops[1].vsel)) *
                   part(src<uint32_t>(c, 2, lane, tid), sb, in.ops[2].vsel);
    uint32_t cv = src<uint32_t>(c, 3, lane, tid);
    int lsb = 0;
    if (in.video.po)
      lsb = 1;
    else if (an != bn)
      tmp = ~tmp, lsb = 1;
    else if (cn)
      cv = ~cv, lsb = 1;
    tmp += (signed_final ? __int128{static_cast<int32_t>(cv)} : __int128{cv}) + lsb;
    const uint64_t result = static_cast<uint64_t>(tmp >> in.video.scale);
    uint32_t d = static_cast<uint32_t>(result);
    if (in.has(isa::kSat)) {
      if (signed_final)
        d = static_cast<uint32_t>(
            std::clamp<int64_t>(static_cast<int64_t>(result), INT32_MIN, INT32_MAX));
      else
        d = static_cast<uint32_t>(std::min<uint64_t>(result, UINT32_MAX));
    }
    dst<uint32_t>(c, lane, tid, d);
  });
}

// A scalar selector: none, .b0-.b3 or .h0-.h1.
bool scalar_sel(uint16_t v) {
  const unsigned n = isa::vsel_count(v);
  return n == 0 || (n == 1 && isa::vsel_digit(v, 0) <= (isa::vsel_half(v) ? 1u : 3u));
}

bool word(isa::DType t) { return t == isa::DType::U32 || t == isa::DType::S32; }

ExecFn bind_scalar(const isa::Instruction& in) {
  const bool is_set = in.op == Opcode::Vset,
             is_shift = in.op == Opcode::Vshl || in.op == Opcode::Vshr;
  if (!word(in.type) || !word(in.type2) || !word(in.video.btype)) return nullptr;
  if (is_shift != (in.video.wrap || in.video.clamp) ||
      (is_shift && in.video.btype != isa::DType::U32))
    return nullptr;
  if (is_set != (in.cmp != isa::CmpOp::None) || (is_set && in.has(isa::kSat))) return nullptr;
  for (unsigned i = 0; i < in.nops; ++i)
    if (!scalar_sel(in.ops[i].vsel) || (in.ops[i].minus && in.op != Opcode::Vmad)) return nullptr;
  if (in.op == Opcode::Vmad)
    return in.ops[3].vsel == 0 &&
                   !(in.video.po && (in.ops[1].minus || in.ops[2].minus || in.ops[3].minus))
               ? vmad
               : nullptr;
  // Three operands, or c with exactly one of a secondary operation and a destination part.
  const bool merge = in.ops[0].vsel != 0, secondary = in.atom != isa::AtomOp::None;
  if (in.nops == 3 ? merge || secondary : merge == secondary || in.ops[3].vsel != 0) return nullptr;
  switch (in.op) {
    case Opcode::Vadd:
      return vop<Opcode::Vadd>;
    case Opcode::Vsub:
      return vop<Opcode::Vsub>;
    case Opcode::Vabsdiff:
      return vop<Opcode::Vabsdiff>;
    case Opcode::Vmin:
      return vop<Opcode::Vmin>;
    case Opcode::Vmax:
      return vop<Opcode::Vmax>;
    case Opcode::Vshl:
      return vop<Opcode::Vshl>;
    case Opcode::Vshr:
      return vop<Opcode::Vshr>;
    case Opcode::Vset:
      return vop<Opcode::Vset>;
    default:
      return nullptr;
  }
}

}  // namespace

ExecFn bind_video(const isa::Instruction& in) {
  return isa::video_lanes(in.op) == 1 ? bind_scalar(in) : bind_video_simd(in);
}

}  // namespace gputlm::func::sem
