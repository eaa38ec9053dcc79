// The multithreaded coarse-grain reconfigurable fabric of the VGIW core (Voitsechov & Etsion,
// Sec. 3.5; SGMF's MT-CGRF): the grid configured with one segment's dataflow graph, replicated,
// streaming threads. Modelled per unit and per virtual channel:
//  - every unit has a token buffer with one entry per virtual channel; a thread keeps one channel
//    (in its replica) from its initiator to its terminator, so a replica holds at most
//    virtual_channels threads; an entry is ready once all its operands (up to three, plus control
//    tokens) have arrived, and a unit fires one ready entry a cycle, oldest ready first;
//  - tokens travel one cycle a hop along the routes the mapper chose;
//  - compute units are pipelined; special compute units start one operation a cycle on any of
//    special_instances non-pipelined circuits; joins pass a control token on;
//  - load/store units send each thread's access to the banked L1 through their own port (the
//    crossbar), keep up to reservation_entries accesses outstanding (the reservation buffer) and
//    let a thread go on when its access returns, so threads pass those stalled on misses; shared
//    memory answers after shared_latency, kernel parameters (when they take a unit: the "units"
//    reading of static_operands.h) after param_latency;
//  - live-value units load and store <live-value ID, thread ID> words in the live value cache;
//  - initiators (control vector units) double-buffer the scheduler's thread batches, requesting
//    the next as soon as one is taken, and start one thread a cycle; terminators keep a pair of
//    batches per destination block and send them back (thread_batch.h's BatchCollector).
// Configured with an SGMF configuration (the whole kernel, block_config.h's entry_of), a thread
// that reaches a block's steering node goes on to its next block's entry, hops away on the grid,
// in the same virtual channel, and leaves the fabric only when it exits the kernel.
// Once every thread of the block has left, the fabric reports "drained".
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "models/common/clock.h"
#include "models/common/clocked_module.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/wakeup.h"
#include "models/common/waves.h"
#include "models/core/core_counters.h"
#include "models/mem/payload_pool.h"
#include "models/mem/tlm_ends.h"
#include "models/vgiw/batch_link.h"
#include "models/vgiw/cgrf/block_config.h"
#include "models/vgiw/cgrf/token_table.h"
#include "models/vgiw/tile.h"

namespace gputlm::vgiw {

class MtCgrf : public ClockedModule<>,
               public StatProvider,
               public WaveProvider,
               public mem::RequestMaker {
 public:
  MtCgrf(sc_core::sc_module_name name, const VgiwSpec& spec, const Fabric& fabric, uint32_t core_id,
         double reference_mhz);

  BatchIn from_scheduler;
  BatchOut to_scheduler;
  // One port per load/store unit (to the L1) and per live-value unit (to the live value cache).
  mem::InitiatorEnd& l1_port(uint32_t i) { return *m_l1_ports[i]; }
  mem::InitiatorEnd& lvc_port(uint32_t i) { return *m_lvc_ports[i]; }

  // What the fabric needs from its core: each segment's configuration, where a kernel fault goes,
  // and the counters it adds to; and, per tile, the tile whose threads it runs.
  struct Hooks {
    std::function<const BlockConfig&(uint32_t segment)> config;
    std::function<void(const std::string&)> fault;
    core::CoreCounters* counters = nullptr;
  };
  void set_hooks(Hooks h) { m_hooks = std::move(h); }
  void set_tile(Tile* tile) { m_tile = tile; }
  std::string dump() const;
  size_t requests_out() const override { return m_pool.in_use(); }  // loads, stores, live values

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;

 private:
  struct Token {
    uint32_t unit;
    uint32_t channel;  // replica * virtual_channels + channel
  };
  struct Channel {
    uint32_t tid = 0;
    uint32_t segment = 0;  // the segment the thread is in (SGMF: it changes as the thread flows)
    int32_t next = -1;
    std::vector<MemAccess> accesses;
  };
  struct UnitState {
    int32_t replica = -1;
    uint32_t node = 0;
    std::vector<uint32_t> ready;  // ring of channels
    uint32_t head = 0, count = 0;
    uint32_t outstanding = 0;         // memory accesses in flight (load/store, live value)
    std::vector<Cycle> special_done;  // when each busy special circuit finishes
    int32_t port = -1;                // load/store: L1 port; live value: LVC port
    bool listed = false;              // in m_active
  };
  struct Initiator {
    std::array<ThreadBatch, 2> buffers{};
    uint32_t held = 0;
    uint32_t requested = 0;
    bool no_more = false;
    std::vector<uint32_t> free_channels;
    std::array<BatchCollector, 2> collectors{};
  };

  Cycle cycle(Cycle now) override;
  void receive_messages();
  void configure(uint32_t segment);
  void receive_memory(Cycle now);
  void arrive(uint32_t unit, uint32_t channel);
  void emit(uint32_t unit, uint32_t channel, Cycle at);
  bool fire(uint32_t unit, Cycle now);
  bool fire_memory(UnitState& u, uint32_t unit, uint32_t channel, Cycle now);
  void terminate(uint32_t replica, uint32_t channel);
  // SGMF: the steering node at `unit` passes the thread on to its next block's entry.
  void steer(uint32_t replica, uint32_t unit, uint32_t channel, Cycle at);
  // Runs the thread's segment ch.segment on the functional engine; false on a kernel fault.
  bool run_segment(Channel& ch, Cycle now);
  void inject(Cycle now);
  void request(uint32_t replica);
  void check_drained();
  Cycle next_token_cycle(Cycle now) const;
  // The phase of the cycle `now` (with its injections) or of the cycles after it; -1: not
  // streaming.
  int phase(Cycle now, bool this_cycle) const;
  void count_phases(Cycle now);

  VgiwSpec m_spec;
  const Fabric& m_fabric;
  uint32_t m_core_id;
  std::vector<std::unique_ptr<mem::InitiatorEnd>> m_l1_ports, m_lvc_ports;
  mem::PayloadPool m_pool;
  std::unordered_map<tlm::tlm_generic_payload*, Token> m_waiting;  // memory accesses in flight
  Hooks m_hooks;
  Tile* m_tile = nullptr;

  const BlockConfig* m_config = nullptr;
  bool m_streaming = false;
  std::vector<UnitState> m_units;
  std::vector<Channel> m_channels;
  TokenTable m_tokens;
  std::vector<Initiator> m_initiators;
  uint32_t m_threads_in_flight = 0;
  std::vector<uint32_t> m_active;           // units with ready entries
  std::vector<std::vector<Token>> m_wheel;  // tokens by arrival cycle mod size
  uint64_t m_tokens_in_wheel = 0;
  Cycle m_last_tick = kNever;
  bool m_busy_after =
      false;  // threads in the fabric after its last run (busy_cycles of the cycles it sleeps)
  Cycle m_injected_at = kNever;
  int m_phase_now = -1,
      m_phase_after = -1;  // of m_last_tick, and of the cycles up to the next tick

  std::array<uint64_t, kUnitTypes> m_firings{};
  uint64_t m_threads_started = 0, m_threads_finished = 0, m_memory_accesses = 0,
           m_shared_accesses = 0;
  uint64_t m_live_loads = 0, m_live_stores = 0, m_reservation_stalls = 0, m_busy_cycles = 0;
  uint64_t m_configurations = 0, m_max_in_flight = 0;
  uint64_t m_token_hops = 0;  // hops of every token sent, summed (the energy model's wire traffic)
  std::array<uint64_t, core::kFabricPhases> m_phase_cycles{};

  bool m_tracing = false;
  uint64_t m_wave_segment = 0, m_wave_in_flight = 0;
  std::array<uint64_t, kUnitTypes> m_wave_fired{};
  sc_dt::sc_bv_base m_wave_units;  // bit per grid unit: it fired this cycle
};

}  // namespace gputlm::vgiw
