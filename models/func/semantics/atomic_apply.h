// The read-modify-write of atom and red (PTX ISA 9.7.13.5) on one element, shared with
// cp.reduce.async.bulk (bulk_copy_ops.cpp): the new value from the old one, the operand b and
// (atom.cas) c. Float add, min and max are IEEE (fmin/fmax: a NaN operand gives the other one).
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "models/func/semantics/dispatch.h"

namespace gputlm::func::sem {

template <class T>
T atomic_apply(isa::AtomOp op, T old, T b, T cv) {
  switch (op) {
    case isa::AtomOp::Add:
      if constexpr (std::is_floating_point_v<T>)
        return old + b;
      else
        return static_cast<T>(static_cast<Unsigned<T>>(old) + static_cast<Unsigned<T>>(b));
    case isa::AtomOp::Min:
      if constexpr (std::is_floating_point_v<T>)
        return std::fmin(old, b);
      else
        return std::min(old, b);
    case isa::AtomOp::Max:
      if constexpr (std::is_floating_point_v<T>)
        return std::fmax(old, b);
      else
        return std::max(old, b);
    case isa::AtomOp::Exch:
      return b;
    case isa::AtomOp::Cas:
      return old == b ? cv : old;
    default:
      break;
  }
  if constexpr (!std::is_floating_point_v<T>) {
    switch (op) {
      case isa::AtomOp::Inc:
        return old >= b ? T(0) : static_cast<T>(old + 1);
      case isa::AtomOp::Dec:
        return (old == 0 || old > b) ? b : static_cast<T>(old - 1);
      case isa::AtomOp::And:
        return old & b;
      case isa::AtomOp::Or:
        return old | b;
      case isa::AtomOp::Xor:
        return old ^ b;
      default:
        break;
    }
  }
  return old;
}

}  // namespace gputlm::func::sem
