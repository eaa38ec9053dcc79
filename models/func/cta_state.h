// Architectural state of one CTA in flight: every thread's registers, the CTA's shared memory,
// every thread's local memory (a stack of call frames) and frame pointer. Registers are stored
// register-major ([reg][thread]) so that the lanes of a warp are adjacent. Each register slot holds
// 64 bits: narrower values are stored sign- or zero-extended per the writing instruction's type,
// predicates as 0/1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/func/cluster_state.h"
#include "models/func/launch.h"
#include "models/isa/instruction.h"

namespace gputlm::func {

struct CtaState {
  CtaState(const Launch& launch, uint64_t linear_id)
      : launch(&launch),
        slot(slots_of(*launch.kernel)),
        linear_id(linear_id),
        ctaid(launch.cta_coords(linear_id)),
        nthreads(launch.threads_per_cta()),
        regs(storage_slots(*launch.kernel) * size_t{nthreads}, 0),
        shared(launch.shared_bytes(), 0),
        local(size_t{launch.kernel->local_bytes} * nthreads, 0),
        fp(launch.kernel->calls.empty() ? 0 : nthreads, 0),
        sp(launch.kernel->dynamic_stack ? nthreads : 0, stack_base()),
        carry(nthreads, 0) {
    solo_barrier.threads = nthreads;
  }
  CtaState(const CtaState&) = delete;
  CtaState& operator=(const CtaState&) = delete;
  ~CtaState() { leave_cluster(); }

  // Joins `c` as the cluster's CTA of this CTA's rank (its shared memory reachable from the
  // others).
  void join(std::shared_ptr<ClusterState> c);
  // Leaves the cluster (the CTA has ended: its shared memory is gone).
  void leave_cluster();

  // Whether reset_for(l, ...) can reuse this storage: every array has the size a CTA of `l` needs.
  bool fits(const Launch& l) const {
    const uint32_t n = l.threads_per_cta();
    return n == nthreads && regs.size() == storage_slots(*l.kernel) * size_t{n} &&
           shared.size() == l.shared_bytes() && local.size() == size_t{l.kernel->local_bytes} * n &&
           fp.size() == (l.kernel->calls.empty() ? 0 : n) &&
           sp.size() == (l.kernel->dynamic_stack ? n : 0);
  }
  // The state of CTA `id` of `l` (which fits()), as new, in this storage.
  void reset_for(const Launch& l, uint64_t id) {
    launch = &l;
    slot = slots_of(*l.kernel);
    reset(id);
  }
  // The state of another CTA of the same launch, as new (the storage is kept: no allocation).
  void reset(uint64_t id) {
    linear_id = id;
    ctaid = launch->cta_coords(id);
    smid = 0;
    for (auto* v : {&shared, &local, &carry}) std::fill(v->begin(), v->end(), 0);
    std::fill(regs.begin(), regs.end(), 0);
    std::fill(fp.begin(), fp.end(), 0);
    std::fill(sp.begin(), sp.end(), stack_base());
    solo_barrier = ClusterBarrier{};
    solo_barrier.threads = nthreads;
    cluster_arrival.clear();
  }

  // Register r of thread tid, in r's storage slot (isa::Kernel::reg_slot).
  uint64_t& reg(int32_t r, uint32_t tid) { return regs[slot_index(r) * nthreads + tid]; }
  uint64_t reg(int32_t r, uint32_t tid) const { return regs[slot_index(r) * nthreads + tid]; }
  uint8_t* local_of(uint32_t tid) {
    return local.data() + size_t{launch->kernel->local_bytes} * tid;
  }
  // Whether thread `tid` executes the guarded instruction `in` (its guard predicate, maybe negated,
  // holds).
  bool guard_holds(const isa::Instruction& in, uint32_t tid) const {
    return (reg(in.guard, tid) & 1) != static_cast<uint64_t>(in.guard_neg);
  }

  // The kernel's register -> slot map, null for one slot a register (a kernel never analysed).
  static const int32_t* slots_of(const isa::Kernel& k) {
    return k.reg_slot.size() == k.regs.size() && !k.regs.empty() ? k.reg_slot.data() : nullptr;
  }
  static size_t storage_slots(const isa::Kernel& k) {
    return slots_of(k) ? k.reg_slots : k.regs.size();
  }
  size_t slot_index(int32_t r) const { return size_t(slot ? slot[r] : r); }

  const Launch* launch;
  const int32_t* slot;  // slots_of(*launch->kernel)
  uint64_t linear_id;
  Dim3 ctaid;
  uint32_t nthreads;
  uint32_t smid = 0;  // core the CTA runs on (set by the timing model; 0 functionally)
  // The timing model completes cp.async.bulk's mbarrier transactions when the copy's lines have
  // returned (ExecResult::tx_mbar); functionally they complete when the copy executes.
  bool defer_tx = false;
  std::vector<uint64_t> regs;
  std::vector<uint8_t> shared;
  std::vector<uint8_t> local;
  // Per thread: where its current call frame starts in its local memory (0: the kernel's frame).
  // Empty for kernels that make no calls.
  std::vector<uint32_t> fp;
  uint32_t frame_of(uint32_t tid) const { return fp.empty() ? 0 : fp[tid]; }
  // Per thread: its stack pointer (alloca, stacksave, stackrestore; PTX ISA 9.7.16): the first
  // free byte of its local memory above its frames and allocations. Empty for kernels without them;
  // then a callee's frame follows its caller's.
  std::vector<uint32_t> sp;
  uint32_t stack_base() const { return (launch->kernel->frame_bytes + 15u) / 16u * 16u; }
  std::vector<uint8_t> carry;  // per thread: the carry flag CC.CF of add.cc, addc, ...

  // Thread block clusters (cluster_state.h): the cluster (null: a launch without clusters, where
  // the CTA is a cluster of one with its own barrier.cluster), this CTA's rank in it, and per
  // thread its barrier.cluster arrival (0: none yet; else 1 | the parity of the phase it arrived
  // in << 1), sized when a thread first arrives.
  std::shared_ptr<ClusterState> cluster;
  uint32_t cluster_rank = 0;
  ClusterBarrier solo_barrier;
  std::vector<uint8_t> cluster_arrival;
  ClusterBarrier& cluster_barrier() { return cluster ? cluster->barrier : solo_barrier; }

  // Where `bytes` at shared-window offset `addr` (a .shared::cta or .shared::cluster address,
  // cluster_state.h) live: in this CTA's shared memory or another's of its cluster; null when
  // outside that CTA's shared memory or no running CTA has the rank (shared_miss says which).
  uint8_t* shared_at(uint64_t addr, uint64_t bytes) {
    CtaState* owner = this;
    if (const uint64_t r = addr >> kClusterRankShift) {
      owner = cta_of_rank(r - 1);
      addr &= kClusterOffsetMask;
    }
    if (!owner || addr + bytes > owner->shared.size() || addr + bytes < addr) return nullptr;
    return owner->shared.data() + addr;
  }
  std::string shared_miss(uint64_t addr) const;

 private:
  CtaState* cta_of_rank(uint64_t rank) {
    if (!cluster) return rank == 0 ? this : nullptr;
    return rank < cluster->ctas.size() ? cluster->ctas[rank] : nullptr;
  }
};

}  // namespace gputlm::func
