#include "models/sm/core.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "models/common/error.h"
#include "models/func/intra_warp_wait.h"

namespace gputlm::sm {

Core::Core(sc_core::sc_module_name name, const CoreSpec& spec, uint32_t core_id,
           double reference_mhz)
    : ClockedModule(name, spec.clock_mhz, reference_mhz), m_ctx(core_id, spec, m_clock, m_wake) {
  m_fetch = std::make_unique<FetchStage>("fetch", m_ctx);
  if (spec.processing_blocks == 1) {
    m_own_block = std::make_unique<BlockStages>(m_ctx);
    m_blocks.push_back(m_own_block.get());
  }
  for (uint32_t b = 0; b < spec.processing_blocks && spec.processing_blocks > 1; ++b) {
    m_block_modules.push_back(
        std::make_unique<ProcessingBlock>(("block" + std::to_string(b)).c_str(), m_ctx));
    m_blocks.push_back(&m_block_modules.back()->stages);
  }
  m_memory = std::make_unique<MemoryStage>("memory", m_ctx);
  m_writeback = std::make_unique<WritebackStage>("writeback", m_ctx);
  mem::CacheSpec icache = spec.icache;
  if (m_memory->constant_port()) icache.ports = 2;  // port 1: the constant cache's misses
  m_l1i = std::make_unique<mem::Cache>("l1i", icache, reference_mhz);
  m_l1d = std::make_unique<mem::Cache>("l1d", spec.l1d, reference_mhz);
  m_carveout = {spec.shared_bytes, spec.l1d.assoc, spec.l1d.size_bytes};
  for (uint32_t b = 0; b < m_blocks.size(); ++b) {
    m_fetch->output(b).socket.bind(m_blocks[b]->decode.in->socket);
    m_blocks[b]->execute.out->socket.bind(m_memory->input(b).socket);
  }
  m_memory->out->socket.bind(m_writeback->in->socket);
  m_fetch->icache.socket.bind(m_l1i->upstream.socket);
  if (spec.fast_icache_hits) m_fetch->take_idle_hits_from(*m_l1i);
  m_memory->dcache.socket.bind(m_l1d->upstream.socket);
  if (mem::InitiatorEnd* constants = m_memory->constant_port())
    constants->socket.bind(m_l1i->port(1).socket);
  m_stages = {m_writeback.get(), m_memory.get()};
  for (BlockStages* b : m_blocks) m_stages.push_back(&b->execute);
  for (BlockStages* b : m_blocks) m_stages.push_back(&b->read);
  for (BlockStages* b : m_blocks) m_stages.push_back(&b->decode);
  m_stages.push_back(m_fetch.get());
  m_stage_due.assign(m_stages.size(), 0);
  // Each stage's poked flag becomes the bit of its place in the running order (none is raised
  // yet, and every stage made is here: each bit handed out is one of these).
  if (m_ctx.poke_bits != m_stages.size())
    throw std::logic_error(std::string(this->name()) + ": a stage outside the running order");
  for (size_t i = 0; i < m_stages.size(); ++i) {
    m_stages[i]->move_poke_bit(uint64_t{1} << i);
    m_stage_news.push_back(m_stages[i]->news_source());
  }
  m_ctx.cta_finished = [this](uint32_t slot) { finish_cta(slot); };
  // The waves' values (kept current only once waves start: prepare_waves).
  m_wave_pc.assign(m_ctx.warps.size(), 0);
  m_wave_mask.assign(m_ctx.warps.size() * m_ctx.formation->rows(), 0);
  m_wave_state.assign(m_ctx.warps.size(), 0);

  core::CoreCounters& c = m_ctx.counters;
  m_stats.counter("warp_instructions", c.warp_instructions, "count", "warp instructions retired");
  m_stats.counter("thread_instructions", c.thread_instructions, "count",
                  "active threads summed over retired warp instructions");
  m_stats.counter("issue_cycles", c.simt.issue_cycles, "cycles",
                  "cycles in which the SIMD back end started an instruction");
  m_stats.histogram("simd_lanes_started", c.simt.simd_histogram, "count",
                    "warp instructions started with k active lanes, k = 0..32 (cycles with none "
                    "are the GPU's idle cycles)");
  m_stats.counter("fetch_cycles", c.simt.fetch_cycles, "cycles",
                  "cycles in which fetch picked a warp (an instruction or an I-cache access)");
  m_stats.histogram("fetch_stall_cycles", c.simt.stall_cycles, "cycles",
                    "cycles fetch took no instruction, by cause", core::stall_cause_names());
  m_stats.counter("ctas_done", c.ctas_done, "count", "CTAs finished");
  m_stats.counter("line_requests", c.simt.line_requests, "count",
                  "global/local line requests sent to the L1");
  if (spec.coalescing == "sector")
    m_stats.counter("sector_requests", c.simt.sector_requests, "count",
                    "32-byte sectors named by the line requests (coalescing by sectors)");
  if (spec.unified()) {  // registered only here: other configurations' statistics stay as they were
    m_stats.maximum(
        "shared_carveout_bytes", m_stat_shared_carveout, "bytes",
        "shared memory capacity the launch's carve-out chose (over the run: the largest)");
    m_stats.maximum(
        "l1d_bytes", m_stat_l1d_bytes, "bytes",
        "L1 data cache capacity the launch's carve-out left (over the run: the largest)");
  }
  if (spec.constant_cache()) {  // registered only here, as the carve-out's
    const ConstantCache& k = *m_memory->constant_cache();
    m_stats.tally(
        "constant_requests", [&k] { return static_cast<double>(k.requests()); }, "count",
        "constant cache requests: one per distinct address of a constant or parameter load");
    m_stats.tally(
        "constant_hits", [&k] { return static_cast<double>(k.hits()); }, "count",
        "constant cache requests whose line was present");
    m_stats.tally(
        "constant_misses", [&k] { return static_cast<double>(k.misses()); }, "count",
        "constant cache requests whose line was absent (each fills it)");
  }
  m_stats.counter("shared_bank_conflict_cycles", c.simt.shared_bank_conflict_cycles, "cycles",
                  "extra shared-memory cycles from bank conflicts");
  m_stats.tally(
      "fetch_group_switches",
      [this] {
        uint64_t n = 0;
        for (const auto& s : m_ctx.schedulers) n += s->group_switches();
        return static_cast<double>(n);
      },
      "count", "two-level scheduling: times the priority moved to the next fetch group");
  m_stats.counter("subwarps", c.simt.subwarps, "count",
                  "large warps: sub-warps formed (warp instructions issued from a large warp)");
  m_stats.counter("subwarp_bubble_cycles", c.simt.subwarp_bubble_cycles, "cycles",
                  "large warps: cycles fetch waited while the sub-warp former found only threads "
                  "busy with the previous instruction");
  m_stats.counter("register_bank_conflict_cycles", c.simt.register_bank_conflict_cycles, "cycles",
                  "extra register-read cycles from bank conflicts");
  m_stats.counter("integer_fma_pipe_instructions", c.simt.integer_fma_pipe_instructions, "count",
                  "int_alu warp instructions that ran on the FMA pipe (core.fma_pipe_integers)");
  m_stats.counter("coalesced_memory_instructions", c.simt.coalesced_memory_instructions, "count",
                  "global and local memory warp instructions whose lanes made one line request "
                  "(MWP/CWP's coalesced)");
  m_stats.counter("uncoalesced_memory_instructions", c.simt.uncoalesced_memory_instructions,
                  "count",
                  "global and local memory warp instructions that made more than one line request");
  m_stats.counter("uncoalesced_line_requests", c.simt.uncoalesced_line_requests, "count",
                  "line requests of the uncoalesced ones");
  m_stats.counter("barrier_instructions", c.simt.barrier_instructions, "count",
                  "warp instructions that were barriers");
  m_stats.counter("register_reads", c.simt.register_reads, "count",
                  "register operands read, each for the whole warp (energy model)");
  m_stats.counter("register_writes", c.simt.register_writes, "count",
                  "register results written, each for the whole warp (energy model)");
  std::vector<std::string> classes;
  for (size_t i = 0; i < isa::kInstrClasses; ++i)
    classes.emplace_back(isa::instr_class_name(static_cast<isa::InstrClass>(i)));
  m_stats.histogram("thread_instructions_by_class", c.simt.class_thread_instructions, "count",
                    "thread instructions retired by instruction class (isa::InstrClass)", classes);
  m_stats.counter("shared_accesses", c.simt.shared_accesses, "count",
                  "shared-memory (and scratchpad private-memory) words accessed: one per active "
                  "lane of an access");
  m_stats.tally(
      "resident_thread_cycles",
      [this] {
        return static_cast<double>(
            m_ctx.counters.simt.resident_thread_cycles +
            uint64_t(m_threads_used) *
                (m_ctx.clock.now() - std::min(m_threads_since, m_ctx.clock.now())));
      },
      "thread-cycles",
      "threads resident on the core summed over cycles (divide by cycles x max threads for the "
      "occupancy)");
}

void Core::count_resident_threads() {
  const Cycle now = m_ctx.clock.now();
  if (now > m_threads_since)
    m_ctx.counters.simt.resident_thread_cycles +=
        uint64_t(m_threads_used) * (now - m_threads_since);
  m_threads_since = now;
}

bool Core::can_take(const func::Launch& launch) const { return room(launch) > 0; }

uint32_t Core::room(const func::Launch& launch) const {
  return ctas_fitting(
      m_ctx.spec, launch,
      {m_ctas_resident, m_threads_used, m_warps_used, m_registers_used, m_shared_used},
      m_carveout.shared_bytes);
}

void Core::prepare_launch(const func::Launch& launch, uint32_t cores) {
  if (!m_ctx.spec.unified()) return;
  m_carveout = choose_carveout(m_ctx.spec, launch, cores);
  m_l1d->set_ways(m_carveout.l1d_ways);
  m_stat_shared_carveout = std::max<uint64_t>(m_stat_shared_carveout, m_carveout.shared_bytes);
  m_stat_l1d_bytes = std::max(m_stat_l1d_bytes, m_carveout.l1d_bytes);
}

void Core::flush_caches() {
  m_l1d->flush();
  m_l1i->flush();
  m_memory->flush_constant_cache();
}

void Core::check_kernel(const isa::Kernel& kernel) const {
  if (!kernel.functions.empty() && !m_ctx.formation->supports_calls())
    throw InputError("kernel '" + kernel.name + "' calls device function '" +
                     kernel.functions.front().name + "': warp formation '" + m_ctx.spec.formation +
                     "' does not support calls (formation 'static' does)");
  // A warp polling barrier.cluster.wait stays at it as a whole (writeback_stage.cpp), and brx.idx
  // sends each lane to a target of its own (simt_control.h); formations that regroup threads into
  // sub-warps or blocks model neither.
  if (m_ctx.spec.static_warps()) return;
  for (uint32_t pc = 0; pc < kernel.code.size(); ++pc)
    if (kernel.code[pc].is_cluster_wait() || kernel.code[pc].is_indexed_branch())
      throw InputError("kernel '" + kernel.name + "': warp formation '" + m_ctx.spec.formation +
                       "' does not support " + kernel.where(pc) + " (formation 'static' does)");
}

// The slot a new CTA's warp takes: the lowest free one, or with "rotate" placement the lowest
// free one of block `turn` % B (the next block with a free slot if that one is full). The
// dispatcher placed the CTA within max_warps, so a free slot exists.
uint32_t Core::free_warp_slot(uint32_t turn) const {
  const CoreSpec& spec = m_ctx.spec;
  const size_t slots = m_ctx.warps.size();
  // The slots of a block lie `step` apart; first_free scans them all from slot 0 (one "block").
  const uint32_t step =
      spec.warp_placement == CoreSpec::WarpPlacement::Rotate ? spec.processing_blocks : 1;
  for (uint32_t b = 0; b < step; ++b)
    for (size_t w = (turn + b) % step; w < slots; w += step)
      if (m_ctx.warps[w].status == WarpSlot::Status::Free) return static_cast<uint32_t>(w);
  throw std::logic_error("Core::start_cta: no free warp slot");
}

void Core::start_cta(const func::BoundKernel& kernel, const func::Launch& launch, uint64_t cta_id,
                     std::shared_ptr<func::ClusterState> cluster) {
  uint32_t slot = 0;
  while (m_ctx.ctas[slot].valid) ++slot;
  CtaSlot& cta = m_ctx.ctas[slot];
  cta.valid = true;
  cta.kernel = &kernel;
  // A finished CTA's state whose arrays have the sizes this one needs is reused (reset to a new
  // CTA's, its storage kept: no allocation and no fresh pages for every CTA of a large grid).
  if (cta.state && cta.state->fits(launch))
    cta.state->reset_for(launch, cta_id);
  else
    cta.state = std::make_unique<func::CtaState>(launch, cta_id);
  cta.state->smid = m_ctx.id;
  cta.state->defer_tx =
      true;  // cp.async.bulk's mbarrier transactions complete when its lines return (memory stage)
  if (cluster) cta.state->join(std::move(cluster));  // until the CTA finishes (finish_cta)
  if (launch.replay) ++m_replay_ctas;
  cta.barriers = std::make_unique<func::CtaBarriers>(*cta.state);
  cta.warp_slots.clear();
  cta.warps_done = 0;
  const std::vector<WarpLayout> layout = m_ctx.formation->layout(launch.threads_per_cta());
  const size_t words = (kernel.kernel().regs.size() + 63) / 64;
  const uint32_t rotation = m_ctas_started++;
  for (uint32_t i = 0; i < layout.size(); ++i) {
    const uint32_t w = free_warp_slot(rotation + i);
    WarpSlot& ws = m_ctx.warps[w];
    ws = WarpSlot{};
    ws.status = WarpSlot::Status::Ready;
    ws.cta_slot = slot;
    ws.index_in_cta = i;
    ws.base_tid = layout[i].base_tid;
    ws.valid = layout[i].valid;
    ws.stack.set_policy(m_ctx.spec.reconvergence);
    ws.stack.reset(0, ws.valid);
    m_ctx.formation->start(w, ws, layout[i], kernel.kernel());
    ws.age = m_next_age++;
    ws.pending_regs.assign(words, 0);
    ws.eligible_from = m_ctx.clock.now();
    cta.warp_slots.push_back(w);
    m_ctx.touch(w);
  }
  count_resident_threads();
  m_threads_used += launch.threads_per_cta();
  m_warps_used += static_cast<uint32_t>(layout.size());
  m_registers_used += launch.threads_per_cta() * m_ctx.spec.registers_per_thread;
  m_shared_used += launch.shared_bytes();
  ++m_ctas_resident;
  m_fetch->poke();
  m_ctx.wake.now();
}

// One cycle of the pipeline. Every stage runs once, the last first, so that an instruction
// leaving a stage makes room for the one behind it in the same cycle (a pipeline shift); then
// each stage whose link moved an instruction since it ran (an instruction arrived at its input,
// or its output was taken) runs again, until no link moves: the same cycle-accurate outcome as a
// process per stage woken by every TLM phase, without the kernel's event traffic. The core then
// sleeps until the earliest cycle a stage asked for, or until a cache or a new CTA wakes it.
// Woken again in a cycle it already ran (a cache answered, a CTA started), only the stages that
// were poked run: the others' state has not changed since they ran in this cycle.
//
// Running ahead: when nothing else in the simulation can happen before the core's next cycle
// (no other process pending before it, see may_run_ahead), the core runs that cycle at once, its
// clock reading that cycle's time, instead of asking the kernel for a wake-up: a cycle costs no
// kernel event while the core alone is busy. Links are registered (tlm_ends.h), so what the core
// sends in such a cycle reaches its receiver from the receiver's next edge after the cycle (the
// send carries the core's lead as TLM timing annotation); that receiver's wake-up is then pending
// and ends the run ahead.
void Core::activate() {
  if (!align_to_edge(m_ctx.clock)) return;
  m_ctx.wake.rearm();
  m_pending_asks = ~uint64_t{0};  // the kernel's time moved on: ask it again
  Cycle next = cycle(m_ctx.clock.now());
  while (next != kNever && may_run_ahead(next)) {
    m_ctx.clock.run_ahead(next);
    ++m_cycles_ahead;
    next = cycle(next);
  }
  m_ctx.clock.catch_up();
  if (!m_ctx.fault.empty()) return;
  // Static sensitivity costs the kernel less than a dynamic next_trigger each cycle.
  if (next != kNever) m_ctx.wake.at(m_ctx.clock.time_of(next));
}

Cycle Core::cycle(Cycle now) {
  // What a stage asked for in an earlier run stays asked for (a stage does not repeat it when it
  // runs again in the same cycle, woken by a cache).
  Cycle& next = m_next;
  if (next <= now) next = kNever;
  if (m_ran != now) {
    // Running ahead must never let the core see a cycle before one it has run.
    if (m_ran != kNever && now < m_ran)
      throw std::logic_error(std::string(name()) + ": cycle " + std::to_string(now) +
                             " runs after cycle " + std::to_string(m_ran));
    m_ran = now;
    const bool all = polled();
    // Polled, every stage runs every cycle: the check that a stage with nothing to do has none.
    for (size_t i = 0; i < m_stages.size(); ++i) {
      if (all || m_stage_due[i] <= now || (m_ctx.poked_stages >> i & 1) ||
          (m_stage_news[i] && m_stages[i]->news()))
        m_stage_due[i] = m_stages[i]->run(now);
      next = std::min(next, m_stage_due[i]);
    }
  }
  // Passes over the poked stages in running order; a stage poked once the pass has gone by it runs
  // in the next.
  for (int pass = 0; m_ctx.poked_stages != 0; ++pass) {
    uint64_t later = ~uint64_t{0};  // the stages this pass has not reached
    while (const uint64_t due = m_ctx.poked_stages & later) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(due));
      later = i == 63 ? 0 : ~uint64_t{0} << (i + 1);
      next = std::min(next, m_stage_due[i] = m_stages[i]->run(now));
    }
    if (pass == 16 * static_cast<int>(m_blocks.size()))  // a link moves one instruction a pass
      throw std::logic_error(std::string(name()) +
                             ": the pipeline links did not settle in a cycle");
  }
  if (next != kNever) next = std::max(next, now + 1);
  if (polled()) next = now + 1;
  m_fetch->end_cycle(now, next);  // the one stage with end-of-cycle work (its stall accounting)
  return next;
}

// Whether the core may run cycle `next` now, ahead of the kernel (and of its GPU's other modules,
// which its shared edges may be running ahead of the kernel): not polled, traced or stopped; no
// warp is ending (a finished CTA goes to the GPU at once, in the kernel's time) and no trace
// decides the warps' paths (a warp may end at any retire); the running sc_start does not end by
// then (a sampler or a stop check reads the counters there); no other module of the GPU is due
// before or at that cycle's edge (the shared edges hold their wake-ups, armed in the kernel only at
// the end of a dispatch); and nothing else is pending in the kernel before or at that edge (another
// process, a delta notification, a timed one: the watchdog, the progress meter). Within one run of
// activate() only the core runs, and whatever it makes pending it makes through a Wakeup (its own,
// or a receiver's by a send, which also asks its own: InitiatorEnd): the kernel is asked again only
// when the core's Wakeup was.
bool Core::lets_system_run_ahead() const {
  return m_ctx.spec.run_ahead && !m_ctx.traced && m_ctx.fault.empty() && m_ctx.ending == 0 &&
         m_replay_ctas == 0;
}

bool Core::may_run_ahead(Cycle next) {
  if (!horizon || polled() || m_ctas_resident == 0 || !lets_system_run_ahead()) return false;
  const uint64_t at = m_ctx.clock.value_of(next);
  if (at >= *horizon) return false;
  if (const SharedEdges* edges = m_ctx.wake.shared(); edges && at >= edges->next_due())
    return false;
  if (m_pending_asks != m_ctx.wake.asks()) {
    m_pending_asks = m_ctx.wake.asks();
    m_pending_at =
        sim_now().value() + sc_core::sc_time_to_pending_activity().value();  // now: pending now
  }
  return at < m_pending_at;
}

void Core::finish_cta(uint32_t slot) {
  CtaSlot& cta = m_ctx.ctas[slot];
  const func::Launch& launch = *cta.state->launch;
  if (launch.replay) --m_replay_ctas;
  for (uint32_t w : cta.warp_slots) {
    m_ctx.warps[w].status = WarpSlot::Status::Free;
    m_ctx.touch(w);
  }
  count_resident_threads();
  m_threads_used -= launch.threads_per_cta();
  m_warps_used -= static_cast<uint32_t>(cta.warp_slots.size());
  m_registers_used -= launch.threads_per_cta() * m_ctx.spec.registers_per_thread;
  m_shared_used -= launch.shared_bytes();
  --m_ctas_resident;
  ++m_ctx.counters.ctas_done;
  cta.valid = false;
  cta.state->leave_cluster();  // kept for the launch's next CTA in this slot (start_cta)
  if (on_cta_done) on_cta_done(m_ctx.id);
}

std::string Core::intra_warp_wait() const {
  for (const WarpSlot& w : m_ctx.warps) {
    if (!w.active() || w.stack.done()) continue;
    const CtaSlot& cta = m_ctx.ctas[w.cta_slot];
    const std::string waits = func::intra_warp_wait(w.stack, cta.kernel->kernel(), w.index_in_cta,
                                                    cta.state->ctaid.str());
    if (!waits.empty()) return waits;
  }
  return "";
}

std::string Core::dump() const {
  std::ostringstream os;
  os << name() << ": " << m_ctas_resident << " CTAs resident\n";
  for (size_t s = 0; s < m_ctx.warps.size(); ++s) {
    const WarpSlot& w = m_ctx.warps[s];
    if (w.status == WarpSlot::Status::Free) continue;
    static const char* const kStatus[] = {"free", "ready", "at a barrier", "done"};
    os << "  warp slot " << s << ": " << kStatus[static_cast<int>(w.status)] << ", pc "
       << (w.stack.done() ? -1 : int64_t(w.stack.pc())) << ", " << w.inflight << " in flight"
       << (w.waiting_memory ? ", waiting for memory" : "")
       << (m_fetch->waiting_for_line(static_cast<uint32_t>(s)) ? ", waiting for an I-cache line"
                                                               : "")
       << "\n";
  }
  for (const mem::Cache* c : {m_l1i.get(), m_l1d.get()})
    os << "  " << c->name() << ": " << c->dump() << "\n";
  return os.str();
}

// Warp slots the waves show: as many as the core's threads fill (4 large warps of 256 threads).
size_t Core::traced_slots() const {
  const uint32_t per = m_ctx.formation->slot_threads();
  return std::min<size_t>(m_ctx.warps.size(), (m_ctx.spec.max_threads + per - 1) / per);
}

void Core::prepare_waves() {
  m_ctx.traced = true;
  const size_t rows = m_ctx.formation->rows();
  m_ctx.warp_changed = [this, rows](uint32_t slot) {
    const WarpSlot& w = m_ctx.warps[slot];
    const bool live = w.status != WarpSlot::Status::Free && !w.stack.done();
    m_wave_pc[slot] = live ? w.stack.pc() : 0;
    for (uint32_t r = 0; r < rows; ++r)
      m_wave_mask[slot * rows + r] = live ? m_ctx.formation->row_mask(slot, w, r) : 0;
    m_wave_state[slot] = static_cast<uint64_t>(w.status);
  };
}

std::string Core::mask_wave(size_t row) const {
  return m_ctx.formation->rows() == 1 ? ".active_mask" : ".active_mask_row" + std::to_string(row);
}

void Core::declare_waves(WaveList& waves) const {
  using F = WaveSignal::Format;
  static_assert(static_cast<int>(WarpSlot::Status::Barrier) ==
                    static_cast<int>(WaveWarpState::Barrier) &&
                static_cast<int>(WarpSlot::Status::Done) == static_cast<int>(WaveWarpState::Done));
  // Traced always, shown with two-level scheduling.
  waves.group(std::string(name()) + ": prioritised fetch group (two-level scheduling)", true,
              m_ctx.schedulers[0]->has_fetch_groups());
  waves.add(m_ctx.prioritized_group, std::string(name()) + ".scheduler.prioritized_group", 16);
  const size_t rows = m_ctx.formation->rows();
  constexpr size_t kOpenSlots = 4;  // the first warps open; the rest collapsed to their titles
  for (size_t s = 0; s < traced_slots(); ++s) {
    const std::string p = std::string(name()) + ".warp" + std::to_string(s);
    waves.group(p + (rows == 1 ? ": PC, active mask, state"
                               : ": PC, active mask row by row (a large warp), state"),
                s < kOpenSlots);
    waves.add(m_wave_pc[s], p + ".pc", 32, F::Hex);
    for (size_t r = 0; r < rows; ++r)
      waves.add(m_wave_mask[s * rows + r], p + mask_wave(r), 32, F::Hex);
    waves.add(m_wave_state[s], p + ".state", 3, F::Dec, warp_state_names());
  }
}

}  // namespace gputlm::sm
