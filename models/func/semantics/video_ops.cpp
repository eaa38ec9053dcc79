// SIMD video instructions (PTX ISA 9.7.16 "SIMD Video Instructions"), the form nvcc emits for
// __vabsdiffu4 / __vsadu4 and sums of absolute differences:
//   vabsdiff4.dtype.atype.btype{.sat}.add  d, a, b, c   d = c + sum over bytes i of |a.b_i - b.b_i|
//   vabsdiff4.dtype.atype.btype{.sat}      d, a, b, c   d.b_i = |a.b_i - b.b_i| (all four bytes)
// dtype, atype, btype .u32 or .s32 (atype = btype: the bytes are signed for .s32); .sat clamps the
// sum to dtype's range, or each byte difference to the byte's range. Byte selectors (.b0..) and
// masks are not supported (a parse error names them).
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

int32_t byte_of(uint32_t v, unsigned i, bool is_signed) {
  const uint32_t b = (v >> (8 * i)) & 0xFF;
  return is_signed ? static_cast<int8_t>(b) : static_cast<int32_t>(b);
}

template <bool Add>
void vabsdiff4(ExecCtx& c) {
  const bool sa = c.in->type2 == isa::DType::S32, sd = c.in->type == isa::DType::S32, sat = c.in->has(isa::kSat);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint32_t a = src<uint32_t>(c, 1, lane, tid), b = src<uint32_t>(c, 2, lane, tid), acc = src<uint32_t>(c, 3, lane, tid);
    int64_t diff[4];
    for (unsigned i = 0; i < 4; ++i) diff[i] = std::llabs(int64_t{byte_of(a, i, sa)} - byte_of(b, i, sa));
    uint32_t d = 0;
    if constexpr (Add) {
      int64_t sum = sd ? int64_t{static_cast<int32_t>(acc)} : int64_t{acc};
      for (int64_t x : diff) sum += x;
      if (sat) sum = sd ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX) : std::clamp<int64_t>(sum, 0, UINT32_MAX);
      d = static_cast<uint32_t>(sum);
    } else {
      for (unsigned i = 0; i < 4; ++i) {
        const int64_t x = sat ? std::min<int64_t>(diff[i], sd ? 127 : 255) : diff[i];
        d |= (static_cast<uint32_t>(x) & 0xFF) << (8 * i);
      }
    }
    dst<uint32_t>(c, lane, tid, d);
  });
}

bool word_type(isa::DType t) { return t == isa::DType::U32 || t == isa::DType::S32; }

}  // namespace

ExecFn bind_video(const isa::Instruction& in) {
  if (in.op != isa::Opcode::Vabsdiff4 || !word_type(in.type) || !word_type(in.type2)) return nullptr;
  if (in.atom != isa::AtomOp::None && in.atom != isa::AtomOp::Add) return nullptr;
  return in.atom == isa::AtomOp::Add ? vabsdiff4<true> : vabsdiff4<false>;
}

}  // namespace gputlm::func::sem
