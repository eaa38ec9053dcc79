// Runs one CTA functionally: its warps of 32 consecutive threads, each with a SIMT stack, and the
// CTA's barriers. A barrier completes when every thread of the CTA that has not exited has
// arrived (or the explicit thread count); because diverged lanes wait on the SIMT stack, a
// barrier reached in divergent code can never complete and is reported as a fault, as is any
// state where no warp can move. No timing: warps take turns in round-robin order.
//
// %clock has no simulated time to read here; each warp reads a nominal one: W cycles for each
// instruction it has executed, W the CTA's warps, as if a core issued one warp instruction a cycle
// with its W warps taking turns (a choice). A warp that spins on clock() for N cycles thus runs
// about N / W instructions, not N, as it would with its sibling warps beside it on a GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/cta_barriers.h"
#include "models/func/func_stats.h"
#include "models/func/simt_stack.h"

namespace gputlm::func {

struct WarpState {
  enum class Status {
    Ready,
    Barrier,
    Done,
    ClusterWait
  };                      // ClusterWait: at a barrier.cluster.wait not yet complete
  uint32_t index = 0;     // warp number in the CTA
  uint32_t base_tid = 0;  // first thread
  LaneMask valid = 0;     // lanes that are threads of the CTA
  SimtStack<LaneMask> stack;
  Status status = Status::Ready;
  uint64_t clock = 0;  // its nominal %clock (see above)
};

class CtaRunner {
 public:
  // `reconvergence`: how its warps' diverged paths are scheduled (simt_stack.h).
  CtaRunner(const BoundKernel& kernel, const Launch& launch, uint64_t cta_linear_id,
            Reconvergence reconvergence = Reconvergence::Stack);

  // Starts CTA `cta_linear_id` of the same launch afresh in this runner's storage (a launch's
  // CTAs run one after another: no allocation per CTA).
  void restart(uint64_t cta_linear_id);

  bool done() const { return m_done_warps == m_warps.size(); }
  const std::vector<WarpState>& warps() const { return m_warps; }
  const CtaState& state() const { return *m_cta; }

  // Executes one instruction of the next ready warp in round-robin order and returns the warp's
  // index (a barrier.cluster.wait that must wait again is not one). Throws KernelFault on a fault
  // or when no warp can make progress.
  uint32_t step(FuncStats& stats);
  // From now on, count global (and, with `local`, local) memory instructions by the lines of
  // `line_bytes` they touch in FuncStats; 0 stops counting.
  void count_lines(uint32_t line_bytes, bool local) {
    m_line_bytes = line_bytes;
    m_count_local = local;
  }
  // Runs until the CTA finishes, letting each warp run until it blocks (fewer switches), or until
  // it has executed `quantum` warp instructions (CTAs taking turns: a cooperative launch, a
  // cluster), or until its only warps able to move wait at barrier.cluster.wait for other CTAs of
  // its cluster (they try again at the next run).
  void run(FuncStats& stats, uint64_t max_warp_instructions, uint64_t quantum = UINT64_MAX);
  // Joins the CTA to its cluster (before it runs).
  void join_cluster(std::shared_ptr<ClusterState> cluster) { m_cta->join(std::move(cluster)); }
  // The fault when run() returned with the CTA unfinished and no CTA can move: its warps wait at
  // barrier.cluster.wait for threads that will never arrive.
  [[noreturn]] void cluster_deadlock() const;
  // What the last step executed: result, PC and the warp's SIMT mask at issue.
  const ExecResult& last_result() const { return m_result; }
  uint32_t last_pc() const { return m_last_pc; }
  LaneMask last_active() const { return m_last_active; }

 private:
  void execute(WarpState& w, FuncStats& stats);
  void count_memory_lines(FuncStats& stats) const;
  void release_completed();
  void wake_cluster_waiters();
  [[noreturn]] void deadlock() const;
  WarpState* next_ready();

  const BoundKernel* m_kernel;
  const Launch* m_launch;
  std::unique_ptr<CtaState> m_cta;
  std::vector<WarpState> m_warps;
  size_t m_done_warps = 0;
  size_t m_cluster_waiters = 0;  // warps in Status::ClusterWait
  size_t m_rr = 0;               // round-robin position
  CtaBarriers m_barriers;
  ExecResult m_result;
  uint32_t m_last_pc = 0;
  LaneMask m_last_active = 0;
  uint32_t m_line_bytes = 0;
  bool m_count_local = true;
};

}  // namespace gputlm::func
