// Barrier bookkeeping of one CTA (bar.sync / barrier.sync, ids 0..15): which warps wait at which
// barrier with which lanes, how many threads have arrived and exited, and when a barrier completes.
// A barrier completes when every thread of the CTA that has not exited has arrived (or the
// explicit count). Shared by the reference executor and the timing core so both agree; a state in
// which no warp can move is described by deadlock_message().
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "models/common/lane_mask.h"
#include "models/func/launch.h"

namespace gputlm::func {

class CtaBarriers {
 public:
  explicit CtaBarriers(uint32_t threads) : m_threads(threads) {}

  // `lanes` of warp `warp` arrive at barrier `id` (count 0 = all live threads) at `pc`.
  void arrive(uint32_t warp, uint32_t id, uint32_t count, LaneMask lanes, uint32_t pc);
  // `lanes` threads exited.
  void exit(LaneMask lanes) { m_exited += popcount(lanes); }
  // Releases every barrier that is now complete: calls `release(warp)` for each waiting warp.
  void release_completed(const std::function<void(uint32_t warp)>& release);
  bool anyone_waiting() const { return m_waiters > 0; }

  // The fault message when no warp can move: the first waiting warp's barrier, how many arrived,
  // and how many threads of waiting warps are stuck on other paths. `alive(warp)` gives the lanes
  // of a warp that have not exited, `base_tid(warp)` its first thread.
  std::string deadlock_message(const Launch& launch, const Dim3& ctaid, const std::function<LaneMask(uint32_t)>& alive,
                               const std::function<uint32_t(uint32_t)>& base_tid) const;

 private:
  struct Waiter {
    uint32_t warp;
    LaneMask lanes;
    uint32_t pc;
  };
  uint32_t m_threads;
  uint32_t m_exited = 0;
  std::array<uint32_t, 16> m_arrived{};
  std::array<uint32_t, 16> m_expected{};  // 0 = all live threads
  std::array<std::vector<Waiter>, 16> m_waiting;
  uint32_t m_waiters = 0;  // warps waiting at any barrier
};

}  // namespace gputlm::func
