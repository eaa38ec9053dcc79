#include "models/sm/fetch/fetch_stage.h"

#include "models/func/simt_control.h"

namespace gputlm::sm {

namespace {
// Instructions whose outcome decides the warp's next fetch (scoreboard mode waits for them).
bool decides_next_pc(const isa::Instruction& in, const WarpSlot& w, uint32_t pc) {
  if (in.decides_control()) return true;
  return !w.stack.done() && w.stack.entries().back().rpc == pc + 1;  // a reconvergence pop follows
}
// cp.async.wait_group N / wait_all (PTX ISA 9.7.9.25.5) issue once the warp's copy groups allow
// (memory/copy_groups.h): all but the N most recent committed groups complete, or all of them.
bool waits_for_copies(const isa::Instruction& in, const CopyGroups& copies) {
  if (in.op != isa::Opcode::CpAsync) return false;
  if (in.async.op == isa::AsyncOp::BulkWait) return false;
  if (in.async.op == isa::AsyncOp::WaitGroup)
    return !copies.may_wait_group(static_cast<uint64_t>(in.ops[0].imm));
  return in.async.op == isa::AsyncOp::WaitAll && !copies.all_complete();
}
// cp.async.bulk.wait_group{.read} N issues once all but the N most recent committed bulk groups
// have been read (.read) or written.
bool waits_for_bulk(const isa::Instruction& in, const WarpSlot& w) {
  if (in.op != isa::Opcode::CpAsync || in.async.op != isa::AsyncOp::BulkWait) return false;
  return !(in.async.read ? w.bulk->reads : w.bulk->writes)
              .may_wait_group(static_cast<uint64_t>(in.ops[0].imm));
}
// Scoreboard: an instruction may be fetched once no older in-flight instruction of its warp writes
// a register it reads or writes (RAW and WAW; in-order issue makes WAR impossible).
bool scoreboard_allows(const isa::InstructionRegisters& regs, const WarpSlot& w) {
  for (int32_t r : regs.uses)
    if (w.register_pending(r)) return false;
  for (int32_t r : regs.defs)
    if (w.register_pending(r)) return false;
  return true;
}
}  // namespace

FetchStage::FetchStage(sc_core::sc_module_name name, CoreContext& core)
    : Stage(name, core, false, true, true),
      icache("icache", core.wake, core.clock),
      m_icache_wait(core.warps.size(), false),
      m_icache_sent(core.warps.size(), 0),
      m_candidates(static_cast<uint32_t>(core.warps.size())),
      m_waiting(static_cast<uint32_t>(core.warps.size())),
      m_eligible(static_cast<uint32_t>(core.warps.size())) {
  const uint32_t blocks = core.blocks();
  m_blocks.resize(blocks);
  m_blocks[0].out = out.get();
  for (uint32_t b = 1; b < blocks; ++b) {
    m_more_outs.push_back(make_output(("out" + std::to_string(b)).c_str()));
    m_blocks[b].out = m_more_outs.back().get();
  }
  if (blocks == 1) return;
  m_block_slots.assign(blocks, SlotSet(static_cast<uint32_t>(core.warps.size())));
  for (uint32_t s = 0; s < core.warps.size(); ++s) m_block_slots[s % blocks].insert(s);
}

uint64_t FetchStage::line_of(const func::BoundKernel& kernel, uint32_t pc) const {
  return (kernel.code_address() + uint64_t{pc} * m_core.spec.instruction_bytes) /
         m_core.spec.icache.line_bytes;
}

bool FetchStage::candidate(uint32_t slot) const {
  const WarpSlot& w = m_core.warps[slot];
  if (w.status != WarpSlot::Status::Ready || w.stack.done()) return false;
  if (w.copies.any_pending() &&
      waits_for_copies(m_core.ctas[w.cta_slot].kernel->kernel().code[w.stack.pc()], w.copies))
    return false;
  if (w.bulk && w.bulk->writes.any_pending() &&
      waits_for_bulk(m_core.ctas[w.cta_slot].kernel->kernel().code[w.stack.pc()], w))
    return false;
  if (!m_core.scoreboard) return m_core.formation->may_fetch(slot, w);
  // A warp is a candidate only when its next instruction passes the scoreboard, so that a
  // scheduler's pick can issue (GPGPU-Sim's scheduler checks the scoreboard the same way).
  return w.inflight < m_core.spec.max_inflight_per_warp && !w.control_pending &&
         scoreboard_allows(m_core.kernel_of(w).registers(w.stack.pc()), w);
}

bool FetchStage::eligible(uint32_t slot, Cycle now) const {
  return candidate(slot) && m_core.warps[slot].eligible_from <= now;
}

void FetchStage::recheck(uint32_t slot, Cycle now) {
  if (candidate(slot) && !m_icache_wait[slot]) {
    m_candidates.insert(slot);
    if (m_core.warps[slot].eligible_from > now)
      m_waiting.insert(slot);
    else
      m_waiting.erase(slot);
  } else {
    m_candidates.erase(slot);
    m_waiting.erase(slot);
  }
}

bool FetchStage::any_held() const {
  for (const Block& b : m_blocks)
    if (b.held) return true;
  return false;
}

bool FetchStage::fetched_this_cycle() const {
  for (const Block& b : m_blocks)
    if (b.slot_used && b.fetched) return true;
  return false;
}

void FetchStage::send_held(Block& b, Cycle now) {
  if (b.held && b.ready <= now && b.out->can_send()) {
    b.out->send(*b.held);
    b.held = nullptr;
  }
}

// A block holding an instruction its decode stage has not taken stalls on back-pressure (with
// several blocks: any of them).
core::StallCause FetchStage::stall_cause() const {
  if (any_held()) return core::StallCause::Backpressure;
  bool any = false, barrier = false, icache = false;
  for (size_t s = 0; s < m_core.warps.size(); ++s) {
    const WarpSlot& w = m_core.warps[s];
    if (!w.active()) continue;
    if (w.waiting_memory)
      return core::StallCause::Memory;  // the first cause in order of precedence
    any = true;
    barrier |= w.status == WarpSlot::Status::Barrier;
    icache |= m_icache_wait[s];
  }
  if (!any) return core::StallCause::Idle;
  if (icache) return core::StallCause::ICache;
  if (barrier) return core::StallCause::Barrier;
  return core::StallCause::Pipeline;
}

Cycle FetchStage::cycle(Cycle now) {
  if (m_cycle != now) {
    m_cycle = now;
    for (Block& b : m_blocks) {
      b.slot_used = false;
      b.completed = kNoSlot;
    }
  }
  while (icache.has_response()) {  // the line arrived: the warp's fetch completes now
    tlm::tlm_generic_payload& p = icache.front_response();
    icache.pop_response();
    line_arrived(mem::MemExtension::of(p).warp, p.get_address() / m_core.spec.icache.line_bytes);
    p.release();
  }
  while (!m_idle_hits.empty() &&
         m_idle_hits.front().from <= now) {  // after the link's: see fetch()
    line_arrived(m_idle_hits.front().slot, m_idle_hits.front().line);
    m_idle_hits.pop_front();
  }
  for (Block& b : m_blocks) send_held(b, now);
  complete_arrivals(now);
  // One fetch decision a cycle per block: nothing that runs later in the cycle makes a warp
  // eligible before the next one (writeback and barriers set eligible_from to the next cycle at the
  // earliest).
  Cycle soonest =
      kNever;  // the earliest cycle a warp that is only waiting for time becomes eligible
  for (uint32_t b = 0; b < m_blocks.size(); ++b) decide(b, now, soonest);
  const WarpInstr* head = nullptr;
  uint64_t held = 0;
  for (const Block& b : m_blocks)
    if (b.held) held++, head = head ? head : b.held;
  show(held, head);
  // A line the idle I-cache served comes without a wake-up from the link: run when it is seen.
  const Cycle line_due = m_idle_hits.empty() ? kNever : m_idle_hits.front().from;
  Cycle next = line_due;
  bool again = false;  // a free block fetched: it decides again next cycle
  for (const Block& b : m_blocks) {
    if (b.held)
      next = std::min(next, b.ready > now ? b.ready : kNever);
    else
      again |= b.fetched && b.slot_used;
  }
  if (held == m_blocks.size()) return next;
  if (again || !m_arrived.empty() || m_forming != kNoSlot) return now + 1;
  // Warps changed after this cycle's decision (a CTA started by a run later in the cycle): the
  // next cycle's scan looks at them (polled or not, the same cycle).
  if (!m_core.touched.empty()) return now + 1;
  return std::min(soonest, next);
}

// A fetch that had to go to the I-cache finishes when its line has arrived and its block's fetch
// register is free (an I-cache hit thus costs no more than an instruction-buffer hit); it does not
// use this cycle's fetch slot. A warp no longer eligible goes back to the scan.
void FetchStage::complete_arrivals(Cycle now) {
  uint32_t done = 0;  // blocks that completed one in this run
  for (size_t i = 0; i < m_arrived.size() && m_forming == kNoSlot;) {
    const uint32_t slot = m_arrived[i];
    const uint32_t b = slot % static_cast<uint32_t>(m_blocks.size());
    Block& k = m_blocks[b];
    if (k.held || ((done >> b) & 1)) {
      ++i;
      continue;
    }
    m_arrived.erase(m_arrived.begin() + static_cast<std::ptrdiff_t>(i));
    m_icache_wait[slot] = false;
    recheck(slot, now);
    if (!eligible(slot, now)) continue;  // back in the scan
    fetch(slot, m_icache_sent[slot]);
    k.completed = slot;
    k.ready = std::max(k.ready, now);
    send_held(k, now);
    done |= 1u << b;  // the link to decode takes one instruction a cycle
  }
}

void FetchStage::decide(uint32_t b, Cycle now, Cycle& soonest) {
  Block& k = m_blocks[b];
  if (k.held || k.slot_used) return;
  k.slot_used = true;
  if (m_forming != kNoSlot) {  // the next sub-warp of the instruction fetched (one block only)
    k.fetched = fetch(m_forming, now);
    return;
  }
  for (uint32_t s : m_core.touched) recheck(s, now);
  m_core.touched.clear();
  m_waiting.for_each([&](uint32_t s) {  // candidates waiting for time: has it come?
    const Cycle from = m_core.warps[s].eligible_from;
    if (from <= now)
      m_waiting.erase(s);
    else
      soonest = std::min(soonest, from);
  });
  std::vector<uint64_t>& eligible = m_eligible.words();
  for (size_t i = 0; i < eligible.size(); ++i)
    eligible[i] = m_candidates.words()[i] & ~m_waiting.words()[i] &
                  (m_block_slots.empty() ? ~uint64_t{0} : m_block_slots[b].words()[i]);
  // A slot whose fetch its line's arrival completed this cycle (a block may have more warps to
  // fetch) waits for the next: the scan may have run before the line arrived or after, by the
  // order of processes, and the outcome must not depend on it.
  if (k.completed != kNoSlot && m_eligible.contains(k.completed)) {
    m_eligible.erase(k.completed);
    soonest = std::min(soonest, now + 1);
  }
  k.fetched = !m_eligible.empty();
  if (!k.fetched) return;
  IWarpScheduler& scheduler = *m_core.schedulers[b];
  fetch(scheduler.pick(m_eligible, m_candidates, m_core.warps, now), now);
  if (b == 0) m_core.prioritized_group = scheduler.prioritized_group();
}

// Every cycle of a launch is charged either as a fetch cycle or, without a fetch, to why nothing
// could be fetched; the cycles the core slept through go to the cause it went to sleep with
// (nothing in the core changes while it sleeps). The core may run more than once in a cycle
// (woken by a cache): the cycle's charge is then redone. With processing blocks a fetch cycle is a
// cycle in which at least one block picked a warp; a cycle in which none did is a stall.
void FetchStage::end_cycle(Cycle now, Cycle next) {
  if (!m_accounting) return;
  if (m_charged == now)
    uncharge();
  else
    charge_gap(now);
  const bool fetched = fetched_this_cycle();
  m_charged = now;
  m_charged_fetch = fetched;
  m_from = now + 1;
  if (fetched) ++m_core.counters.simt.fetch_cycles;
  if (fetched && next == now + 1) return;  // no cycle slept through before the next run
  m_sleep_cause = stall_cause();
  m_charged_cause = m_sleep_cause;
  if (!fetched) ++m_core.counters.simt.stall_cycles[static_cast<size_t>(m_charged_cause)];
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
  if (until > m_from)
    m_core.counters.simt.stall_cycles[static_cast<size_t>(m_sleep_cause)] += until - m_from;
}

void FetchStage::uncharge() {
  if (m_charged_fetch)
    --m_core.counters.simt.fetch_cycles;
  else
    --m_core.counters.simt.stall_cycles[static_cast<size_t>(m_charged_cause)];
  m_charged = kNever;
}

bool FetchStage::fetch(uint32_t slot, Cycle now) {
  WarpSlot& w = m_core.warps[slot];
  CtaSlot& cta = m_core.ctas[w.cta_slot];
  const isa::Kernel& k = cta.kernel->kernel();
  // (The next sub-warp of an instruction fetched already comes from the line in the buffer.)
  const bool next_subwarp = m_forming == slot;
  const std::optional<IssueUnit> u = m_core.formation->next(slot, w, FormationInput{k, *cta.state});
  const uint64_t line = line_of(*cta.kernel, u->pc);
  if (line != w.ibuffer_line) {  // instruction buffer miss: ask the I-cache, fetch others meanwhile
    // One request a cycle over the link, served there or here (`now` is the cycle a completing
    // fetch started in, not always this one).
    const Cycle cycle = m_core.clock.now();
    if (!icache.can_send() || m_idle_hit_sent == cycle) return true;
    const sc_core::sc_time sent = m_core.clock.time();
    if (std::optional<sc_core::sc_time> answer =
            m_l1i ? m_l1i->take_idle_hit(line * m_core.spec.icache.line_bytes, sent)
                  : std::nullopt) {
      // Seen from the first edge after the answer, as InitiatorEnd shows a response; after any
      // response already on the link (the cache was idle: they were all sent before).
      m_idle_hits.push_back({m_core.clock.cycle_at(m_core.clock.edge_after(*answer)), slot, line});
      m_idle_hit_sent = cycle;
      ++m_idle_hit_count;
    } else {
      tlm::tlm_generic_payload& p =
          m_pool.make(line * m_core.spec.icache.line_bytes, m_core.spec.icache.line_bytes,
                      mem::AccessKind::Fetch, sent);
      mem::MemExtension::of(p).core = m_core.id;
      mem::MemExtension::of(p).warp = slot;
      mem::MemExtension::of(p).pc = u->pc;
      icache.send(p);
    }
    m_icache_wait[slot] = true;
    m_icache_sent[slot] = now;
    recheck(slot, now);
    return true;
  }
  m_core.formation->issued(slot, w, *u);
  m_forming = m_core.formation->forming(slot) ? slot : kNoSlot;
  if (m_core.warp_changed) show_unit(*u);
  if (u->group.tids)
    ++(u->bubble ? m_core.counters.simt.subwarp_bubble_cycles : m_core.counters.simt.subwarps);
  if (u->bubble) {  // the unit's threads are still busy: nothing issues this cycle
    m_core.counters.thread_instructions += u->threads;  // threads whose guard failed, if any
    recheck(slot, now);
    return false;
  }
  WarpInstr& wi = m_core.new_instr();
  wi.slot = slot;
  wi.pc = u->pc;
  wi.lanes = u->lanes;
  wi.threads = u->threads;
  wi.tag = u->tag;
  wi.group = u->group;
  if (u->group.tids) {  // a formed sub-warp: its lane -> thread map travels with it
    for_each_lane(u->lanes, [&](unsigned lane) { wi.tids[lane] = u->group.tids[lane]; });
    wi.group.tids = wi.tids.data();
  }
  wi.in = &k.code[u->pc];
  wi.cls = cta.kernel->instr_class(u->pc);
  wi.fetched = now;
  if (wi.in->op == isa::Opcode::CpAsync) {  // copies join the open group; the instruction's first
                                            // sub-warp commits it
    if (wi.in->async.op == isa::AsyncOp::Copy)
      wi.copy_group = w.copies.add_copy();
    else if ((wi.in->async.op == isa::AsyncOp::CommitGroup ||
              wi.in->async.op == isa::AsyncOp::WaitAll) &&
             !next_subwarp)
      w.copies.commit();
    else if (wi.in->async.op == isa::AsyncOp::CopyArrive)
      wi.copy_group = w.copies.open_group();  // it waits for these
    else if (wi.in->async.op == isa::AsyncOp::BulkCommit && !next_subwarp && w.bulk)
      w.bulk->reads.commit(), w.bulk->writes.commit();
  }
  if ((wi.in->op == isa::Opcode::CpAsync || wi.in->op == isa::Opcode::CpReduce) &&
      wi.in->async.bulk_group) {
    if (!w.bulk) w.bulk = std::make_unique<WarpSlot::BulkGroups>();
    wi.copy_group = w.bulk->reads.add_copy();  // the same group number in both
    w.bulk->writes.add_copy();
  }
  ++w.inflight;
  if (m_core.scoreboard)  // until it retires
    for (int32_t r : cta.kernel->registers(u->pc).defs) w.set_register_pending(r, true);
  if (wi.in->is_exit()) ++m_core.ending;
  if (decides_next_pc(*wi.in, w, u->pc))
    w.control_pending = true;
  else if (m_core.scoreboard) {  // straight-line code: the next PC is known now
    if (func::InstructionSource* t = m_core.control_source(w))
      m_core.follow_trace(*t, w);
    else {
      w.stack.advance(u->pc + 1);
      func::settle(w.stack, k);  // "its": a path at a join point may wait (simt_control.h)
    }
    wi.pc_advanced = true;
  }
  Block& b = block_of(slot);
  b.held = &wi;
  b.ready = now + m_core.spec.fetch_cycles;
  recheck(slot, now);
  return true;
}

void FetchStage::show_unit(const IssueUnit& u) {
  m_wave_sub_mask = u.bubble ? 0 : u.lanes;
  m_wave_sub_rows = 0;
  if (!u.group.tids || u.bubble) return;
  for_each_lane(u.lanes, [&](unsigned lane) {
    const uint32_t row = (u.group.tids[lane] % m_core.formation->slot_threads()) / kWarpSize;
    m_wave_sub_rows.range(lane * 4 + 3, lane * 4) = row & 15u;
  });
}

void FetchStage::declare_waves(WaveList& waves) const {
  using F = WaveSignal::Format;
  declare_stage_waves(waves, "instructions held, oldest's warp and PC", true);
  const std::string n = name();
  // Traced always, shown when warps are formed into sub-warps.
  waves.group(n + ": sub-warp issued last: lanes, row of each lane (hex digit)", true,
              !m_core.spec.static_warps());
  waves.add(m_wave_sub_mask, n + ".subwarp_mask", 32, F::Hex);
  waves.add(m_wave_sub_rows, n + ".subwarp_rows", 128, F::Hex);
}

}  // namespace gputlm::sm
