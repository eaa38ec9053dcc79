// Warp-collective instructions (PTX ISA 9.7.12): vote (all any uni ballot), shfl, activemask; the
// dissertation's tree.traverse.
// They act on the logical warp of 32 consecutive threads (lane = thread index mod 32), whatever
// warp formation the core uses (SPEC.md, "Execution model"); the member mask of the .sync forms
// is not checked. A shfl from an inactive lane reads that lane's register as it stands.
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
    case isa::VoteMode::All: value = yes == active; break;
    case isa::VoteMode::Any: value = yes != 0; break;
    case isa::VoteMode::Uni: value = yes == 0 || yes == active; break;
    case isa::VoteMode::Ballot: value = yes; break;
    default: break;
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
      case isa::ShflMode::Up: j = static_cast<int32_t>(self) - static_cast<int32_t>(b); p = j >= static_cast<int32_t>(max_lane); break;
      case isa::ShflMode::Down: j = static_cast<int32_t>(self + b); p = j <= static_cast<int32_t>(max_lane); break;
      case isa::ShflMode::Bfly: j = static_cast<int32_t>(self ^ b); p = j <= static_cast<int32_t>(max_lane); break;
      default: j = static_cast<int32_t>(min_lane | (b & ~seg)); p = j <= static_cast<int32_t>(max_lane); break;
    }
    if (!p) j = static_cast<int32_t>(self);
    const uint32_t src_tid = (tid - self) + static_cast<uint32_t>(j);
    const isa::Operand& a = in.ops[1];
    const bool in_cta = src_tid < c.cta->nthreads;
    out[lane] = a.kind == isa::OperandKind::Reg ? (in_cta ? c.reg(a.reg, src_tid) : 0) : c.raw(a, lane, tid);
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
    if (!first && (b != base || s != size)) c.fault("tree.traverse: base or node size differs between the warp's threads", tid, 0, false);
    if (s == 0 || (s & (s - 1)) != 0) c.fault("tree.traverse: node size " + std::to_string(s) + " is not a power of two", tid, 0, false);
    base = b;
    size = s;
    first = false;
  });
  const unsigned bits = isa::dtype_bits(in.type);
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t value = (base + count * size) & mask;
  lanes(c, [&](unsigned, uint32_t tid) { c.reg(in.ops[0].reg, tid) = value; });
}

}  // namespace

ExecFn bind_warp(const isa::Instruction& in) {
  switch (in.op) {
    case isa::Opcode::Vote: return vote;
    case isa::Opcode::TreeTraverse: return isa::dtype_is_float(in.type) || isa::dtype_bits(in.type) < 32 ? nullptr : ExecFn(tree_traverse);
    case isa::Opcode::Shfl: return in.type == isa::DType::B32 ? ExecFn(shfl) : nullptr;
    case isa::Opcode::Activemask:
      return [](ExecCtx& c) {
        const LaneMask m = logical_active(c);
        lanes(c, [&](unsigned, uint32_t tid) { c.reg(c.in->ops[0].reg, tid) = m; });
      };
    default: return nullptr;
  }
}

}  // namespace gputlm::func::sem
