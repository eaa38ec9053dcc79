// Helpers shared by the semantics files: per-type dispatch and lane loops for common shapes.
#pragma once

#include <type_traits>

#include "models/func/exec_context.h"

namespace gputlm::func::sem {

// Picks FN<T>(args...) for the integer (and bit) types; nullptr for others.
#define GPUTLM_DISPATCH_INT(type, FN, ...)                      \
  switch (type) {                                          \
    case isa::DType::U8: case isa::DType::B8: return FN<uint8_t>(__VA_ARGS__);   \
    case isa::DType::S8: return FN<int8_t>(__VA_ARGS__);              \
    case isa::DType::U16: case isa::DType::B16: return FN<uint16_t>(__VA_ARGS__); \
    case isa::DType::S16: return FN<int16_t>(__VA_ARGS__);            \
    case isa::DType::U32: case isa::DType::B32: return FN<uint32_t>(__VA_ARGS__); \
    case isa::DType::S32: return FN<int32_t>(__VA_ARGS__);            \
    case isa::DType::U64: case isa::DType::B64: return FN<uint64_t>(__VA_ARGS__); \
    case isa::DType::S64: return FN<int64_t>(__VA_ARGS__);            \
    default: return nullptr;                               \
  }
// Picks FN<T>(args...) for f32/f64.
#define GPUTLM_DISPATCH_FLOAT(type, FN, ...)                    \
  switch (type) {                                          \
    case isa::DType::F32: return FN<float>(__VA_ARGS__);              \
    case isa::DType::F64: return FN<double>(__VA_ARGS__);             \
    default: return nullptr;                               \
  }

template <class T>
using Unsigned = std::make_unsigned_t<T>;

// d = f(a)
template <class T, class R = T, class F>
inline void unary(ExecCtx& c, F f) {
  lanes(c, [&](unsigned lane, uint32_t tid) { dst<R>(c, lane, tid, f(src<T>(c, 1, lane, tid))); });
}
// d = f(a, b)
template <class T, class R = T, class F>
inline void binary(ExecCtx& c, F f) {
  lanes(c, [&](unsigned lane, uint32_t tid) {
    dst<R>(c, lane, tid, f(src<T>(c, 1, lane, tid), src<T>(c, 2, lane, tid)));
  });
}
// d = f(a, b, c)
template <class T, class R = T, class C = T, class F>
inline void ternary(ExecCtx& c, F f) {
  lanes(c, [&](unsigned lane, uint32_t tid) {
    dst<R>(c, lane, tid, f(src<T>(c, 1, lane, tid), src<T>(c, 2, lane, tid), src<C>(c, 3, lane, tid)));
  });
}

}  // namespace gputlm::func::sem
