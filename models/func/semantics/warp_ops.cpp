// Warp-collective instructions (PTX ISA 9.7.12): vote (all any uni ballot, .sync or not), shfl
// (.sync or not), activemask, redux.sync, match.any/all.sync, elect.sync; the dissertation's
// tree.traverse.
// They act on the logical warp of 32 consecutive threads (lane = thread index mod 32), whatever
// warp formation the core uses (docs/design/architecture.md "What the model is"). vote and shfl
// ignore the member mask of their .sync forms; redux, match and elect work over the executing lanes
// the mask names (members() below). A shfl from an inactive lane reads that lane's register as it
// stands.
#include <algorithm>
#include <array>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

// Logical-lane mask of the lanes of c.mask whose predicate operand `op` holds.
LaneMask predicate_ballot(ExecCtx& c, unsigned op) {
  LaneMask m = 0;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    if (c.raw(c.in->ops[op], lane, tid) & 1) m |= 1u << (tid % kWarpSize);
  });
  return m;
}
LaneMask logical_active(ExecCtx& c) {
  LaneMask m = 0;
  lanes(c, [&](unsigned, uint32_t tid) { m |= 1u << (tid % kWarpSize); });
  return m;
}

void vote(ExecCtx& c) {
  const LaneMask active = logical_active(c);
  const LaneMask yes = predicate_ballot(c, 1);
  uint64_t value = 0;
  switch (c.in->vote) {
    case isa::VoteMode::All:
      value = yes == active;
      break;
    case isa::VoteMode::Any:
      value = yes != 0;
      break;
    case isa::VoteMode::Uni:
      value = yes == 0 || yes == active;
      break;
    case isa::VoteMode::Ballot:
      value = yes;
      break;
    default:
      break;
  }
  lanes(c, [&](unsigned, uint32_t tid) { c.reg(c.in->ops[0].reg, tid) = value; });
}

// shfl (PTX ISA 9.7.12.x): source lane j from mode, b (lane/offset) and c (clamp | segmask << 8).
void shfl(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  uint64_t out[kWarpSize];
  bool valid[kWarpSize];
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint32_t self = tid % kWarpSize;
    const uint32_t b = src<uint32_t>(c, 2, lane, tid) & 31, cv = src<uint32_t>(c, 3, lane, tid);
    const uint32_t seg = (cv >> 8) & 31, clamp = cv & 31;
    const uint32_t max_lane = (self & seg) | (clamp & ~seg), min_lane = self & seg;
    int32_t j = 0;
    bool p = false;
    switch (in.shfl) {
      case isa::ShflMode::Up:
        j = static_cast<int32_t>(self) - static_cast<int32_t>(b);
        p = j >= static_cast<int32_t>(max_lane);
        break;
      case isa::ShflMode::Down:
        j = static_cast<int32_t>(self + b);
        p = j <= static_cast<int32_t>(max_lane);
        break;
      case isa::ShflMode::Bfly:
        j = static_cast<int32_t>(self ^ b);
        p = j <= static_cast<int32_t>(max_lane);
        break;
      default:
        j = static_cast<int32_t>(min_lane | (b & ~seg));
        p = j <= static_cast<int32_t>(max_lane);
        break;
    }
    if (!p) j = static_cast<int32_t>(self);
    const uint32_t src_tid = (tid - self) + static_cast<uint32_t>(j);
    const isa::Operand& a = in.ops[1];
    const bool in_cta = src_tid < c.cta->nthreads;
    out[lane] = a.kind == isa::OperandKind::Reg ? (in_cta ? c.reg(a.reg, src_tid) : 0)
                                                : c.raw(a, lane, tid);
    valid[lane] = p;
  });
  lanes(c, [&](unsigned lane, uint32_t tid) {
    c.reg(in.ops[0].reg, tid) = out[lane] & 0xFFFFFFFFu;
    if (in.dst2 >= 0) c.reg(in.dst2, tid) = valid[lane];
  });
}

// tree.traverse d, base, p, nodesize (dissertation section 7.2.1, TREE_TRAVERSE): d = base +
// (lanes of the logical warp whose p holds) x nodesize, the same for every active lane. base and
// nodesize are the warp's (lanes that disagree are a kernel fault); nodesize is a power of two
// (the hardware shifts the sum), else a kernel fault.
void tree_traverse(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint64_t count = static_cast<uint64_t>(popcount(predicate_ballot(c, 2)));
  bool first = true;
  uint64_t base = 0, size = 0;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t b = c.raw(in.ops[1], lane, tid), s = c.raw(in.ops[3], lane, tid);
    if (!first && (b != base || s != size))
      c.fault("tree.traverse: base or node size differs between the warp's threads", tid, 0, false);
    if (s == 0 || (s & (s - 1)) != 0)
      c.fault("tree.traverse: node size " + std::to_string(s) + " is not a power of two", tid, 0,
              false);
    base = b;
    size = s;
    first = false;
  });
  const unsigned bits = isa::dtype_bits(in.type);
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t value = (base + count * size) & mask;
  lanes(c, [&](unsigned, uint32_t tid) { c.reg(in.ops[0].reg, tid) = value; });
}

// The lanes a .sync collective of `lane` works over: the executing lanes its member mask (operand
// `op`) names, itself included. The ISA leaves a member mask that names non-executing lanes, or
// omits an executing one, undefined; here a collective never waits and never reads a lane that is
// not executing it.
LaneMask members(ExecCtx& c, unsigned op, unsigned lane, uint32_t tid, LaneMask active) {
  return (static_cast<LaneMask>(c.raw(c.in->ops[op], lane, tid)) & active) |
         (LaneMask{1} << (tid % kWarpSize));
}
// Per logical lane: the 64-bit value of operand `op` of the executing lanes.
std::array<uint64_t, kWarpSize> values_by_lane(ExecCtx& c, unsigned op) {
  std::array<uint64_t, kWarpSize> v{};
  lanes(c,
        [&](unsigned lane, uint32_t tid) { v[tid % kWarpSize] = c.raw(c.in->ops[op], lane, tid); });
  return v;
}

// redux.sync (PTX ISA, Parallel Synchronization and Communication Instructions: redux.sync):
// every member lane gets the reduction of a over the members: .add (wrapping) .min .max on
// .u32/.s32, .and .or .xor on .b32.
template <class T>
T reduce(isa::AtomOp op, T x, T y) {
  switch (op) {
    case isa::AtomOp::Add:
      return static_cast<T>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y));
    case isa::AtomOp::Min:
      return std::min(x, y);
    case isa::AtomOp::Max:
      return std::max(x, y);
    case isa::AtomOp::And:
      return x & y;
    case isa::AtomOp::Or:
      return x | y;
    default:
      return x ^ y;
  }
}
template <class T>
void redux(ExecCtx& c) {
  const LaneMask active = logical_active(c);
  const auto v = values_by_lane(c, 1);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const LaneMask m = members(c, 2, lane, tid, active);
    T acc = static_cast<T>(v[lowest_lane(m)]);
    for_each_lane(m & (m - 1),
                  [&](unsigned l) { acc = reduce<T>(c.in->atom, acc, static_cast<T>(v[l])); });
    dst<T>(c, lane, tid, acc);
  });
}
ExecFn redux_fn(const isa::Instruction& in) {
  using isa::AtomOp;
  using isa::DType;
  const bool arith = in.atom == AtomOp::Add || in.atom == AtomOp::Min || in.atom == AtomOp::Max;
  const bool logic = in.atom == AtomOp::And || in.atom == AtomOp::Or || in.atom == AtomOp::Xor;
  if (arith && in.type == DType::U32) return redux<uint32_t>;
  if (arith && in.type == DType::S32) return redux<int32_t>;
  if (logic && in.type == DType::B32) return redux<uint32_t>;
  return nullptr;
}

// match.any.sync: d = the members whose a equals this lane's; match.all.sync: d = the members
// (and p = true) when all members' a are equal, else d = 0 and p = false (PTX ISA: match.sync).
template <bool All>
void match(ExecCtx& c) {
  const LaneMask active = logical_active(c);
  const unsigned bits = isa::dtype_bits(c.in->type);
  auto v = values_by_lane(c, 1);
  if (bits < 64)
    for (uint64_t& x : v) x &= (uint64_t{1} << bits) - 1;
  uint64_t out[kWarpSize];
  bool same[kWarpSize];
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const LaneMask m = members(c, 2, lane, tid, active);
    LaneMask equal = 0;
    for_each_lane(m, [&](unsigned l) {
      if (v[l] == v[tid % kWarpSize]) equal |= LaneMask{1} << l;
    });
    same[lane] = equal == m;
    out[lane] = All ? (same[lane] ? m : 0) : equal;
  });
  lanes(c, [&](unsigned lane, uint32_t tid) {
    c.reg(c.in->ops[0].reg, tid) = out[lane];
    if (All && c.in->dst2 >= 0) c.reg(c.in->dst2, tid) = same[lane];
  });
}

// elect.sync d|p, membermask (sm_90): the leader is the lowest member lane; every member gets its
// lane number in d (unless d is the sink _) and p is true in the leader only.
void elect(ExecCtx& c) {
  const LaneMask active = logical_active(c);
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const unsigned leader = lowest_lane(members(c, 1, lane, tid, active));
    if (c.in->ops[0].kind == isa::OperandKind::Reg) c.reg(c.in->ops[0].reg, tid) = leader;
    if (c.in->dst2 >= 0) c.reg(c.in->dst2, tid) = leader == tid % kWarpSize;
  });
}

}  // namespace

ExecFn bind_warp(const isa::Instruction& in) {
  switch (in.op) {
    case isa::Opcode::Vote:
      return vote;
    case isa::Opcode::TreeTraverse:
      return isa::dtype_is_float(in.type) || isa::dtype_bits(in.type) < 32 ? nullptr
                                                                           : ExecFn(tree_traverse);
    case isa::Opcode::Shfl:
      return in.type == isa::DType::B32 ? ExecFn(shfl) : nullptr;
    case isa::Opcode::Redux:
      return in.has(isa::kSync) ? redux_fn(in) : nullptr;
    case isa::Opcode::Match:
      if (!in.has(isa::kSync) || (in.type != isa::DType::B32 && in.type != isa::DType::B64))
        return nullptr;
      if (in.vote == isa::VoteMode::Any) return in.dst2 < 0 ? ExecFn(match<false>) : nullptr;
      return match<true>;
    case isa::Opcode::Elect:
      return in.has(isa::kSync) ? ExecFn(elect) : nullptr;
    case isa::Opcode::Activemask:
      return [](ExecCtx& c) {
        const LaneMask m = logical_active(c);
        lanes(c, [&](unsigned, uint32_t tid) { c.reg(c.in->ops[0].reg, tid) = m; });
      };
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
