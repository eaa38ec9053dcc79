// Memory: loads, stores and atomics of the global and local spaces are coalesced into line
// requests sent to the L1 data cache one a cycle (the D-cache has one port: each distinct line
// costs a cycle, Narasiman section 4.2.5); the instruction is then set aside until all its lines
// have answered, so other warps' instructions flow past it (dissertation section 1.4). Stores do
// not wait for their acknowledgements unless wait_for_stores; cp.async never waits (its lines
// count for the warp's copy group, copy_groups.h). Shared memory takes one cycle per
// bank-conflict degree plus shared_latency; constant and parameter loads, with a constant cache
// (CoreSpec::l1c), what it answers (constant_cache.h). Other instructions pass in memory_cycles.
// Local memory is laid out so that a warp's same-offset accesses are adjacent words, as on GPUs.
// With processing blocks the stage is the SM's one LD/ST path with a link from each block's
// execute stage (input(b)); see take_from_blocks.
#pragma once

#include <deque>
#include <memory>
#include <unordered_map>

#include "models/mem/payload_pool.h"
#include "models/mem/tlm_ends.h"
#include "models/sm/memory/coalescer.h"
#include "models/sm/memory/constant_cache.h"
#include "models/sm/stage.h"

namespace gputlm::sm {

class MemoryStage : public Stage, public mem::RequestMaker {
 public:
  MemoryStage(sc_core::sc_module_name name, CoreContext& core);
  size_t requests_out() const override { return m_pool.in_use(); }  // loads, stores, atomics

  mem::InitiatorEnd dcache;
  // The link from processing block `block`'s execute stage (block 0's is `in`).
  StageIn& input(uint32_t block) { return *m_inputs[block]; }
  // The constant cache (CoreSpec::l1c), null when the core has none.
  const ConstantCache* constant_cache() const { return m_constants.get(); }
  // Where the constant cache reads its missing lines (CoreSpec::l1c_misses "icache"), null
  // otherwise: the core binds it to the I-cache's second port.
  mem::InitiatorEnd* constant_port() { return m_constant_port.get(); }
  void flush_constant_cache() {
    if (m_constants) m_constants->flush();
  }

 protected:
  bool news() const override {
    return dcache.has_response() || (m_constant_port && m_constant_port->has_response()) ||
           (m_active && m_next_line < m_lines.size() && port().can_send());
  }
  Cycle cycle(Cycle now) override;

 private:
  struct Done {
    Cycle at;
    WarpInstr* instr;
  };
  void receive(Cycle now);
  void receive_constants(Cycle now);
  // The instruction `w` waited for one line fewer (a response): the last one completes it.
  void line_answered(WarpInstr& w, Cycle now);
  // Starts a constant or parameter load on the constant cache (its misses read below with
  // CoreSpec::l1c_misses "icache").
  void start_constants(WarpInstr& w, Cycle now);
  // The port m_active's lines go to.
  const mem::InitiatorEnd& port() const { return m_constant_lines ? *m_constant_port : dcache; }
  mem::InitiatorEnd& port() { return m_constant_lines ? *m_constant_port : dcache; }
  bool take_from_blocks(Cycle now);
  bool input_waiting() const;  // an instruction waits at a block's link
  void start(WarpInstr& w, Cycle now);
  void finish_active(Cycle now);
  // Queues `w` for writeback at `at`: in arrival order, or with CoreSpec::pipelined_shared in
  // order of `at` (a pipelined access's result comes after the instructions behind it).
  void push_done(Cycle at, WarpInstr* w);
  void send_line(Cycle now);
  // A request of m_active's (its core, warp, lanes and pc in the extension).
  tlm::tlm_generic_payload& request(uint64_t address, uint32_t bytes, mem::AccessKind kind);
  uint64_t timing_address(const WarpInstr& w, unsigned lane) const;
  // Whether a shared access of `w` reaches another CTA's shared memory in its cluster.
  bool reaches_peer(const WarpInstr& w) const;
  void copies_moved(uint32_t slot);

  mem::PayloadPool m_pool;
  std::vector<StageIn*> m_inputs;                   // per processing block
  std::vector<std::unique_ptr<StageIn>> m_more_in;  // the links of blocks 1..B-1
  std::vector<Cycle> m_passed_in;                   // per block: when one passed beside the path
  size_t m_next_block = 0;  // round-robin: the block whose memory instruction is looked at first
  std::unique_ptr<ConstantCache> m_constants;
  std::unique_ptr<mem::InitiatorEnd> m_constant_port;
  bool m_constant_lines = false;  // m_active's lines are constant lines, for m_constant_port
  // Constant lines on their way (by address), with the instructions waiting for each.
  std::unordered_map<uint64_t, std::vector<WarpInstr*>> m_constant_waiters;
  std::vector<uint64_t> m_missed;  // the constant lines an access missed
  // Coalescing by sectors (CoreSpec::coalescing): the sector size; 0 coalesces by lines.
  const uint32_t m_sector_bytes;
  static uint32_t popcount32(uint32_t v) { return static_cast<uint32_t>(__builtin_popcount(v)); }
  WarpInstr* m_active = nullptr;     // sending its lines / using shared memory
  std::vector<LineRequest> m_lines;  // lines of m_active still to send
  size_t m_next_line = 0;
  Cycle m_busy_until = 0;  // the path is m_active's until then
  Cycle m_ready_at = 0;    // m_active's result is ready then (later than m_busy_until: pipelined)
  Cycle m_last_send = kNever;
  Cycle m_last_start = kNever;
  bool m_waits = false;     // m_active waits for its responses
  std::deque<Done> m_done;  // finished, to writeback in order
  std::vector<uint64_t> m_addresses = std::vector<uint64_t>(kWarpSize);
  uint64_t m_parked = 0;
  struct CopyLine {
    uint32_t slot;
    uint64_t age;  // the warp's (a slot's next warp ignores its predecessor's lines)
    uint64_t group;
    int64_t bulk = -1;        // a cp.async.bulk's line: its transaction in m_bulk
    bool bulk_group = false;  // a line of a copy in a bulk group (WarpSlot::bulk)
  };
  std::unordered_map<const tlm::tlm_generic_payload*, CopyLine>
      m_copy_lines;  // cp.async lines in flight
  // A cp.async.bulk whose mbarrier transaction completes when its last line returns
  // (func::ExecResult::tx_mbar): the CTA (slot and state, which a later CTA replaces), the object's
  // shared offset, the bytes, the lines in flight and whether all are sent.
  struct BulkTx {
    uint32_t warp_slot, cta_slot;
    const func::CtaState* cta;
    uint64_t mbar;
    uint32_t bytes, lines = 0;
    bool sent = false;
  };
  std::unordered_map<int64_t, BulkTx> m_bulk;
  int64_t m_next_bulk = 0, m_active_bulk = -1;
  void line_back(int64_t bulk);
  void complete_tx(const BulkTx& t);
  bool m_copies_moved = false;  // this run completed a copy group
  // cp.async.mbarrier.arrive's arrive-ons waiting for the warp's cp.async groups up to `group`.
  struct Arrival {
    uint32_t warp_slot;
    uint64_t age;
    uint32_t cta_slot;
    const func::CtaState* cta;
    uint64_t mbar;
    uint32_t count;
    uint64_t group;
  };
  std::vector<Arrival> m_arrivals;
  void deliver_arrivals();
};

}  // namespace gputlm::sm
