// Thread block clusters (sm_90): barrier.cluster.arrive / .wait (PTX ISA 9.7.13.3), mapa
// (9.7.9.18) and getctarank (9.7.9.19), the exit of threads the cluster barrier counts, and
// st.async / red.async (9.7.9.12, 9.7.13.6) into a peer's shared memory with its mbarrier.
// Addresses in another CTA's shared memory carry its rank (cluster_state.h); a launch without
// clusters is a cluster of one CTA, whose barrier.cluster is a barrier of the CTA's threads.
#include <cstring>

#include "models/func/semantics/atomic_apply.h"
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

// Whether thread `tid` arrived in the phase `b` has pending (cluster_state.h: its mark holds the
// parity of the phase it arrived in; phases cannot run two ahead of a thread that has not arrived).
bool arrived_pending(const CtaState& cta, const ClusterBarrier& b, uint32_t tid) {
  if (cta.cluster_arrival.empty()) return false;
  const uint8_t m = cta.cluster_arrival[tid];
  return m != 0 && ((m >> 1) & 1u) == (b.phase & 1u);
}

// barrier.cluster.arrive{.release|.relaxed}{.aligned}: each active thread arrives at the phase
// pending now, which completes if it was the last.
void arrive(ExecCtx& c) {
  if (!c.mask) return;
  CtaState& cta = *c.cta;
  if (cta.cluster_arrival.empty()) cta.cluster_arrival.assign(cta.nthreads, 0);
  ClusterBarrier& b = cta.cluster_barrier();
  const uint8_t mark = static_cast<uint8_t>(1u | (b.phase & 1u) << 1);
  uint32_t n = 0;
  lanes(c, [&](unsigned, uint32_t tid) {
    cta.cluster_arrival[tid] = mark;
    ++n;
  });
  b.arrive(n);
}

// barrier.cluster.wait{.acquire}{.aligned}: done once the phase each active thread arrived in has
// completed; otherwise the lanes stay here and try again (ExecResult::retry). A thread that has
// not arrived does not wait (the ISA leaves that undefined).
void wait(ExecCtx& c) {
  const CtaState& cta = *c.cta;
  const ClusterBarrier& b = c.cta->cluster_barrier();
  bool pending = false;
  lanes(c, [&](unsigned, uint32_t tid) { pending |= arrived_pending(cta, b, tid); });
  if (pending) c.result->retry = c.result->yield = true;
}

// The offset in the shared window of operand 1 (generic: the address must be in the window).
uint64_t shared_operand(ExecCtx& c, unsigned lane, uint32_t tid, const char* what) {
  uint64_t a = c.raw(c.in->ops[1], lane, tid);
  if (c.in->space == isa::Space::Generic) {
    if (a - kSharedWindow >= kWindowSize)
      c.fault(std::string(what) + ": the address is not in shared memory", tid, a);
    a -= kSharedWindow;
  }
  return a;
}

// mapa{.shared::cluster}.{u32,u64} d, a, b: a's shared variable in the CTA of rank b.
template <class T>
void mapa(ExecCtx& c) {
  const uint64_t n = c.launch().cluster.count();
  const uint64_t base = c.in->space == isa::Space::Generic ? kSharedWindow : 0;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t offset = shared_operand(c, lane, tid, "mapa") & kClusterOffsetMask;
    const uint64_t rank = c.raw(c.in->ops[2], lane, tid) & 0xffffffffu;
    if (rank >= n)
      c.fault("mapa: CTA rank " + std::to_string(rank) + " outside the cluster of " +
                  std::to_string(n) + " CTAs",
              tid, 0, false);
    dst<T>(c, lane, tid, static_cast<T>(base + ((rank + 1) << kClusterRankShift | offset)));
  });
}

// getctarank{.shared::cluster}.{u32,u64} d, a: the rank of the CTA whose shared memory a is in.
void getctarank(ExecCtx& c) {
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t r = shared_operand(c, lane, tid, "getctarank") >> kClusterRankShift;
    dst<uint32_t>(c, lane, tid, static_cast<uint32_t>(r ? r - 1 : c.cta->cluster_rank));
  });
}

bool shared_or_generic(const isa::Instruction& in) {
  return in.space == isa::Space::Shared || in.space == isa::Space::Generic;
}

// The shared bytes at operand 0's .shared::cluster address for a lane, checked: aligned to the
// whole access, inside the CTA of its rank.
uint8_t* remote_at(ExecCtx& c, uint32_t tid, uint32_t bytes) {
  const uint64_t addr = operand_address(c, tid, c.in->ops[0]);
  if (addr % bytes != 0)
    c.fault(std::string(isa::opcode_name(c.in->op)) + ".async: misaligned " +
                std::to_string(bytes) + "-byte access",
            tid, addr);
  uint8_t* p = c.cta->shared_at(addr, bytes);
  if (!p)
    c.fault(std::string(isa::opcode_name(c.in->op)) + ".async: " + c.cta->shared_miss(addr), tid,
            addr);
  return p;
}

// st.async{.sem}{.scope}.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type [a], b, [mbar]:
// the value(s) land in a's CTA, then complete-tx of their bytes on mbar (in the same CTA).
void st_async(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint32_t elem = isa::dtype_bytes(in.type), n = in.vec, bytes = elem * n;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = remote_at(c, tid, bytes);
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t v = n == 1 ? c.raw(in.ops[1], lane, tid) : c.reg(in.ops[1].vec[i], tid);
      std::memcpy(p + i * elem, &v, elem);
    }
    mbarrier_complete_tx(c, lane, tid, in.ops[2], bytes);
  });
}

// red.async{.sem}{.scope}.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]:
// atom's read-modify-write in a's CTA, then complete-tx of the element's bytes on mbar.
template <class T>
void red_async(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = remote_at(c, tid, sizeof(T));
    T old;
    std::memcpy(&old, p, sizeof(T));
    const T nv = atomic_apply<T>(in.atom, old, static_cast<T>(c.raw(in.ops[1], lane, tid)), T(0));
    std::memcpy(p, &nv, sizeof(T));
    mbarrier_complete_tx(c, lane, tid, in.ops[2], sizeof(T));
  });
}

bool is_address(const isa::Instruction& in, unsigned i) {
  return in.nops > i && in.ops[i].kind == isa::OperandKind::Address;
}

}  // namespace

void cluster_exit(ExecCtx& c) {
  if (!c.mask) return;
  CtaState& cta = *c.cta;
  ClusterBarrier& b = cta.cluster_barrier();
  uint32_t arrived = 0;
  if (!cta.cluster_arrival.empty())
    lanes(c, [&](unsigned, uint32_t tid) { arrived += arrived_pending(cta, b, tid); });
  b.exit(popcount(c.mask), arrived);
}

ExecFn bind_remote_async(const isa::Instruction& in) {
  using isa::AtomOp;
  using isa::DType;
  const DType t = in.type;
  if (in.space != isa::Space::Shared || in.nops != 3 || !is_address(in, 0) || !is_address(in, 2))
    return nullptr;
  if (in.op == isa::Opcode::St) {
    const bool b32 = t == DType::B32 || t == DType::U32 || t == DType::S32 || t == DType::F32;
    const bool b64 = t == DType::B64 || t == DType::U64 || t == DType::S64 || t == DType::F64;
    if (!(b32 || (b64 && in.vec <= 2)) || (in.vec != 1 && in.vec != 2 && in.vec != 4))
      return nullptr;
    return in.vec == 1 || in.ops[1].kind == isa::OperandKind::Vector ? ExecFn(st_async) : nullptr;
  }
  switch (in.atom) {  // red.async's operations and types
    case AtomOp::Inc:
    case AtomOp::Dec:
      return t == DType::U32 ? ExecFn(red_async<uint32_t>) : nullptr;
    case AtomOp::Min:
    case AtomOp::Max:
      return t == DType::U32   ? ExecFn(red_async<uint32_t>)
             : t == DType::S32 ? ExecFn(red_async<int32_t>)
                               : nullptr;
    case AtomOp::Add:
      if (t == DType::U32) return red_async<uint32_t>;
      if (t == DType::S32) return red_async<int32_t>;
      return t == DType::U64 ? ExecFn(red_async<uint64_t>) : nullptr;
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
      return t == DType::B32 ? ExecFn(red_async<uint32_t>) : nullptr;
    default:
      return nullptr;
  }
}

ExecFn bind_cluster(const isa::Instruction& in) {
  using isa::DType;
  if (in.op == isa::Opcode::Barrier) {
    if (in.nops != 0 || in.has(isa::kArrive) == in.has(isa::kClusterWait)) return nullptr;
    return in.has(isa::kArrive) ? ExecFn(arrive) : ExecFn(wait);
  }
  const bool u32 = in.type == DType::U32 || in.type == DType::B32,
             u64 = in.type == DType::U64 || in.type == DType::B64;
  if (!shared_or_generic(in) || !(u32 || u64)) return nullptr;
  if (in.op == isa::Opcode::Mapa) return u32 ? ExecFn(mapa<uint32_t>) : ExecFn(mapa<uint64_t>);
  if (in.op == isa::Opcode::Getctarank) return getctarank;
  return nullptr;
}

}  // namespace gputlm::func::sem
