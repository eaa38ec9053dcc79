// The element-wise combination of cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2) and of its tensor
// form cp.reduce.async.bulk.tensor (9.7.9.25.5.2): each destination element becomes
// redOp(destination, source), with atom/red's operations and rounding (atomic_apply.h; f16/bf16
// add as red.add.noftz, f16/bf16 min/max keeping the smaller (larger) operand, a NaN giving the
// other one). Used by bulk_copy_ops.cpp and tensor_copy_ops.cpp.
#pragma once

#include <cstdint>
#include <cstring>

#include "models/func/semantics/atomic_apply.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {

// Combines `bytes` of source s into destination d.
using ReduceFn = void (*)(uint8_t* d, const uint8_t* s, uint64_t bytes, isa::AtomOp op);

template <class T>
void reduce_elements(uint8_t* d, const uint8_t* s, uint64_t bytes, isa::AtomOp op) {
  for (uint64_t i = 0; i < bytes; i += sizeof(T)) {
    T old, b;
    std::memcpy(&old, d + i, sizeof(T));
    std::memcpy(&b, s + i, sizeof(T));
    const T nv = atomic_apply<T>(op, old, b, T(0));
    std::memcpy(d + i, &nv, sizeof(T));
  }
}

template <isa::DType H>  // .f16 or .bf16
void reduce_halves(uint8_t* d, const uint8_t* s, uint64_t bytes, isa::AtomOp op) {
  for (uint64_t i = 0; i < bytes; i += 2) {
    uint16_t old, b;
    std::memcpy(&old, d + i, 2);
    std::memcpy(&b, s + i, 2);
    uint16_t nv;
    if (op == isa::AtomOp::Add) {
      nv = static_cast<uint16_t>(half_atomic_add(H, old, b));
    } else {
      const bool bf = H == isa::DType::BF16;
      const double x = bf ? from_bf16(old) : from_f16(old), y = bf ? from_bf16(b) : from_f16(b);
      if (x != x)
        nv = b;
      else if (y != y)
        nv = old;
      else
        nv = (op == isa::AtomOp::Min ? y < x : y > x) ? b : old;
    }
    std::memcpy(d + i, &nv, 2);
  }
}

// The combination of redOp and element type that cp.reduce.async.bulk's global form allows
// (add: .u32 .s32 .u64 .f32 .f64 .f16 .bf16; min/max: .u32 .s32 .u64 .s64 .f16 .bf16; inc/dec:
// .u32; and/or/xor: 32- and 64-bit integers), or null.
inline ReduceFn reduce_fn(isa::DType t, isa::AtomOp op) {
  using isa::AtomOp;
  using isa::DType;
  const bool half = t == DType::F16 || t == DType::BF16;
  const bool i32 = t == DType::U32 || t == DType::S32 || t == DType::B32;
  const bool i64 = t == DType::U64 || t == DType::S64 || t == DType::B64;
  bool ok = false;
  switch (op) {
    case AtomOp::Add:
      ok = half || t == DType::U32 || t == DType::S32 || t == DType::U64 || t == DType::F32 ||
           t == DType::F64;
      break;
    case AtomOp::Min:
    case AtomOp::Max:
      ok = half || t == DType::U32 || t == DType::S32 || t == DType::U64 || t == DType::S64;
      break;
    case AtomOp::Inc:
    case AtomOp::Dec:
      ok = t == DType::U32;
      break;
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
      ok = i32 || i64;
      break;
    default:
      break;
  }
  if (!ok) return nullptr;
  switch (t) {
    case DType::F16:
      return reduce_halves<DType::F16>;
    case DType::BF16:
      return reduce_halves<DType::BF16>;
    case DType::F32:
      return reduce_elements<float>;
    case DType::F64:
      return reduce_elements<double>;
    case DType::S32:
      return reduce_elements<int32_t>;
    case DType::S64:
      return reduce_elements<int64_t>;
    case DType::U64:
    case DType::B64:
      return reduce_elements<uint64_t>;
    default:
      return reduce_elements<uint32_t>;  // .u32, .b32
  }
}

}  // namespace gputlm::func::sem
