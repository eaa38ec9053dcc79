// Half-precision comparisons (PTX ISA 9.7.4.6 "set" and 9.7.4.7 "setp" in "Half Precision
// Comparison Instructions"): setp and set with .f16 .f16x2 .bf16 .bf16x2 sources, and set with a
// half destination (.f16 .bf16 .f16x2 .bf16x2) from .f16/.bf16/.f32/.f64 sources.
//
// Comparisons follow IEEE: ordered operators are false and unordered (*u) ones true when an
// operand is NaN; .ftz flushes subnormal f16 (and f32) inputs to sign-preserving zero.
// setp.f16x2 p|q, a, b: p = BoolOp(a.lo CmpOp b.lo, c), q = BoolOp(a.hi CmpOp b.hi, c) (each half
// separately; q is not the complement). setp.f16 p|q: q = BoolOp(!t, c), as for f32.
// set: a true result is 1.0 in a float destination (f16 0x3C00, bf16 0x3F80, f32 1.0f) and all
// ones in an integer one; for x2 sources each 16-bit half of d gets its own result.
#include <cmath>
#include <cstdint>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/fp_util.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {
namespace {

using isa::CmpOp;
using isa::DType;

// The value of element `i` (0 = low 16 bits) of a source of type t, with .ftz applied.
double element(DType t, uint64_t bits, unsigned i, bool ftz) {
  switch (t) {
    case DType::F16:
    case DType::F16x2: {
      uint16_t h = static_cast<uint16_t>(bits >> (16 * i));
      if (ftz && is_subnormal_bits(h, kF16)) h &= 0x8000;
      return from_f16(h);
    }
    case DType::BF16:
    case DType::BF16x2:
      return from_bf16(static_cast<uint16_t>(bits >> (16 * i)));
    case DType::F32: {
      uint32_t u = static_cast<uint32_t>(bits);
      if (ftz && is_subnormal_bits(u, kF32)) u &= 0x80000000u;
      return decode_float(u, kF32);
    }
    default:
      return get<double>(bits);  // F64
  }
}

bool element_result(ExecCtx& c, DType stype, unsigned i, unsigned lane, uint32_t tid) {
  const isa::Instruction& in = *c.in;
  const bool ftz = in.has(isa::kFtz);
  const double a = element(stype, c.raw(in.ops[1], lane, tid), i, ftz);
  const double b = element(stype, c.raw(in.ops[2], lane, tid), i, ftz);
  return float_compare<double>(in.cmp, a, b);
}

template <bool Packed>
void setp_half(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t cv = in.boolop != isa::BoolOp::None ? c.raw(in.ops[3], lane, tid) : 0;
    const bool t0 = element_result(c, in.type, 0, lane, tid);
    c.reg(in.ops[0].reg, tid) = combine(in.boolop, t0, cv);
    if (in.dst2 < 0) return;
    const bool t1 = Packed ? element_result(c, in.type, 1, lane, tid) : !t0;
    c.reg(in.dst2, tid) = combine(in.boolop, t1, cv);
  });
}

// The bits a true result writes into one element of a set destination of type d.
uint64_t true_bits(DType d) {
  switch (d) {
    case DType::F16:
    case DType::F16x2:
      return 0x3C00;
    case DType::BF16:
    case DType::BF16x2:
      return 0x3F80;
    case DType::F32:
      return 0x3F800000;
    case DType::U16:
    case DType::S16:
    case DType::B16:
      return 0xFFFF;
    default:
      return 0xFFFFFFFF;  // u32 s32 b32
  }
}

template <bool Packed>
void set_half(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  // A packed source with a 32-bit integer destination writes 0xFFFF per half.
  const uint64_t one = Packed && !isa::dtype_is_float(in.type) ? 0xFFFF : true_bits(in.type);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t cv = in.boolop != isa::BoolOp::None ? c.raw(in.ops[3], lane, tid) : 0;
    uint64_t d = combine(in.boolop, element_result(c, in.type2, 0, lane, tid), cv) ? one : 0;
    if (Packed && combine(in.boolop, element_result(c, in.type2, 1, lane, tid), cv)) d |= one << 16;
    c.reg(in.ops[0].reg, tid) = d;
  });
}

bool packed_half(DType t) { return t == DType::F16x2 || t == DType::BF16x2; }
bool ftz_ok(DType t) { return t != DType::BF16 && t != DType::BF16x2; }

}  // namespace

ExecFn bind_half_compare(const isa::Instruction& in) {
  if (in.op == isa::Opcode::Setp) {
    if (!is_half_type(in.type) || (in.has(isa::kFtz) && !ftz_ok(in.type))) return nullptr;
    if (packed_half(in.type)) return in.dst2 >= 0 ? setp_half<true> : nullptr;  // p|q is required
    return setp_half<false>;
  }
  if (in.op != isa::Opcode::Set) return nullptr;
  const DType d = in.type, s = in.type2;
  if (in.has(isa::kFtz) && !ftz_ok(s)) return nullptr;
  if (packed_half(s)) {
    // .dtype = .f16x2 (f16x2 source), .bf16x2 (bf16x2 source), .u32 .s32.
    const bool ok = d == DType::U32 || d == DType::S32 ||
                    (d == DType::F16x2 && s == DType::F16x2) ||
                    (d == DType::BF16x2 && s == DType::BF16x2);
    return ok ? set_half<true> : nullptr;
  }
  const bool src_ok = s == DType::F16 || s == DType::BF16 || s == DType::F32 || s == DType::F64;
  const bool dst_ok = d == DType::F16 || d == DType::BF16 || d == DType::F32 || d == DType::U16 ||
                      d == DType::S16 || d == DType::U32 || d == DType::S32 || d == DType::B32;
  return src_ok && dst_ok ? set_half<false> : nullptr;
}

}  // namespace gputlm::func::sem
