#include "models/sm/fetch/fetch_stage.h"

namespace gputlm::sm {

namespace {
// Instructions whose outcome decides the warp's next fetch (scoreboard mode waits for them).
bool decides_next_pc(const isa::Instruction& in, const WarpSlot& w, uint32_t pc) {
  if (in.is_branch() || in.is_exit() || in.is_barrier() || in.op == isa::Opcode::Trap) return true;
  return !w.stack.done() && w.stack.entries().back().rpc == pc + 1;  // a reconvergence pop follows
}
}  // namespace

FetchStage::FetchStage(sc_core::sc_module_name name, CoreContext& core)
    : Stage(name, core, false, true),
      icache("icache", core.wake, poke_flag()),
      m_icache_wait(core.warps.size(), false),
      m_icache_sent(core.warps.size(), 0),
      m_candidates((core.warps.size() + 63) / 64, 0) {}

uint64_t FetchStage::line_of(uint32_t pc) const {
  return (uint64_t{pc} * m_core.spec.instruction_bytes) / m_core.spec.icache.line_bytes;
}

bool FetchStage::candidate(const WarpSlot& w) const {
  if (w.status != WarpSlot::Status::Ready || w.stack.done()) return false;
  if (!m_core.scoreboard) return w.inflight == 0;
  return w.inflight < m_core.spec.max_inflight_per_warp && !w.control_pending;
}

bool FetchStage::eligible(const WarpSlot& w, Cycle now) const { return candidate(w) && w.eligible_from <= now; }

void FetchStage::recheck(uint32_t slot) {
  const uint64_t bit = 1ull << (slot % 64);
  if (candidate(m_core.warps[slot]) && !m_icache_wait[slot]) m_candidates[slot / 64] |= bit;
  else m_candidates[slot / 64] &= ~bit;
}

StallCause FetchStage::stall_cause() const {
  if (m_held) return StallCause::Backpressure;
  bool any = false, barrier = false, icache = false;
  for (size_t s = 0; s < m_core.warps.size(); ++s) {
    const WarpSlot& w = m_core.warps[s];
    if (!w.active()) continue;
    if (w.waiting_memory) return StallCause::Memory;  // the first cause in order of precedence
    any = true;
    barrier |= w.status == WarpSlot::Status::Barrier;
    icache |= m_icache_wait[s];
  }
  if (!any) return StallCause::Idle;
  if (icache) return StallCause::ICache;
  if (barrier) return StallCause::Barrier;
  return StallCause::Pipeline;
}

Cycle FetchStage::cycle(Cycle now) {
  if (m_cycle != now) {
    m_cycle = now;
    m_slot_used = false;
  }
  while (icache.has_response()) {  // the line arrived: the warp's fetch completes now
    tlm::tlm_generic_payload& p = icache.front_response();
    icache.pop_response();
    const uint32_t slot = mem::MemExtension::of(p).warp;
    m_core.warps[slot].ibuffer_line = p.get_address() / m_core.spec.icache.line_bytes;
    m_arrived.push_back(slot);
    p.release();
  }
  if (m_held && m_ready <= now && out->can_send()) {
    out->send(*m_held);
    m_held = nullptr;
  }
  // A fetch that had to go to the I-cache finishes when its line has arrived and the fetch
  // register is free (an I-cache hit thus costs no more than an instruction-buffer hit); it
  // does not use this cycle's fetch slot. A warp no longer eligible goes back to the scan.
  while (!m_held && !m_arrived.empty()) {
    const uint32_t slot = m_arrived.front();
    m_arrived.pop_front();
    m_icache_wait[slot] = false;
    recheck(slot);
    if (!eligible(m_core.warps[slot], now)) continue;  // back in the scan
    fetch(slot, m_icache_sent[slot]);
    m_ready = std::max(m_ready, now);
    if (m_held && out->can_send() && m_ready <= now) {
      out->send(*m_held);
      m_held = nullptr;
    }
    break;  // the link to decode takes one instruction a cycle
  }
  // One fetch decision a cycle: nothing that runs later in the cycle makes a warp eligible before
  // the next one (writeback and barriers set eligible_from to the next cycle at the earliest).
  Cycle soonest = kNever;  // the earliest cycle a warp that is only waiting for time becomes eligible
  if (!m_held && !m_slot_used) {
    m_slot_used = true;
    for (uint32_t s : m_core.touched) recheck(s);
    m_core.touched.clear();
    m_eligible.clear();
    for (size_t i = 0; i < m_candidates.size(); ++i) {
      for (uint64_t bits = m_candidates[i]; bits; bits &= bits - 1) {
        const uint32_t s = static_cast<uint32_t>(i * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
        const Cycle from = m_core.warps[s].eligible_from;
        if (from <= now) m_eligible.push_back(s);
        else soonest = std::min(soonest, from);
      }
    }
    m_fetched = !m_eligible.empty();
    if (m_fetched) {
      fetch(m_core.scheduler->pick(m_eligible, m_core.warps, now), now);
      m_core.prioritized_group = m_core.scheduler->prioritized_group();
    }
  }
  show(m_held ? 1 : 0, m_held);
  if (m_held) return m_ready > now ? m_ready : kNever;
  if ((m_fetched && m_slot_used) || !m_arrived.empty()) return now + 1;
  return soonest;
}

// Every cycle of a launch is charged either as a fetch cycle or, without a fetch, to why nothing
// could be fetched; the cycles the core slept through go to the cause it went to sleep with
// (nothing in the core changes while it sleeps). The core may run more than once in a cycle
// (woken by a cache): the cycle's charge is then redone.
void FetchStage::end_cycle(Cycle now, Cycle next) {
  if (!m_accounting) return;
  if (m_charged == now) uncharge();
  else charge_gap(now);
  const bool fetched = m_slot_used && m_fetched;
  m_charged = now;
  m_charged_fetch = fetched;
  m_from = now + 1;
  if (fetched) ++m_core.counters.fetch_cycles;
  if (fetched && next == now + 1) return;  // no cycle slept through before the next run
  m_sleep_cause = stall_cause();
  m_charged_cause = m_sleep_cause;
  if (!fetched) ++m_core.counters.stall_cycles[static_cast<size_t>(m_charged_cause)];
}

void FetchStage::begin_accounting(Cycle start) {
  m_accounting = true;
  m_from = start;
  m_charged = kNever;
  m_sleep_cause = stall_cause();
}

void FetchStage::end_accounting(Cycle end) {
  if (!m_accounting) return;
  if (m_charged == end) {  // the launch's cycles end before `end`
    uncharge();
    m_from = end;
  }
  charge_gap(end);
  m_accounting = false;
}

void FetchStage::charge_gap(Cycle until) {
  if (until > m_from) m_core.counters.stall_cycles[static_cast<size_t>(m_sleep_cause)] += until - m_from;
}

void FetchStage::uncharge() {
  if (m_charged_fetch) --m_core.counters.fetch_cycles;
  else --m_core.counters.stall_cycles[static_cast<size_t>(m_charged_cause)];
  m_charged = kNever;
}

void FetchStage::fetch(uint32_t slot, Cycle now) {
  WarpSlot& w = m_core.warps[slot];
  const std::optional<IssueUnit> u = m_core.formation->next(w);
  const uint64_t line = line_of(u->pc);
  if (line != w.ibuffer_line) {  // instruction buffer miss: ask the I-cache, fetch others meanwhile
    if (!icache.can_send()) return;
    tlm::tlm_generic_payload& p = m_pool.make(line * m_core.spec.icache.line_bytes, m_core.spec.icache.line_bytes, mem::AccessKind::Fetch);
    mem::MemExtension::of(p).core = m_core.id;
    mem::MemExtension::of(p).warp = slot;
    m_icache_wait[slot] = true;
    m_icache_sent[slot] = now;
    icache.send(p);
    recheck(slot);
    return;
  }
  const isa::Kernel& k = m_core.kernel_of(w).kernel();
  WarpInstr& wi = m_core.new_instr();
  wi.slot = slot;
  wi.pc = u->pc;
  wi.lanes = u->lanes;
  wi.group = u->group;
  wi.in = &k.code[u->pc];
  wi.cls = isa::instruction_class(*wi.in);
  wi.fetched = now;
  ++w.inflight;
  if (decides_next_pc(*wi.in, w, u->pc)) w.control_pending = true;
  else if (m_core.scoreboard) {  // straight-line code: the next PC is known now
    w.stack.advance(u->pc + 1);
    wi.pc_advanced = true;
  }
  m_held = &wi;
  m_ready = now + m_core.spec.fetch_cycles;
  recheck(slot);
}

}  // namespace gputlm::sm
