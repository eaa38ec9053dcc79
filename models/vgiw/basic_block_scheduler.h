// The basic-block scheduler of the VGIW core (Voitsechov & Etsion, Sec. 3.2, Fig. 5), with the
// control vector table it fronts (Sec. 3.3). For a tile it sets every thread's bit in block 0's
// vector, then repeatedly: picks the smallest block ID whose vector is not empty, reconfigures the
// fabric with it (reconfiguration_cycles; none when the block is already configured; the
// configurations themselves are prefetched, so their loading is not modelled), and answers the
// initiators' batch requests with <base thread ID, bitmap> batches read (and reset) from the
// vector, or "no more". Returned batches are ORed into their block's vector. When the fabric
// reports the block drained it picks again; when every vector is empty the tile is done.
// Port timing: the table has a read and a write port over cvt_banks banks; each delivers
// cvt_banks 64-bit words a cycle (reads scan words until a non-empty one; each scanned word
// counts).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>

#include "models/common/clock.h"
#include "models/common/clocked_module.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/wakeup.h"
#include "models/common/waves.h"
#include "models/vgiw/batch_link.h"
#include "models/vgiw/control_vector_table.h"
#include "models/vgiw/vgiw_spec.h"

namespace gputlm::vgiw {

class BasicBlockScheduler : public ClockedModule<>, public StatProvider, public WaveProvider {
 public:
  BasicBlockScheduler(sc_core::sc_module_name name, const VgiwSpec& spec, double reference_mhz);

  BatchOut to_fabric;
  BatchIn from_fabric;

  // Starts a tile of `threads` threads over `blocks` blocks (segments).
  void start_tile(uint32_t blocks, uint32_t threads);
  // Called when the tile's last block drains.
  std::function<void()> on_tile_done;
  // Where reconfiguration cycles are also added (the core's run-level counters).
  uint64_t* reconfiguration_counter = nullptr;
  // The configuration loaded in the fabric is no longer valid (a new kernel).
  void forget_configuration() { m_configured = -1; }
  std::string dump() const;

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;

 private:
  enum class State : uint8_t { Idle, Pick, Reconfiguring, Streaming };

  Cycle cycle(Cycle now) override;
  void receive();
  void apply_updates();
  void serve_requests();
  void pick(Cycle now);

  VgiwSpec m_spec;
  std::unique_ptr<ControlVectorTable> m_cvt;
  State m_state = State::Idle;
  int32_t m_configured = -1;  // block loaded in the fabric
  uint32_t m_block = 0;       // block streaming
  uint32_t m_cursor = 0;      // next CVT word of the block to read
  Cycle m_reconfigured_at = 0;
  bool m_drained = false;
  std::deque<uint32_t> m_requests;                         // replicas waiting for a batch
  std::deque<std::pair<uint32_t, ThreadBatch>> m_updates;  // returned batches not yet ORed in
  uint64_t m_read_credit = 0, m_write_credit = 0;  // words the ports can still move this cycle
  Cycle m_credit_cycle = kNever;

  uint64_t m_tiles = 0, m_block_runs = 0, m_reconfigurations = 0, m_reconfiguration_cycles = 0;
  uint64_t m_batches_sent = 0, m_batches_returned = 0, m_threads_sent = 0, m_word_reads = 0,
           m_word_updates = 0;

  bool m_tracing = false;
  uint64_t m_wave_block = 0, m_wave_state = 0, m_wave_sent = 0, m_wave_returned = 0,
           m_wave_occupancy = 0;
};

}  // namespace gputlm::vgiw
