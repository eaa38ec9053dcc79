// What one instruction execution sees and produces. The functional engine executes a warp
// instruction for a set of lanes (ThreadGroup + mask); ExecResult reports what the timing model
// and the SIMT control need: lanes that executed, branch outcome, barrier, exit, and for memory
// instructions the resolved space and per-lane addresses.
#pragma once

#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "models/common/lane_mask.h"
#include "models/func/cta_state.h"
#include "models/func/kernel_fault.h"
#include "models/func/memory_check.h"

namespace gputlm::func {

// Maps lanes to CTA thread indices: consecutive threads for a static warp, or an explicit table
// for sub-warps formed from several rows of a large warp.
struct ThreadGroup {
  uint32_t base_tid = 0;
  const uint32_t* tids = nullptr;  // 32 entries when set
  uint32_t tid(unsigned lane) const { return tids ? tids[lane] : base_tid + lane; }
};

struct ExecResult {
  LaneMask active = 0;  // lanes that executed (group mask and guard)
  LaneMask taken = 0;   // bra: lanes that jump to the target; call: lanes that call
  bool exit = false;    // ret/exit: the active lanes finished
  bool barrier = false;
  uint32_t barrier_id = 0;
  uint32_t barrier_count = 0;   // 0 = all threads of the CTA
  bool barrier_arrive = false;  // bar.arrive: the lanes count as arrived and do not wait
  // mbarrier.test_wait/try_wait found a phase incomplete: the warp is polling for other warps'
  // progress, so an engine that runs a warp until it blocks lets the others run first.
  bool yield = false;
  // barrier.cluster.wait found the phase its lanes arrived in incomplete: they stay at the
  // instruction (the warp's PC does not move) and try again later; not counted as executed.
  bool retry = false;
  // bar.red (PTX ISA: bar, barrier): the reduction (popc as Add, and, or), its destination
  // register, the lanes whose predicate holds, and in addr[lane] each arriving lane's thread index.
  isa::AtomOp barrier_red = isa::AtomOp::None;
  int32_t barrier_red_dst = -1;
  LaneMask barrier_red_true = 0;
  // Memory instructions: resolved space, bytes per lane, the lanes that accessed memory (the
  // active lanes; for cond.acc, those whose predicate held) and their addresses.
  isa::Space space = isa::Space::Generic;
  uint32_t access_bytes = 0;
  LaneMask accessed = 0;
  // call: the callee's first pc per calling lane.
  std::array<uint64_t, kWarpSize> addr{};  // meaningful for the accessed (calling) lanes only
  // A CTA that defers transactions (CtaState::defer_tx): the mbarrier object's shared address
  // (CtaState::shared_at; -1: none) and, for cp.async.bulk, the bytes its complete-tx will count
  // once the lines are back; for cp.async.mbarrier.arrive, the arrive-ons due once the warp's
  // earlier cp.async copies are complete.
  int64_t tx_mbar = -1;
  uint32_t tx_bytes = 0;

  // A fresh result for the next instruction; the addresses are left as they are (only the active
  // lanes' are ever read, and each memory instruction writes those).
  void clear() {
    active = taken = accessed = 0;
    exit = barrier = barrier_arrive = yield = retry = false;
    barrier_id = barrier_count = 0;
    barrier_red = isa::AtomOp::None;
    barrier_red_dst = -1;
    barrier_red_true = 0;
    space = isa::Space::Generic;
    access_bytes = 0;
    tx_mbar = -1;
  }
};

// Generic address windows (PTX generic addressing): kernel parameters (cvta.param, sm_70+: read
// only), shared and local memory appear at fixed bases; everything else is global.
constexpr uint64_t kParamWindow = 0x00007D0000000000ull;
constexpr uint64_t kSharedWindow = 0x00007E0000000000ull;
constexpr uint64_t kLocalWindow = 0x00007F0000000000ull;
constexpr uint64_t kWindowSize = 1ull << 32;

// Where a local-memory word of thread `tid` lives for the timing model's caches: the threads of a
// CTA (`cta_key`, unique per core and CTA slot) interleaved word by word, 4GB per CTA key, in the
// local window.
inline uint64_t local_timing_address(uint64_t cta_key, uint64_t offset, uint64_t threads,
                                     uint64_t tid) {
  return kLocalWindow + (cta_key << 32) + (offset / 4) * threads * 4 + tid * 4 + offset % 4;
}

// %globaltimer advances this many nanoseconds per cycle of the clock the engine is given.
constexpr uint64_t kGlobaltimerNsPerCycle = 1;

struct ExecCtx {
  const isa::Instruction* in = nullptr;
  uint32_t pc = 0;
  CtaState* cta = nullptr;
  ThreadGroup group;
  LaneMask mask = 0;   // lanes to execute (already filtered by the guard)
  uint64_t clock = 0;  // %clock value
  ExecResult* result = nullptr;

  const Launch& launch() const { return *cta->launch; }
  uint64_t& reg(int32_t r, uint32_t tid) { return cta->reg(r, tid); }

  [[noreturn]] void fault(const std::string& what, uint32_t tid, uint64_t address,
                          bool has_address = true) const;
  // A global access of `bytes` at `address` outside every allocation faults ("<what> outside any
  // allocation"), unless it is in mapped memory and the launch's MemoryCheck is not strict: then
  // it is a warning with the same detail and the access goes ahead (memory_check.h). Every global
  // access asks, so `what` is a view (a literal) and the message is built only when one is due.
  void check_global(uint64_t address, uint64_t bytes, uint32_t tid, std::string_view what) const {
    if (!launch().memory->find(address, bytes)) outside_allocations(address, bytes, tid, what);
  }
  void outside_allocations(uint64_t address, uint64_t bytes, uint32_t tid,
                           std::string_view what) const;
  uint64_t special(const isa::Operand& o, unsigned lane, uint32_t tid) const;
  // out[i] = the special register for lane i of a whole warp of consecutive threads from `base`
  // (a multiple of 32).
  void special_warp(const isa::Operand& o, uint32_t base, uint64_t* out) const;

  // Raw 64-bit value of a source operand for one thread. Registers, by far the most common, and
  // plain immediates are read here (inlined into every semantic function); the other kinds out of
  // line.
  uint64_t raw(const isa::Operand& o, unsigned lane, uint32_t tid) {
    if (o.kind == isa::OperandKind::Reg) [[likely]] {
      const uint64_t v = reg(o.reg, tid);
      return o.negate ? !v : v;
    }
    if (o.kind == isa::OperandKind::Imm && !o.frame) return static_cast<uint64_t>(o.imm);
    return raw_other(o, lane, tid);
  }
  uint64_t raw_other(const isa::Operand& o, unsigned lane, uint32_t tid) const;
};

// ---- typed views of 64-bit register values ----
template <class T>
inline T get(uint64_t bits) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t u = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  } else if constexpr (std::is_same_v<T, double>) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  } else {
    return static_cast<T>(bits);
  }
}
template <class T>
inline uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

template <class T>
inline T src(ExecCtx& c, unsigned i, unsigned lane, uint32_t tid) {
  return get<T>(c.raw(c.in->ops[i], lane, tid));
}
template <class T>
inline void dst(ExecCtx& c, unsigned lane, uint32_t tid, T v) {
  c.reg(c.in->ops[0].reg, tid) = put<T>(v);
}

// Runs f(lane, tid) for every lane of c.mask.
template <class F>
inline void lanes(ExecCtx& c, F&& f) {
  for (LaneMask m = c.mask; m; m &= m - 1) {
    const unsigned lane = lowest_lane(m);
    f(lane, c.group.tid(lane));
  }
}

using ExecFn = void (*)(ExecCtx&);

}  // namespace gputlm::func
