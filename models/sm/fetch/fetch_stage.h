// Fetch: each cycle the warp scheduler policy picks one eligible warp slot (1-wide fetch, the
// papers' scalar front end) and the warp formation policy says what it issues. Instructions come
// from the warp's one-line instruction buffer; a PC outside it costs an access to the I-cache (a
// real cache module below which misses go to memory), during which the warp waits and others are
// fetched. Barrel processing (the papers' default): a warp is not fetched again until its
// instruction has left the pipeline; scoreboard mode lets a warp have several instructions in
// flight unless one of them decides its next PC. Cycles without a fetch are charged to a stall
// cause. With processing blocks (CoreSpec::processing_blocks = B), fetch makes one decision a
// cycle per block, each by the block's own scheduler over the block's slots (slot % B), and sends
// it down the block's link (output(b)) to the block's decode stage: up to B warp instructions a
// cycle. The I-cache behind the warps' instruction buffers stays one, taking one request a cycle.
#pragma once

#include <deque>

#include "models/core/core_counters.h"
#include "models/mem/cache/cache.h"
#include "models/mem/payload_pool.h"
#include "models/mem/tlm_ends.h"
#include "models/sm/scheduler/slot_set.h"
#include "models/sm/stage.h"

namespace gputlm::sm {

class FetchStage : public Stage, public mem::RequestMaker {
 public:
  FetchStage(sc_core::sc_module_name name, CoreContext& core);
  size_t requests_out() const override { return m_pool.in_use(); }  // I-cache fetches

  mem::InitiatorEnd icache;
  // Fetches that would find `l1i` (the cache behind `icache`) idle and holding their line are
  // served by it at once, without the link's round trip (mem::Cache::take_idle_hit; same results).
  void take_idle_hits_from(mem::Cache& l1i) { m_l1i = &l1i; }
  uint64_t idle_hits() const {
    return m_idle_hit_count;
  }  // over its life: a measure of the speed-up
  bool waiting_for_line(uint32_t slot) const { return m_icache_wait[slot]; }
  // The link to processing block `block`'s decode stage (block 0's is `out`).
  StageOut& output(uint32_t block) { return *m_blocks[block].out; }
  // The fetch and stall cycles count the cycles [start, end) of a launch.
  void begin_accounting(Cycle start);
  void end_accounting(Cycle end);
  // Called once at the end of every cycle the core ran, after the links settled; `next` is the
  // cycle the core means to run next (earlier if a cache wakes it).
  void end_cycle(Cycle now, Cycle next);
  // Adds to `stalls` (by StallCause) the cycles slept through up to `now` that are charged only
  // when the core runs again, so a reading between cycles sees every cycle before `now` charged.
  void add_uncharged(Cycle now, std::vector<uint64_t>& stalls) const {
    if (m_accounting && now > m_from) stalls[static_cast<size_t>(m_sleep_cause)] += now - m_from;
  }
  void declare_waves(WaveList& waves) const override;

 protected:
  // Fetch runs in every cycle the core runs: its decision and stall accounting are per cycle (a
  // fetch skipped when only its I-cache port and touched warps were checked changed the outcome).
  bool news() const override { return true; }
  Cycle cycle(Cycle now) override;

 private:
  static constexpr uint32_t kNoSlot = ~0u;
  bool candidate(uint32_t slot) const;            // Ready, not done, pipeline rules allow a fetch
  bool eligible(uint32_t slot, Cycle now) const;  // and not waiting for time
  void recheck(uint32_t slot, Cycle now);         // updates the slot's candidate and waiting bits
  core::StallCause stall_cause() const;
  // One processing block's issue slot: the instruction it holds for its decode stage and this
  // cycle's decision.
  struct Block {
    StageOut* out = nullptr;    // its link to decode
    WarpInstr* held = nullptr;  // fetched, not yet taken by decode
    Cycle ready = 0;            // when `held` may leave
    bool slot_used = false;     // this cycle's (m_cycle's) fetch decision is made
    bool fetched = false;       // and a warp was picked (an instruction or an I-cache request)
    uint32_t completed =
        kNoSlot;  // the slot whose fetch completed this cycle on its line's arrival
  };
  Block& block_of(uint32_t slot) { return m_blocks[slot % m_blocks.size()]; }
  bool any_held() const;
  bool fetched_this_cycle() const;  // a block picked a warp in this cycle
  void send_held(Block& b, Cycle now);
  void complete_arrivals(Cycle now);
  // Block `b`'s fetch decision of the cycle; lowers `soonest` to when a warp waiting for time
  // becomes eligible.
  void decide(uint32_t b, Cycle now, Cycle& soonest);
  void charge_gap(Cycle until);  // cycles [m_from, until) to m_sleep_cause
  void uncharge();               // takes back the charge of cycle m_charged
  // A new instruction, or the next sub-warp of the one fetched; false if it issued nothing (a
  // sub-warp former that found only busy threads).
  bool fetch(uint32_t slot, Cycle now);
  // The line `slot` asked for is in its instruction buffer; its fetch completes when it can.
  void line_arrived(uint32_t slot, uint64_t line) {
    m_core.warps[slot].ibuffer_line = line;
    m_arrived.push_back(slot);
  }
  void show_unit(const IssueUnit& u);
  // The I-cache line holding instruction `pc` of `kernel` (func/code_layout.h).
  uint64_t line_of(const func::BoundKernel& kernel, uint32_t pc) const;

  mem::PayloadPool m_pool;
  std::vector<Block> m_blocks;                         // per processing block
  std::vector<std::unique_ptr<StageOut>> m_more_outs;  // the links of blocks 1..B-1
  std::vector<SlotSet> m_block_slots;  // with more than one block: each block's slots
  Cycle m_cycle = kNever;              // the cycle the blocks' decisions refer to
  bool m_accounting = false;           // inside a launch: cycles are charged
  Cycle m_from = 0;                    // the first cycle not yet charged
  Cycle m_charged = kNever;  // the last cycle charged, as a fetch cycle or to m_charged_cause
  bool m_charged_fetch = false;
  core::StallCause m_charged_cause = core::StallCause::Idle;
  core::StallCause m_sleep_cause = core::StallCause::Idle;
  std::vector<uint8_t>
      m_icache_wait;               // per slot: its line is being fetched (or its fetch to complete)
  std::deque<uint32_t> m_arrived;  // slots whose line arrived, oldest first, fetch to complete
  struct IdleHit {
    Cycle from;  // the cycle the line is seen, as a response over the link would be
    uint32_t slot;
    uint64_t line;
  };
  mem::Cache* m_l1i = nullptr;      // see take_idle_hits_from
  std::deque<IdleHit> m_idle_hits;  // lines the idle I-cache served, in the order they come
  Cycle m_idle_hit_sent = kNever;   // the cycle of the last one (a link takes one request a cycle)
  uint64_t m_idle_hit_count = 0;
  std::vector<Cycle> m_icache_sent;  // per slot: when that fetch started
  SlotSet m_candidates;              // candidate() and not waiting for the I-cache
  SlotSet
      m_waiting;  // candidates whose eligible_from was after the cycle they were last checked in
  SlotSet m_eligible;  // this cycle's candidates that are not waiting for time
  uint32_t m_forming =
      kNoSlot;  // slot whose fetched instruction still forms sub-warps (fetch waits)
  uint64_t m_wave_sub_mask = 0;
  sc_dt::sc_bv<128> m_wave_sub_rows;
};

}  // namespace gputlm::sm
