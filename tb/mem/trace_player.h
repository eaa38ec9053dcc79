// Testbench initiator: replays a request trace into a memory module through a TLM socket. Each
// request leaves at its trace cycle, or later when the target holds back END_REQ (back-pressure);
// the player records issue-to-response latency, how long it was held back, and when it finished.
#pragma once

#include <optional>
#include <systemc>

#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/mem/payload_pool.h"
#include "models/mem/tlm_ends.h"
#include "tb/mem/request_trace.h"

namespace gputlm::tb {

class TracePlayer : public sc_core::sc_module, public StatProvider {
 public:
  SC_HAS_PROCESS(TracePlayer);
  // Replays the requests of `core` (all if nullopt) from `trace`; `line_bytes` is the size of a
  // request without bytes=; the clock is the testbench's reference clock.
  TracePlayer(sc_core::sc_module_name name, const std::string& trace, std::optional<uint32_t> core, uint32_t line_bytes,
              const ClockDomain& clock);

  mem::InitiatorEnd downstream;

  bool finished() const { return m_finished; }
  const StatGroup& stats() const override { return m_stats; }

 private:
  void tick();

  RequestTraceReader m_reader;
  std::optional<uint32_t> m_core;
  uint32_t m_line_bytes;
  ClockDomain m_clock;
  mem::PayloadPool m_pool;
  sc_core::sc_event m_wake;
  std::optional<TraceRequest> m_next;
  bool m_finished = false;

  StatGroup m_stats;
  uint64_t m_issued = 0, m_completed = 0, m_latency_sum = 0, m_latency_max = 0, m_held_cycles = 0;
  uint64_t m_bytes = 0, m_first_issue = 0, m_last_response = 0, m_reads = 0, m_writes = 0;
};

}  // namespace gputlm::tb
