// The reference functional executor: runs a whole launch (every CTA, warps of 32, stack-based
// divergence, barriers) with no timing. Timing runs are checked against the same CPU references,
// so both must compute identical results.
#pragma once

#include <cstdint>
#include <functional>

#include "models/func/bound_kernel.h"
#include "models/func/func_stats.h"
#include "models/func/simt_stack.h"

namespace gputlm::func {

struct ReferenceOptions {
  // Watchdog: a launch that executes more warp instructions than this is reported as a fault.
  uint64_t max_warp_instructions = 2'000'000'000ull;
  // How diverged paths of a warp are scheduled (simt_stack.h; a GPU config's core.reconvergence).
  Reconvergence reconvergence = Reconvergence::Stack;
  // Nonzero: count memory instructions by the lines of this size they touch (FuncStats), global
  // ones always and local ones when count_local (a core whose local memory is cached).
  uint32_t line_bytes = 0;
  bool count_local = true;
  // Asked before each CTA (the functional stepper: before each instruction): true stops the
  // launch there, with the statistics of what ran (the caller knows why it asked to stop).
  std::function<bool()> stop;
};

// Runs `launch` to completion, CTA after CTA (a cooperative launch's, one with a grid workspace:
// interleaved, so that grid.sync() completes; a launch with clusters: cluster after cluster, each
// cluster's CTAs interleaved); throws KernelFault if the kernel faults.
FuncStats run_reference(const BoundKernel& kernel, const Launch& launch,
                        const ReferenceOptions& options = {});

}  // namespace gputlm::func
