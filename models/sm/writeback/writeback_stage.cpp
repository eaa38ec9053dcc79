#include "models/sm/writeback/writeback_stage.h"

namespace gputlm::sm {

Cycle WritebackStage::cycle(Cycle now) {
  if (m_last_take != now) m_taken = 0;
  // writeback_ports instructions enter a cycle per processing block (each writes its own register
  // file); the blocks' ports are pooled: which block an instruction belongs to is not checked.
  if (!m_held && in->peek() && m_taken < m_core.spec.writeback_ports * m_core.blocks()) {
    m_held = in->take();
    m_ready = now + m_core.spec.writeback_cycles - 1;  // retired at the end of its last cycle
    m_last_take = now;
    ++m_taken;
  }
  if (m_held && m_ready <= now) {
    WarpInstr* w = m_held;
    m_held = nullptr;
    show(1, w);  // the waves show the instruction retired last
    retire(*w, now);
    return now +
           1;  // the warp may be fetched next cycle; the next instruction starts its writeback
  }
  if (!m_held && in->peek()) return now + 1;
  return m_held ? m_ready : kNever;
}

void WritebackStage::declare_waves(WaveList& waves) const {
  declare_stage_waves(waves, "warp and PC of the instruction retired last", true);
}

void WritebackStage::retire(WarpInstr& wi, Cycle now) {
  WarpSlot& w = m_core.warps[wi.slot];
  CtaSlot& cta = m_core.ctas[w.cta_slot];
  const func::ExecResult& r = wi.result;
  const isa::InstructionRegisters& regs = cta.kernel->registers(wi.pc);
  if (m_core.scoreboard && !wi.released)
    for (int32_t d : regs.defs) w.set_register_pending(d, false);
  if (r.retry) {  // barrier.cluster.wait, its phase incomplete: the warp stays at it and tries
                  // again
    w.control_pending = false;
    --w.inflight;
    w.eligible_from = now + 1;
    m_core.touch(wi.slot);
    m_core.free_instr(wi);
    return;
  }
  ++m_core.counters.warp_instructions;
  m_core.counters.thread_instructions += wi.threads;
  if (wi.in->is_barrier()) ++m_core.counters.simt.barrier_instructions;
  if (!wi.pc_advanced) {
    if (func::InstructionSource* t = m_core.control_source(w))
      m_core.follow_trace(*t, w);
    else
      m_core.formation->retire(wi.slot, w,
                               IssueUnit{wi.pc, wi.group, wi.lanes, wi.threads, wi.tag, false},
                               cta.kernel->kernel(), r);
    w.control_pending = false;
  }
  m_core.counters.simt.register_file_accesses += regs.uses.size() + regs.defs.size();
  m_core.counters.simt.register_file_thread_accesses +=
      (regs.uses.size() + regs.defs.size()) * wi.threads;
  m_core.counters.simt.register_reads += regs.uses.size();
  m_core.counters.simt.register_writes += regs.defs.size();
  m_core.counters.simt.class_thread_instructions[static_cast<size_t>(wi.cls)] += wi.threads;
  --w.inflight;
  w.eligible_from = now + 1;
  if (wi.in->is_exit()) {
    --m_core.ending;
    if (w.stack.done() && w.inflight > 0 &&
        !w.draining) {  // ends when its last instruction retires
      w.draining = true;
      ++m_core.ending;
    }
  }
  if (wi.in->is_exit() && r.active) cta.barriers->exit(r.active);
  if (r.barrier) {
    // A large warp whose other threads are still to form (suspended on busy threads) stays
    // fetchable, so they can form and arrive; its last unit stops the slot. bar.arrive does not
    // wait.
    const bool waits = cta.barriers->arrive(w.index_in_cta, r, wi.pc);
    if (waits && !m_core.formation->unformed(wi.slot)) w.status = WarpSlot::Status::Barrier;
  }
  if (w.stack.done() && w.inflight == 0) {
    if (w.draining) {
      w.draining = false;
      --m_core.ending;
    }
    w.status = WarpSlot::Status::Done;
    ++cta.warps_done;
  }
  if (r.barrier || (wi.in->is_exit() && r.active))
    release_barriers(cta, now);  // only these complete a barrier
  m_core.touch(wi.slot);
  m_core.free_instr(wi);
  if (cta.warps_done == cta.warp_slots.size()) {
    m_core.cta_finished(w.cta_slot);
  } else if (cta.barriers->anyone_waiting()) {
    check_deadlock(cta);
  }
}

void WritebackStage::release_barriers(CtaSlot& cta, Cycle now) {
  cta.barriers->release_completed([&](uint32_t warp) {
    WarpSlot& s = m_core.warps[cta.warp_slots[warp]];
    s.status = s.stack.done() ? WarpSlot::Status::Done : WarpSlot::Status::Ready;
    s.eligible_from = std::max(s.eligible_from, now + 1);
    m_core.touch(cta.warp_slots[warp]);
  });
}

// No warp of the CTA can move: every one waits at a barrier or has finished, with nothing in
// flight.
void WritebackStage::check_deadlock(CtaSlot& cta) {
  for (uint32_t s : cta.warp_slots) {
    const WarpSlot& w = m_core.warps[s];
    if (w.inflight > 0 || w.status == WarpSlot::Status::Ready) return;
  }
  m_core.report_fault(cta.barriers->deadlock_message(
      *cta.state->launch, cta.state->ctaid,
      [&](uint32_t warp) {
        LaneMask alive = 0;
        for (const auto& e : m_core.warps[cta.warp_slots[warp]].stack.entries()) alive |= e.mask;
        return alive;
      },
      [&](uint32_t warp) { return m_core.warps[cta.warp_slots[warp]].base_tid; }));
}

}  // namespace gputlm::sm
