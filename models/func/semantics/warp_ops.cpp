// Warp-collective instructions (PTX ISA 9.7.12): vote (all any uni ballot), shfl, activemask.
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

}  // namespace

ExecFn bind_warp(const isa::Instruction& in) {
  switch (in.op) {
    case isa::Opcode::Vote: return vote;
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
