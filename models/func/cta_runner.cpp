#include "models/func/cta_runner.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "models/func/intra_warp_wait.h"
#include "models/func/simt_control.h"

namespace gputlm::func {

CtaRunner::CtaRunner(const BoundKernel& kernel, const Launch& launch, uint64_t cta_linear_id,
                     Reconvergence reconvergence)
    : m_kernel(&kernel),
      m_launch(&launch),
      m_cta(std::make_unique<CtaState>(launch, cta_linear_id)),
      m_barriers(*m_cta) {
  const uint32_t n = launch.threads_per_cta();
  for (uint32_t w = 0; w * kWarpSize < n; ++w) {
    WarpState ws;
    ws.index = w;
    ws.base_tid = w * kWarpSize;
    ws.valid = first_lanes(n - ws.base_tid);
    ws.stack.set_policy(reconvergence);
    ws.stack.reset(0, ws.valid);
    m_warps.push_back(std::move(ws));
  }
}

void CtaRunner::restart(uint64_t cta_linear_id) {
  m_cta->reset(cta_linear_id);
  m_barriers = CtaBarriers(*m_cta);
  for (WarpState& ws : m_warps) {
    ws.stack.reset(0, ws.valid);
    ws.status = WarpState::Status::Ready;
    ws.clock = 0;
  }
  m_done_warps = 0;
  m_cluster_waiters = 0;
  m_rr = 0;
  m_last_pc = 0;
  m_last_active = 0;
}

WarpState* CtaRunner::next_ready() {
  for (size_t i = 0; i < m_warps.size(); ++i) {
    WarpState& w = m_warps[(m_rr + i) % m_warps.size()];
    if (w.status == WarpState::Status::Ready) {
      m_rr = (m_rr + i + 1) % m_warps.size();
      return &w;
    }
  }
  return nullptr;
}

uint32_t CtaRunner::step(FuncStats& stats) {
  bool woken = false;
  for (;;) {
    WarpState* w = next_ready();
    if (!w) {
      if (!m_cluster_waiters) deadlock();
      if (woken) cluster_deadlock();  // a CTA stepped alone: no other CTA can complete the phase
      wake_cluster_waiters();
      woken = true;
      continue;
    }
    execute(*w, stats);
    if (!m_result.retry) return w->index;
  }
}

void CtaRunner::wake_cluster_waiters() {
  for (WarpState& ws : m_warps)
    if (ws.status == WarpState::Status::ClusterWait) ws.status = WarpState::Status::Ready;
  m_cluster_waiters = 0;
}

void CtaRunner::run(FuncStats& stats, uint64_t max_warp_instructions, uint64_t quantum) {
  const uint64_t end = quantum == UINT64_MAX ? UINT64_MAX : stats.warp_instructions + quantum;
  uint64_t woken_at = UINT64_MAX;  // warp instructions when the cluster waiters were last woken
  while (!done() && stats.warp_instructions < end) {
    WarpState* w = next_ready();
    if (!w) {
      if (!m_cluster_waiters) deadlock();
      if (woken_at == stats.warp_instructions)
        return;  // they tried since: only other CTAs can help now
      woken_at = stats.warp_instructions;
      wake_cluster_waiters();
      continue;
    }
    while (w->status == WarpState::Status::Ready && stats.warp_instructions < end) {
      execute(*w, stats);
      if (m_result.yield)
        break;  // polling an mbarrier: let the other warps run (next_ready goes round)
      if (stats.warp_instructions > max_warp_instructions) {
        std::ostringstream os;
        os << "kernel fault in '" << m_launch->kernel->name << "': watchdog: more than "
           << max_warp_instructions << " warp instructions";
        const std::string waits =
            intra_warp_wait(w->stack, m_kernel->kernel(), w->index, m_cta->ctaid.str());
        if (!waits.empty()) throw KernelFault(os.str() + ": " + waits);
        os << " (endless loop?); CTA " << m_cta->ctaid.str() << ", warp " << w->index << ", PC "
           << m_last_pc << ", " << m_launch->kernel->where(m_last_pc);
        throw KernelFault(os.str());
      }
    }
  }
}

void CtaRunner::execute(WarpState& w, FuncStats& stats) {
  const uint32_t pc = w.stack.pc();
  const LaneMask active = w.stack.mask();
  const isa::Kernel& k = m_kernel->kernel();
  const isa::Instruction& in = k.code[pc];
  const uint64_t clock = w.clock;
  w.clock += m_warps.size();
  m_kernel->execute(pc, *m_cta, ThreadGroup{w.base_tid, nullptr}, active, clock, m_result);
  m_last_pc = pc;
  m_last_active = active;
  if (m_result.retry) {  // barrier.cluster.wait, incomplete: not executed, the warp waits
    w.status = WarpState::Status::ClusterWait;
    ++m_cluster_waiters;
    return;
  }
  stats.count(active, m_kernel->instr_class(pc));
  if (m_line_bytes && in.is_memory()) count_memory_lines(stats);
  apply_control(w.stack, k, pc, m_result);
  if (in.is_exit() && m_result.active) {
    m_barriers.exit(m_result.active);
    if (w.stack.done()) {
      w.status = WarpState::Status::Done;
      ++m_done_warps;
    }
    release_completed();
  } else if (m_result.barrier) {
    ++stats.barriers;
    if (m_barriers.arrive(w.index, m_result, pc)) w.status = WarpState::Status::Barrier;
    release_completed();
  }
}

void CtaRunner::count_memory_lines(FuncStats& stats) const {
  const ExecResult& r = m_result;
  if (!r.accessed ||
      !(r.space == isa::Space::Global || (r.space == isa::Space::Local && m_count_local)))
    return;
  std::array<uint64_t, kWarpSize> lines;
  size_t n = 0;
  for_each_lane(r.accessed, [&](unsigned lane) { lines[n++] = r.addr[lane] / m_line_bytes; });
  std::sort(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(n));
  const size_t distinct = static_cast<size_t>(
      std::unique(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(n)) - lines.begin());
  if (distinct == 1) {
    ++stats.coalesced_memory_instructions;
  } else {
    ++stats.uncoalesced_memory_instructions;
    stats.uncoalesced_line_requests += distinct;
  }
}

void CtaRunner::release_completed() {
  m_barriers.release_completed(
      [this](uint32_t warp) { m_warps[warp].status = WarpState::Status::Ready; });
}

void CtaRunner::cluster_deadlock() const {
  const ClusterBarrier& b = m_cta->cluster ? m_cta->cluster->barrier : m_cta->solo_barrier;
  std::ostringstream os;
  os << "kernel fault in '" << m_launch->kernel->name
     << "': barrier.cluster.wait can never complete: " << b.arrived << " of the cluster's "
     << b.threads << " threads arrived, " << b.exited << " exited, the others wait elsewhere; CTA "
     << m_cta->ctaid.str() << ", PC " << m_last_pc << ", " << m_launch->kernel->where(m_last_pc);
  throw KernelFault(os.str());
}

void CtaRunner::deadlock() const {
  throw KernelFault(m_barriers.deadlock_message(
      *m_launch, m_cta->ctaid,
      [this](uint32_t warp) {
        LaneMask alive = 0;
        for (const auto& e : m_warps[warp].stack.entries()) alive |= e.mask;
        return alive;
      },
      [this](uint32_t warp) { return m_warps[warp].base_tid; }));
}

}  // namespace gputlm::func
