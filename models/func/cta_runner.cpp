#include "models/func/cta_runner.h"

#include <sstream>

#include "models/func/simt_control.h"

namespace gputlm::func {

CtaRunner::CtaRunner(const BoundKernel& kernel, const Launch& launch, uint64_t cta_linear_id)
    : m_kernel(&kernel), m_launch(&launch), m_cta(std::make_unique<CtaState>(launch, cta_linear_id)) {
  const uint32_t n = launch.threads_per_cta();
  for (uint32_t w = 0; w * kWarpSize < n; ++w) {
    WarpState ws;
    ws.index = w;
    ws.base_tid = w * kWarpSize;
    ws.valid = first_lanes(n - ws.base_tid);
    ws.stack.reset(0, ws.valid);
    m_warps.push_back(std::move(ws));
  }
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
  WarpState* w = next_ready();
  if (!w) deadlock();
  execute(*w, stats);
  return w->index;
}

void CtaRunner::run(FuncStats& stats, uint64_t max_warp_instructions) {
  while (!done()) {
    WarpState* w = next_ready();
    if (!w) deadlock();
    while (w->status == WarpState::Status::Ready) {
      execute(*w, stats);
      if (stats.warp_instructions > max_warp_instructions) {
        std::ostringstream os;
        os << "kernel fault in '" << m_launch->kernel->name << "': watchdog: more than "
           << max_warp_instructions << " warp instructions (endless loop?); CTA " << m_cta->ctaid.str()
           << ", warp " << w->index << ", PC " << m_last_pc << ", " << m_launch->kernel->where(m_last_pc);
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
  m_kernel->execute(pc, *m_cta, ThreadGroup{w.base_tid, nullptr}, active, m_clock++, m_result);
  m_last_pc = pc;
  m_last_active = active;
  stats.count(active, isa::instruction_class(in));
  apply_control(w.stack, k, pc, m_result);
  if (in.is_exit() && m_result.active) {
    m_exited_threads += popcount(m_result.active);
    if (w.stack.done()) {
      w.status = WarpState::Status::Done;
      ++m_done_warps;
    }
    release_completed();
  } else if (m_result.barrier) {
    ++stats.barriers;
    w.barrier_pc = pc;
    arrive(w, m_result.barrier_id, m_result.barrier_count, m_result.active);
  }
}

void CtaRunner::arrive(WarpState& w, uint32_t id, uint32_t count, LaneMask lanes) {
  w.status = WarpState::Status::Barrier;
  w.barrier_id = id;
  w.barrier_lanes = lanes;
  m_arrived[id] += popcount(lanes);
  m_expected[id] = count;
  release_completed();
}

void CtaRunner::release_completed() {
  const uint32_t live = m_cta->nthreads - m_exited_threads;
  for (uint32_t id = 0; id < m_arrived.size(); ++id) {
    if (m_arrived[id] == 0) continue;
    const uint32_t target = m_expected[id] ? m_expected[id] : live;
    if (m_arrived[id] < target) continue;
    m_arrived[id] = 0;
    for (WarpState& w : m_warps)
      if (w.status == WarpState::Status::Barrier && w.barrier_id == id) w.status = WarpState::Status::Ready;
  }
}

void CtaRunner::deadlock() const {
  const WarpState* waiting = nullptr;
  for (const WarpState& w : m_warps)
    if (w.status == WarpState::Status::Barrier) { waiting = &w; break; }
  std::ostringstream os;
  os << "kernel fault in '" << m_launch->kernel->name << "': ";
  if (!waiting) {
    os << "no warp can make progress; CTA " << m_cta->ctaid.str();
    throw KernelFault(os.str());
  }
  const uint32_t id = waiting->barrier_id;
  const uint32_t live = m_cta->nthreads - m_exited_threads;
  const uint32_t target = m_expected[id] ? m_expected[id] : live;
  // Threads of blocked warps that did not arrive wait on another path of their own warp.
  uint32_t stuck = 0;
  for (const WarpState& w : m_warps) {
    if (w.status != WarpState::Status::Barrier) continue;
    LaneMask alive = 0;
    for (const auto& e : w.stack.entries()) alive |= e.mask;
    stuck += popcount(alive & ~w.barrier_lanes);
  }
  os << "barrier " << id << " can never complete: " << m_arrived[id] << " of " << target << " threads arrived";
  if (stuck) os << " (" << stuck << " threads of the waiting warps are on other paths: a barrier in divergent code)";
  os << "; CTA " << m_cta->ctaid.str() << ", thread " << waiting->base_tid + lowest_lane(waiting->barrier_lanes)
     << " (warp " << waiting->index << "), PC " << waiting->barrier_pc << ", "
     << m_launch->kernel->where(waiting->barrier_pc);
  throw KernelFault(os.str());
}

}  // namespace gputlm::func
