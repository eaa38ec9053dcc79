// Barrier bookkeeping of one CTA (bar/barrier .sync, .arrive and .red, ids 0..15; PTX ISA: bar,
// barrier): which warps wait at which barrier with which lanes, how many threads have arrived and
// exited, and when a barrier completes. A barrier completes when every thread of the CTA that has
// not exited has arrived (or the explicit count). bar.arrive counts its threads without making them
// wait; bar.red gathers a predicate per thread and, when the barrier completes, writes the
// reduction over every thread that took part to each bar.red thread's destination register,
// before any of them resumes. Shared by the reference executor and the timing core so both agree;
// a state in which no warp can move is described by deadlock_message().
#pragma once

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/lane_mask.h"
#include "models/func/launch.h"
#include "models/isa/types.h"

namespace gputlm::func {

class CtaBarriers {
 public:
  // `cta`: the CTA whose threads arrive (its thread count; bar.red writes its registers).
  explicit CtaBarriers(CtaState& cta);

  // The active lanes of `r` (a barrier instruction's result) of warp `warp` arrive at `pc`.
  // Returns whether the warp now waits (false for bar.arrive).
  bool arrive(uint32_t warp, const ExecResult& r, uint32_t pc);
  // `lanes` threads exited.
  void exit(LaneMask lanes) { m_exited += popcount(lanes); }
  // Releases every barrier that is now complete: writes bar.red results, then calls
  // `release(warp)` for each waiting warp.
  void release_completed(const std::function<void(uint32_t warp)>& release);
  bool anyone_waiting() const { return m_waiters > 0; }

  // The fault message when no warp can move: the first waiting warp's barrier, how many arrived,
  // and how many threads of waiting warps are stuck on other paths. `alive(warp)` gives the lanes
  // of a warp that have not exited, `base_tid(warp)` its first thread.
  std::string deadlock_message(const Launch& launch, const Dim3& ctaid,
                               const std::function<LaneMask(uint32_t)>& alive,
                               const std::function<uint32_t(uint32_t)>& base_tid) const;

 private:
  struct Waiter {
    uint32_t warp;
    LaneMask lanes;
    uint32_t pc;
  };
  // bar.red of one barrier instance: threads whose predicate held / did not, and where each
  // bar.red thread wants the result (register, thread).
  struct Reduction {
    isa::AtomOp op = isa::AtomOp::None;
    uint32_t true_count = 0, false_count = 0;
    std::vector<std::pair<int32_t, uint32_t>> dsts;
  };
  void write_reduction(Reduction& red);

  CtaState* m_cta;
  uint32_t m_threads;
  uint32_t m_exited = 0;
  std::array<uint32_t, 16> m_arrived{};
  std::array<uint32_t, 16> m_expected{};  // 0 = all live threads
  std::array<std::vector<Waiter>, 16> m_waiting;
  std::array<Reduction, 16> m_red;
  uint32_t m_waiters = 0;  // warps waiting at any barrier
};

}  // namespace gputlm::func
