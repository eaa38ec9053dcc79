// SIMD video instructions (PTX ISA 9.7.18.2), as the ISA's pseudocode gives them:
//   vop2.dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c   (merge)   vop2: vadd2 vsub2
//   vavrg2 vabsdiff2 vmin2 vmax2 vop2.dtype.atype.btype.add   d{.mask}, a{.asel}, b{.bsel}, c
//   (accumulate) vset2.atype.btype.cmp{.add}  d{.mask}, a{.asel}, b{.bsel}, c
// and the four-byte forms vadd4 ... vset4. Element i of a source is the half-word (byte) of the
// pair {b, a} that the selector's i-th digit names (defaults .h10/.h32, .b3210/.b7654),
// sign- or zero-extended by the operand's type. The results are optionally clamped to dtype's
// half-word (byte) range; the elements the mask names (default all) then replace c's or are added
// to c.
#include <algorithm>
#include <cstdint>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"
#include "models/func/semantics/video.h"
#include "models/isa/video_form.h"

namespace gputlm::func::sem {
namespace {

using isa::Opcode;

// Selector digit of element i, or the default (a: elements 0.., b: N..).
unsigned pick(uint16_t sel, unsigned i, unsigned n, bool is_b) {
  return isa::vsel_count(sel) ? isa::vsel_digit(sel, i) : i + (is_b ? n : 0);
}

// Whether the mask names element i (default: all).
bool masked(uint16_t mask, unsigned i) {
  const unsigned n = isa::vsel_count(mask);
  if (n == 0) return true;
  for (unsigned k = 0; k < n; ++k)
    if (isa::vsel_digit(mask, k) == i) return true;
  return false;
}

template <Opcode Op, unsigned N>
void simd(ExecCtx& c) {
  constexpr unsigned kBits = 32 / N;
  constexpr bool kSet = Op == Opcode::Vset2 || Op == Opcode::Vset4;
  const isa::Instruction& in = *c.in;
  const bool sa = in.type2 == isa::DType::S32, sb = in.video.btype == isa::DType::S32,
             sd = in.type == isa::DType::S32;
  const bool sat = in.has(isa::kSat), add = in.atom == isa::AtomOp::Add;
  const uint16_t asel = in.ops[1].vsel, bsel = in.ops[2].vsel, mask = in.ops[0].vsel;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint32_t a = src<uint32_t>(c, 1, lane, tid), b = src<uint32_t>(c, 2, lane, tid),
                   cv = src<uint32_t>(c, 3, lane, tid);
    const uint64_t pair = uint64_t{b} << 32 | a;  // elements 0..N-1 of a, then N..2N-1 of b
    auto element = [&](unsigned k, bool is_signed) {
      const uint64_t x = (pair >> (kBits * k)) & ((uint64_t{1} << kBits) - 1);
      return video::extend(static_cast<uint32_t>(x), 0, kBits, is_signed);
    };
    int64_t sum = static_cast<int32_t>(cv);
    uint32_t merged = 0;
    for (unsigned i = 0; i < N; ++i) {
      const int64_t va = element(pick(asel, i, N, false), sa),
                    vb = element(pick(bsel, i, N, true), sb);
      int64_t t = 0;
      if constexpr (Op == Opcode::Vadd2 || Op == Opcode::Vadd4) t = va + vb;
      if constexpr (Op == Opcode::Vsub2 || Op == Opcode::Vsub4) t = va - vb;
      if constexpr (Op == Opcode::Vavrg2 || Op == Opcode::Vavrg4)
        t = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
      if constexpr (Op == Opcode::Vabsdiff2 || Op == Opcode::Vabsdiff4)
        t = va > vb ? va - vb : vb - va;
      if constexpr (Op == Opcode::Vmin2 || Op == Opcode::Vmin4) t = std::min(va, vb);
      if constexpr (Op == Opcode::Vmax2 || Op == Opcode::Vmax4) t = std::max(va, vb);
      if constexpr (kSet) t = video::compare(in.cmp, va, vb);
      if (sat) t = saturate_bits(t, kBits, sd);
      const uint32_t field = ((1u << kBits) - 1u) << (kBits * i);  // kBits < 32
      if (!masked(mask, i)) {
        merged |= cv & field;
        continue;
      }
      sum += t;
      merged |= (static_cast<uint32_t>(t) << (kBits * i)) & field;
    }
    dst<uint32_t>(c, lane, tid, add ? static_cast<uint32_t>(sum) : merged);
  });
}

// A source selector (N digits below 2N) or a mask (1..N distinct digits below N), of the element
// size.
bool source_sel(uint16_t v, unsigned n) {
  if (isa::vsel_count(v) == 0) return true;
  if (isa::vsel_count(v) != n || isa::vsel_half(v) != (n == 2)) return false;
  for (unsigned i = 0; i < n; ++i)
    if (isa::vsel_digit(v, i) >= 2 * n) return false;
  return true;
}
bool mask_sel(uint16_t v, unsigned n) {
  const unsigned k = isa::vsel_count(v);
  if (k == 0) return true;
  if (k > n || isa::vsel_half(v) != (n == 2)) return false;
  for (unsigned i = 0; i < k; ++i)
    if (isa::vsel_digit(v, i) >= n || (i > 0 && isa::vsel_digit(v, i) <= isa::vsel_digit(v, i - 1)))
      return false;  // written high to low
  return true;
}

bool word(isa::DType t) { return t == isa::DType::U32 || t == isa::DType::S32; }

template <unsigned N>
ExecFn pick_simd(Opcode op) {
  constexpr Opcode k[7] = {
      N == 2 ? Opcode::Vadd2 : Opcode::Vadd4,   N == 2 ? Opcode::Vsub2 : Opcode::Vsub4,
      N == 2 ? Opcode::Vavrg2 : Opcode::Vavrg4, N == 2 ? Opcode::Vabsdiff2 : Opcode::Vabsdiff4,
      N == 2 ? Opcode::Vmin2 : Opcode::Vmin4,   N == 2 ? Opcode::Vmax2 : Opcode::Vmax4,
      N == 2 ? Opcode::Vset2 : Opcode::Vset4};
  if (op == k[0]) return simd<k[0], N>;
  if (op == k[1]) return simd<k[1], N>;
  if (op == k[2]) return simd<k[2], N>;
  if (op == k[3]) return simd<k[3], N>;
  if (op == k[4]) return simd<k[4], N>;
  if (op == k[5]) return simd<k[5], N>;
  if (op == k[6]) return simd<k[6], N>;
  return nullptr;
}

}  // namespace

ExecFn bind_video_simd(const isa::Instruction& in) {
  const unsigned n = isa::video_lanes(in.op);
  const bool is_set = in.op == Opcode::Vset2 || in.op == Opcode::Vset4;
  if (!word(in.type) || !word(in.type2) || !word(in.video.btype) || in.nops != 4) return nullptr;
  if (is_set != (in.cmp != isa::CmpOp::None) || (is_set && in.has(isa::kSat))) return nullptr;
  if (in.has(isa::kSat) && in.atom == isa::AtomOp::Add)
    return nullptr;  // ptxas: "Illegal combination of .sat and .add"
  if (!mask_sel(in.ops[0].vsel, n) || !source_sel(in.ops[1].vsel, n) ||
      !source_sel(in.ops[2].vsel, n) || in.ops[3].vsel != 0)
    return nullptr;
  for (unsigned i = 0; i < 4; ++i)
    if (in.ops[i].minus) return nullptr;
  return n == 2 ? pick_simd<2>(in.op) : pick_simd<4>(in.op);
}

}  // namespace gputlm::func::sem
