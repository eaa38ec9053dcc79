// Control instructions (PTX ISA 9.7.13): bra, brx.idx, ret, exit, bar/barrier (.sync .arrive .red;
// barrier.cluster in cluster_ops.cpp), bar.warp.sync, membar, fence (fence.proxy included: one
// memory, no proxies, here), nanosleep, trap. They only report what happened (ExecResult); the SIMT
// control of the executor or of the core's writeback stage acts on it.
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

// bar/barrier{.cta} (PTX ISA: bar, barrier): .sync a{, b}; .arrive a, b; .red.popc.u32 d, a{, b},
// {!}c; .red.{and,or}.pred p, a{, b}, {!}c. a is the barrier (0..15), b the thread count (0: all
// the CTA's threads), taken from the first executing lane. The result only reports the arrival; the
// barrier bookkeeping (cta_barriers.h) waits, releases and writes bar.red's result.
void cta_barrier(ExecCtx& c) {
  if (!c.mask) return;
  const isa::Instruction& in = *c.in;
  const bool red = in.has(isa::kRed);
  const unsigned lane = lowest_lane(c.mask);
  const uint32_t tid = c.group.tid(lane);
  const unsigned id_op = red ? 1 : 0, count_op = id_op + 1;
  const bool has_count = in.nops > count_op + (red ? 1 : 0);
  ExecResult& r = *c.result;
  r.barrier = true;
  r.barrier_arrive = in.has(isa::kArrive);
  r.barrier_id = static_cast<uint32_t>(c.raw(in.ops[id_op], lane, tid));
  r.barrier_count = has_count ? static_cast<uint32_t>(c.raw(in.ops[count_op], lane, tid)) : 0;
  if (r.barrier_id >= 16)
    c.fault("barrier id " + std::to_string(r.barrier_id) + " out of range 0..15", tid, 0, false);
  if (r.barrier_count % kWarpSize != 0 || r.barrier_count > c.cta->nthreads)
    c.fault("barrier thread count " + std::to_string(r.barrier_count) +
                " is not a multiple of 32 up to the CTA's threads",
            tid, 0, false);
  if (!red) return;
  r.barrier_red = in.atom;
  r.barrier_red_dst = in.ops[0].reg;
  lanes(c, [&](unsigned l, uint32_t t) {
    if (c.raw(in.ops[in.nops - 1], l, t) & 1) r.barrier_red_true |= LaneMask{1} << l;
    r.addr[l] = t;
  });
}

ExecFn bind_cta_barrier(const isa::Instruction& in) {
  if (in.nops == 0) return nullptr;
  if (in.has(isa::kArrive))
    return !in.has(isa::kRed) && in.nops == 2 ? ExecFn(cta_barrier) : nullptr;
  if (!in.has(isa::kRed)) return in.nops <= 2 ? ExecFn(cta_barrier) : nullptr;
  const bool popc = in.atom == isa::AtomOp::Add && in.type == isa::DType::U32;
  const bool logic =
      (in.atom == isa::AtomOp::And || in.atom == isa::AtomOp::Or) && in.type == isa::DType::Pred;
  if (!(popc || logic) || in.nops < 3 || in.ops[0].kind != isa::OperandKind::Reg) return nullptr;
  return cta_barrier;
}

// brx.idx index, tlist (PTX ISA 9.7.12.4): each lane's target, the list's entry `index`, in
// addr[lane]. The ISA leaves an index past the list's end undefined; here the kernel stops, naming
// it (a choice: a GPU jumps to whatever the jump table's neighbour holds).
void indexed_branch(ExecCtx& c) {
  const std::vector<uint32_t>& list =
      c.launch().kernel->branch_targets[static_cast<size_t>(c.in->ops[1].imm)];
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const auto index = static_cast<uint32_t>(c.raw(c.in->ops[0], lane, tid));
    if (index >= list.size())
      c.fault("brx.idx index " + std::to_string(index) +
                  " is past the end of its .branchtargets list (" + std::to_string(list.size()) +
                  " labels)",
              tid, 0, false);
    c.result->addr[lane] = list[index];
  });
  c.result->taken = c.mask;
}

// tensormap.cp_fenceproxy's copy (bind_control says the form).
void tensormap_copy(ExecCtx& c) {
  GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t dst = operand_address(c, tid, c.in->ops[0]),
                   src = operand_address(c, tid, c.in->ops[1]);
    const uint8_t* from = c.cta->shared_at(src, 128);
    if (!from)
      c.fault("tensormap.cp_fenceproxy: shared source: " + c.cta->shared_miss(src), tid, src);
    c.check_global(dst, 128, tid, "tensormap.cp_fenceproxy: global destination");
    memory.write(dst, from, 128);
  });
}

}  // namespace

ExecFn bind_control(const isa::Instruction& in) {
  using isa::Opcode;
  switch (in.op) {
    case Opcode::Bra:
      return [](ExecCtx& c) { c.result->taken = c.mask; };
    case Opcode::BrxIdx:
      return indexed_branch;
    case Opcode::Ret:
    case Opcode::Exit:
      return [](ExecCtx& c) {
        c.result->exit = true;
        cluster_exit(c);
      };
    case Opcode::Bar:
    case Opcode::Barrier:
      if (in.has(isa::kCluster)) return bind_cluster(in);
      // bar.warp.sync (__syncwarp): a warp's threads run in lockstep here, so its threads have
      // all arrived when it executes; with regrouping formations it is a warp collective (class
      // Warp).
      if (in.has(isa::kWarpSync)) return [](ExecCtx&) {};
      return bind_cta_barrier(in);
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Nanosleep:
    // griddepcontrol (programmatic dependent launch, PTX ISA "griddepcontrol"): .wait waits until
    // the grids this one depends on have completed and their memory is visible; launches run one
    // after another here, so they have when a kernel starts, and .wait returns at once.
    // .launch_dependents lets a dependent grid be scheduled early: no effect, for the same reason.
    case Opcode::Griddepcontrol:
    // pmevent (PTX ISA 9.7.19.1): raises performance-monitor events for a profiler; gputlm's
    // counters are its statistics, so nothing happens.
    case Opcode::Pmevent:
      return [](ExecCtx&) {};
    // brkpt (PTX ISA 9.7.19.2): suspends the thread for a debugger; with none attached the kernel
    // stops as at a trap (a choice: the ISA leaves that case open), naming the breakpoint.
    // tensormap.cp_fenceproxy [dst], [src], 128 (PTX ISA 9.7.9.28): each lane copies the 128-byte
    // tensor map from its CTA's shared memory to global memory, then a release fence between the
    // generic and tensormap proxies (the engine has one proxy: nothing more). Timed as a fence.
    case Opcode::Tensormap:
      return in.nops == 3 && in.ops[0].kind == isa::OperandKind::Address &&
                     in.ops[1].kind == isa::OperandKind::Address &&
                     in.ops[2].kind == isa::OperandKind::Imm && in.ops[2].imm == 128
                 ? ExecFn(tensormap_copy)
                 : nullptr;
    case Opcode::Brkpt:
      return [](ExecCtx& c) {
        if (c.mask)
          c.fault("brkpt (a breakpoint) executed with no debugger attached",
                  c.group.tid(lowest_lane(c.mask)), 0, false);
      };
    case Opcode::Trap:
      return [](ExecCtx& c) {
        if (c.mask)
          c.fault("trap instruction executed", c.group.tid(lowest_lane(c.mask)), 0, false);
      };
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
