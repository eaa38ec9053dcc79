#include "models/sm/memory/memory_stage.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

#include "models/func/mbarrier.h"

namespace gputlm::sm {

namespace {
// cp.async (PTX ISA 9.7.9.25) reads its source lines through the L1 like a load (its result space
// is .global), but the instruction does not wait for them: it leaves once they are sent, and the
// lines count for the warp's copy group until they return (copy_groups.h), which the fetch stage
// holds cp.async.wait_group/wait_all on. The shared-memory write of the returned data is not
// modelled (no bank cycles).
// Tensor-core fragment loads and stores go where their addresses are (shared memory's banks or
// the L1), at the one address a lane names (ldmatrix's row) or its first element (wmma).
// tex, tld4 and suld are loads and sust a store (isa::Instruction::is_load/is_store): each lane
// sends the address of the first texel it reads or writes (func::tex; with linear filtering the
// other texels of the footprint are not sent), through the L1 like any global access. There is no
// separate texture cache; the functional result never bypasses the memory system.
bool is_copy(const WarpInstr& w) {
  return w.in->op == isa::Opcode::CpAsync && w.in->async.op == isa::AsyncOp::Copy;
}
// cp.async.mbarrier.arrive whose arrive-ons wait for the warp's copies (func mbarrier_ops.cpp).
bool defers_arrival(const WarpInstr& w) {
  return w.in->op == isa::Opcode::CpAsync && w.in->async.op == isa::AsyncOp::CopyArrive &&
         w.result.tx_mbar >= 0;
}
// cp.async.bulk, its prefetch.L2 and cp.reduce.async.bulk (func bulk_copy_ops.cpp): the lines go
// out (written, for a copy or reduction to global memory) and the warp does not wait for them;
// the copy completed functionally.
bool is_bulk(const WarpInstr& w) {
  return w.in->op == isa::Opcode::CpReduce ||
         (w.in->op == isa::Opcode::CpAsync && (w.in->async.op == isa::AsyncOp::BulkCopy ||
                                               w.in->async.op == isa::AsyncOp::BulkPrefetch));
}
// A cp.async.bulk or cp.reduce.async.bulk completing in a bulk group (WarpSlot::bulk).
bool in_bulk_group(const WarpInstr& w) {
  return (w.in->op == isa::Opcode::CpAsync || w.in->op == isa::Opcode::CpReduce) &&
         w.in->async.bulk_group;
}
bool writes_lines(const WarpInstr& w) {
  return w.in->is_store() || (is_bulk(w) && w.in->async.bulk_dst == isa::Space::Global);
}

// Loads, stores, atomics, tensor fragment accesses and asynchronous copies: the LD/ST path's
// instructions (whatever space they name).
bool is_memory_instruction(const WarpInstr& w) {
  return w.in->is_memory() || w.in->is_matrix_access() || w.in->op == isa::Opcode::CpAsync ||
         w.in->op == isa::Opcode::CpReduce;
}

bool uses_memory_system(const WarpInstr& w) {
  return is_memory_instruction(w) &&
         (w.result.space == isa::Space::Global || w.result.space == isa::Space::Local ||
          w.result.space == isa::Space::Shared);
}
// A load of the constant or parameter space (ld.const, ld.param; generic loads that resolve to
// them) by at least one lane; parameters not when they are operands (CoreSpec::param_operands).
bool reads_constants(const WarpInstr& w, bool param_operands) {
  return w.in->is_memory() && !w.in->is_store() && !w.in->is_atomic() && w.result.accessed &&
         (w.result.space == isa::Space::Const ||
          (w.result.space == isa::Space::Param && !param_operands));
}
}  // namespace

MemoryStage::MemoryStage(sc_core::sc_module_name name, CoreContext& core)
    : Stage(name, core, true, true, true),
      dcache("dcache", core.wake, core.clock),
      m_sector_bytes(core.spec.coalescing != "sector" ? 0
                     : core.spec.l1d.sectored()
                         ? core.spec.l1d.sector_bytes
                         : std::min<uint32_t>(32, core.spec.l1d.line_bytes)) {
  m_inputs.push_back(in.get());
  for (uint32_t b = 1; b < core.blocks(); ++b) {
    m_more_in.push_back(make_input(("in" + std::to_string(b)).c_str()));
    m_inputs.push_back(m_more_in.back().get());
  }
  m_passed_in.assign(m_inputs.size(), kNever);
  if (core.spec.constant_cache())
    m_constants = std::make_unique<ConstantCache>(core.spec.l1c, core.spec.l1c_miss_latency);
  if (m_constants && core.spec.l1c_misses == "icache")
    m_constant_port = std::make_unique<mem::InitiatorEnd>("constants", core.wake, core.clock);
}

bool MemoryStage::reaches_peer(const WarpInstr& w) const {
  if (w.result.space != isa::Space::Shared) return false;
  const func::CtaState& cta = *m_core.ctas[m_core.warps[w.slot].cta_slot].state;
  if (!cta.cluster) return false;  // no peers: the common case costs no look at the lanes
  const uint32_t own = cta.cluster_rank + 1;
  bool peer = false;
  for_each_lane(w.result.accessed, [&](unsigned lane) {
    const uint64_t r = w.result.addr[lane] >> func::kClusterRankShift;
    peer |= r != 0 && r != own;
  });
  return peer;
}

uint64_t MemoryStage::timing_address(const WarpInstr& w, unsigned lane) const {
  const uint64_t a = w.result.addr[lane];
  if (w.result.space != isa::Space::Local) return a;
  const WarpSlot& slot = m_core.warps[w.slot];
  const uint64_t threads = m_core.ctas[slot.cta_slot].state->nthreads;
  const uint64_t tid = w.group.tid(lane);
  const uint64_t cta = uint64_t{m_core.id} * m_core.spec.max_ctas + slot.cta_slot;
  return func::local_timing_address(cta, a, threads, tid);
}

void MemoryStage::receive(Cycle now) {
  while (dcache.has_response()) {
    tlm::tlm_generic_payload& p = dcache.front_response();
    dcache.pop_response();
    if (!m_copy_lines.empty()) {
      const auto c = m_copy_lines.find(&p);
      if (c != m_copy_lines.end() && c->second.bulk >= 0) {
        line_back(c->second.bulk);
        m_copy_lines.erase(c);
        p.release();
        continue;
      }
      if (c != m_copy_lines.end()) {
        WarpSlot& slot = m_core.warps[c->second.slot];
        if (slot.age == c->second.age &&
            (c->second.bulk_group ? slot.bulk->writes : slot.copies).line_returned(c->second.group))
          copies_moved(c->second.slot);
        m_copy_lines.erase(c);
        p.release();
        continue;
      }
    }
    if (auto* w = static_cast<WarpInstr*>(mem::MemExtension::of(p).owner)) line_answered(*w, now);
    p.release();
  }
  if (m_constant_port) receive_constants(now);
}

void MemoryStage::line_answered(WarpInstr& w, Cycle now) {
  if (--w.lines_pending == 0 && w.parked) {
    w.parked = false;
    --m_parked;
    --m_core.warps[w.slot].waiting_memory;
    push_done(now, &w);
  }
}

// A constant line is back: it is in the constant cache from now on, and every instruction that
// waited for it has one line fewer to wait for.
void MemoryStage::receive_constants(Cycle now) {
  while (m_constant_port->has_response()) {
    tlm::tlm_generic_payload& p = m_constant_port->front_response();
    m_constant_port->pop_response();
    const uint64_t address = p.get_address();
    p.release();
    m_constants->fill(address);
    const auto it = m_constant_waiters.find(address);
    if (it == m_constant_waiters.end()) continue;
    const std::vector<WarpInstr*> waiting = std::move(it->second);
    m_constant_waiters.erase(it);
    for (WarpInstr* w : waiting) line_answered(*w, now);
  }
}

// The constant cache answers as ConstantCache::access says. With a constant port, each missing
// line is read once through it (an instruction that misses a line already on its way joins its
// waiters), and the instruction is set aside until its last line is back.
void MemoryStage::start_constants(WarpInstr& w, Cycle now) {
  m_missed.clear();
  const uint32_t hits =
      m_constants->access(w.result.addr, w.result.accessed, w.result.space == isa::Space::Param,
                          m_constant_port ? &m_missed : nullptr);
  m_ready_at = now + hits;
  m_busy_until = m_core.spec.pipelined_shared
                     ? now + std::max<uint32_t>(m_constants->last_requests(), 1) - 1
                     : m_ready_at;
  const uint32_t bytes = m_core.spec.l1c.line_bytes;
  for (uint64_t line : m_missed) {
    std::vector<WarpInstr*>& waiters = m_constant_waiters[line];
    if (waiters.empty()) m_lines.push_back({line, bytes, 0});
    waiters.push_back(&w);
    ++w.lines_pending;
  }
  m_waits = !m_missed.empty();
  m_constant_lines = !m_lines.empty();
}

void MemoryStage::start(WarpInstr& w, Cycle now) {
  m_active = &w;
  m_lines.clear();
  m_next_line = 0;
  m_busy_until = m_ready_at = now;
  m_waits = false;
  m_constant_lines = false;
  if (defers_arrival(w)) {
    const WarpSlot& slot = m_core.warps[w.slot];
    m_arrivals.push_back({w.slot, slot.age, slot.cta_slot, m_core.ctas[slot.cta_slot].state.get(),
                          static_cast<uint64_t>(w.result.tx_mbar), w.result.tx_bytes,
                          w.copy_group});
    deliver_arrivals();
  }
  const bool pipelined = m_core.spec.pipelined_shared;
  if (m_constants && reads_constants(w, m_core.spec.param_operands)) {
    start_constants(w, now);
    return;
  }
  if (!uses_memory_system(w) || !w.result.accessed) {
    m_ready_at = m_busy_until = now + m_core.spec.memory_cycles;
    return;
  }
  const bool scratchpad = w.result.space == isa::Space::Shared ||
                          (w.result.space == isa::Space::Local && m_core.local_scratchpad);
  if (scratchpad) {
    func::ExecResult banked =
        w.result;  // private memory is interleaved across banks like the cached layout
    if (w.result.space == isa::Space::Local)
      for_each_lane(w.result.accessed,
                    [&](unsigned lane) { banked.addr[lane] = timing_address(w, lane); });
    const uint32_t c = shared_access_cycles(banked, w.result.accessed, m_core.spec.shared_banks);
    m_core.counters.simt.shared_bank_conflict_cycles += c - 1;
    m_core.counters.simt.shared_accesses += popcount(w.result.accessed);
    m_ready_at = now + c - 1 + m_core.spec.shared_latency +
                 (reaches_peer(w) ? m_core.spec.cluster_shared_latency : 0);
    m_busy_until = pipelined ? now + c - 1 : m_ready_at;
    return;
  }
  for_each_lane(w.result.accessed,
                [&](unsigned lane) { m_addresses[lane] = timing_address(w, lane); });
  coalesce(w.result, w.result.accessed, m_core.spec.l1d.line_bytes, m_addresses, m_lines,
           m_sector_bytes);
  if (is_bulk(w) && w.result.tx_mbar >= 0) {
    const WarpSlot& slot = m_core.warps[w.slot];
    m_active_bulk = m_next_bulk++;
    m_bulk[m_active_bulk] = {w.slot, slot.cta_slot, m_core.ctas[slot.cta_slot].state.get(),
                             static_cast<uint64_t>(w.result.tx_mbar), w.result.tx_bytes};
  }
  m_waits = !is_copy(w) && !is_bulk(w) &&
            (!(w.in->is_store() || w.in->is_matrix_store()) || m_core.spec.wait_for_stores);
  m_core.counters.simt.line_requests += m_lines.size();
  if (m_sector_bytes)
    for (const LineRequest& l : m_lines)
      m_core.counters.simt.sector_requests += popcount32(l.sectors);
  if (m_lines.size() == 1) {
    ++m_core.counters.simt.coalesced_memory_instructions;
  } else {
    ++m_core.counters.simt.uncoalesced_memory_instructions;
    m_core.counters.simt.uncoalesced_line_requests += m_lines.size();
  }
}

void MemoryStage::finish_active(Cycle now) {
  WarpInstr* w = m_active;
  m_active = nullptr;
  if (is_copy(*w) && m_core.warps[w->slot].copies.copy_sent(w->copy_group)) copies_moved(w->slot);
  if (in_bulk_group(*w)) {  // read now; written when its lines are back
    WarpSlot& slot = m_core.warps[w->slot];
    const bool read = slot.bulk->reads.copy_sent(w->copy_group),
               written = slot.bulk->writes.copy_sent(w->copy_group);
    if (read || written) copies_moved(w->slot);
  }
  if (m_active_bulk >= 0) {  // every line sent: the transaction completes with the last one back
    m_bulk[m_active_bulk].sent = true;
    ++m_bulk[m_active_bulk].lines;
    line_back(std::exchange(m_active_bulk, -1));
  }
  if (m_waits && w->lines_pending > 0) {  // set aside until its lines return
    w->parked = true;
    ++m_parked;
    WarpSlot& slot = m_core.warps[w->slot];
    if (slot.waiting_memory++ == 0) slot.waiting_since = now;
    return;
  }
  push_done(std::max({now, m_busy_until, m_ready_at}), w);
}

void MemoryStage::push_done(Cycle at, WarpInstr* w) {
  auto it = m_done.end();
  if (m_core.spec.pipelined_shared)
    while (it != m_done.begin() && std::prev(it)->at > at) --it;
  m_done.insert(it, {at, w});
}

// One line of a bulk copy's transaction is back (or, counted once more, all were sent): the last
// one completes the transaction.
void MemoryStage::line_back(int64_t bulk) {
  const auto it = m_bulk.find(bulk);
  if (it == m_bulk.end() || --it->second.lines > 0 || !it->second.sent) return;
  complete_tx(it->second);
  m_bulk.erase(it);
}

// complete-tx on the mbarrier object (PTX ISA 9.7.13.15.12), at its shared address as the copying
// CTA sees it (its own shared memory or a cluster peer's) if the CTA is still the one that copied;
// the warps polling it see the phase complete at their next try.
void MemoryStage::complete_tx(const BulkTx& t) {
  const CtaSlot& cta = m_core.ctas[t.cta_slot];
  if (!cta.valid || cta.state.get() != t.cta) return;
  uint8_t* p = cta.state->shared_at(t.mbar, 8);
  if (!p) return;
  func::mbarrier::update_at(
      p, [&](func::mbarrier::Fields& f) { func::mbarrier::complete_tx(f, t.bytes); });
  copies_moved(t.warp_slot);
}

// A copy group completed: the warp's wait_group may issue (fetch re-checks touched warps; the core
// runs the next cycle for it).
void MemoryStage::copies_moved(uint32_t slot) {
  m_core.touch(slot);
  m_copies_moved = true;
  if (!m_arrivals.empty()) deliver_arrivals();
}

// The deferred arrive-ons of cp.async.mbarrier.arrive whose warp's copies up to its group are
// complete (9.7.9.25.3: "triggered ... after the completion of all prior cp.async operations"):
// each lowers the pending count of its object, which may complete the phase; those of a warp or
// CTA that has gone are dropped.
void MemoryStage::deliver_arrivals() {
  for (size_t i = 0; i < m_arrivals.size();) {
    const Arrival& a = m_arrivals[i];
    const WarpSlot& w = m_core.warps[a.warp_slot];
    const CtaSlot& cta = m_core.ctas[a.cta_slot];
    const bool gone = w.age != a.age || !cta.valid || cta.state.get() != a.cta;
    if (!gone && !w.copies.complete_through(a.group)) {
      ++i;
      continue;
    }
    if (uint8_t* p = gone ? nullptr : cta.state->shared_at(a.mbar, 8))
      func::mbarrier::update_at(
          p, [&](func::mbarrier::Fields& f) { func::mbarrier::arrive(f, a.count); });
    m_arrivals.erase(m_arrivals.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

Cycle MemoryStage::cycle(Cycle now) {
  m_copies_moved = false;
  receive(now);
  // The active instruction is done once every line is sent (the last one this cycle at the latest)
  // and its fixed delay has passed; it leaves before the next one enters, so one can enter a cycle.
  auto try_finish = [&] {
    if (m_active && m_next_line == m_lines.size() &&
        m_busy_until <= now + (m_lines.empty() ? 0 : 1))
      finish_active(now);
  };
  try_finish();
  bool refused = false;  // a block's instruction waits at its input for the next cycle
  if (m_inputs.size() > 1) {
    refused = take_from_blocks(now);
  } else if (!m_active && in->peek() && m_last_start != now) {  // one instruction enters a cycle
    start(*in->take(), now);
    m_last_start = now;
  }
  if (m_active && m_next_line < m_lines.size() && m_last_send != now && port().can_send())
    send_line(now);
  try_finish();
  while (!m_done.empty() && m_done.front().at <= now && out->can_send()) {
    out->send(*m_done.front().instr);
    m_done.pop_front();
  }
  show(m_parked + (m_active ? 1 : 0) + m_done.size(), m_active);
  Cycle next = kNever;
  if (m_active && !(m_next_line < m_lines.size() && !port().can_send()))
    next = std::max(now + 1, m_busy_until);
  if (!m_done.empty() && out->can_send())
    next = std::min(next, std::max(now + 1, m_done.front().at));
  if ((!m_active && input_waiting()) || m_copies_moved || refused) next = std::min(next, now + 1);
  return next;  // otherwise woken by a response, an END_REQ or a new instruction
}

// Processing blocks: each block's link brings one instruction a cycle. One that is not a memory
// instruction passes in memory_cycles beside the LD/ST path without using it (each block has its
// own path to its register file), so the blocks' other instructions are not held to one a cycle
// SM-wide; memory instructions share the SM's one path: one enters when it is free, one a cycle,
// the first waiting in round-robin order from the block after the one that entered last (they
// queue at their blocks' links meanwhile). Returns whether an instruction waits that the next
// cycle may take without anything else waking the stage.
bool MemoryStage::input_waiting() const {
  for (const StageIn* i : m_inputs)
    if (i->peek()) return true;
  return false;
}

bool MemoryStage::take_from_blocks(Cycle now) {
  bool refused = false;
  const size_t n = m_inputs.size(), first = m_next_block;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (first + k) % n;
    WarpInstr* w = m_inputs[i]->peek();
    if (!w) continue;
    if (!is_memory_instruction(*w)) {
      if (m_passed_in[i] == now) {
        refused = true;
        continue;
      }
      push_done(now + m_core.spec.memory_cycles, m_inputs[i]->take());
      m_passed_in[i] = now;
    } else if (!m_active && m_last_start != now) {
      start(*m_inputs[i]->take(), now);
      m_last_start = now;
      m_next_block = (i + 1) % n;
    } else {
      refused |= !m_active;  // the path is free next cycle; a busy one wakes the stage itself
    }
  }
  return refused;
}

tlm::tlm_generic_payload& MemoryStage::request(uint64_t address, uint32_t bytes,
                                               mem::AccessKind kind) {
  tlm::tlm_generic_payload& p = m_pool.make(address, bytes, kind, m_core.clock.time());
  mem::MemExtension& e = mem::MemExtension::of(p);
  e.core = m_core.id;
  e.warp = m_active->slot;
  e.lanes = m_active->result.accessed;
  e.pc = m_active->pc;
  return p;
}

void MemoryStage::send_line(Cycle now) {
  const LineRequest& l = m_lines[m_next_line++];
  if (m_constant_lines) {  // read for the constant cache; its waiters are m_constant_waiters'
    tlm::tlm_generic_payload& p = request(l.line_address, l.bytes, mem::AccessKind::Load);
    m_last_send = now;
    m_busy_until = std::max(m_busy_until, now + 1);
    m_constant_port->send(p);
    return;
  }
  const mem::AccessKind kind = m_active->in->is_atomic() ? mem::AccessKind::Atomic
                               : writes_lines(*m_active) ? mem::AccessKind::Store
                                                         : mem::AccessKind::Load;
  // A load asks for the whole line, or by sectors for the sectors it touches.
  const uint32_t load_bytes =
      m_sector_bytes ? popcount32(l.sectors) * m_sector_bytes : m_core.spec.l1d.line_bytes;
  tlm::tlm_generic_payload& p =
      request(l.line_address, kind == mem::AccessKind::Load ? load_bytes : l.bytes, kind);
  mem::MemExtension& e = mem::MemExtension::of(p);
  e.sectors = l.sectors;
  e.cache_global = kind == mem::AccessKind::Load && m_active->in->cache_op == isa::CacheOp::Cg;
  e.row_hint = m_active->in->has(isa::kRowHint);  // ld.global.rowhint (dissertation section 7.2)
  if (m_waits) {
    e.owner = m_active;
    ++m_active->lines_pending;
  } else if (is_copy(*m_active)) {
    m_copy_lines[&p] = {m_active->slot, m_core.warps[m_active->slot].age, m_active->copy_group};
    m_core.warps[m_active->slot].copies.line_sent(m_active->copy_group);
  } else if (m_active_bulk >= 0) {
    m_copy_lines[&p] = {m_active->slot, 0, 0, m_active_bulk};
    ++m_bulk[m_active_bulk].lines;
  } else if (in_bulk_group(*m_active)) {
    WarpSlot& slot = m_core.warps[m_active->slot];
    m_copy_lines[&p] = {m_active->slot, slot.age, m_active->copy_group, -1, true};
    slot.bulk->writes.line_sent(m_active->copy_group);
  }
  m_last_send = now;
  m_busy_until = now + 1;
  dcache.send(p);
}

}  // namespace gputlm::sm
