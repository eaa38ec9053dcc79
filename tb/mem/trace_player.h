// Testbench initiator: replays a request trace into a memory module through a TLM socket. Each
// request leaves at its trace cycle, or later when the target holds back END_REQ (back-pressure);
// the player records issue-to-response latency, how long it was held back, and when it finished.
#pragma once

#include <functional>
#include <optional>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/mem/payload_pool.h"
#include "models/mem/tlm_ends.h"
#include "tb/mem/request_trace.h"

namespace gputlm::tb {

// Where requests come from: the next one, or nullopt at the end (cycles non-decreasing).
using RequestSource = std::function<std::optional<TraceRequest>()>;

class TracePlayer : public sc_core::sc_module, public StatProvider {
 public:
  SC_HAS_PROCESS(TracePlayer);
  // One request as it went: trace cycle, cycle sent (BEGIN_REQ), cycle its response arrived.
  struct Completion {
    uint64_t index = 0;
    Cycle trace_cycle = 0, sent = 0, responded = 0;
  };

  // Replays the requests of `core` (all if nullopt) from the trace file at `path`; `line_bytes` is
  // the size of a request without bytes=; the clock is the testbench's reference clock.
  TracePlayer(sc_core::sc_module_name name, const std::string& path, std::optional<uint32_t> core,
              uint32_t line_bytes, const ClockDomain& clock);
  // Replays requests from `source` (tests).
  TracePlayer(sc_core::sc_module_name name, RequestSource source, uint32_t line_bytes,
              const ClockDomain& clock);

  mem::InitiatorEnd downstream;

  bool finished() const { return m_finished; }
  // A bad trace line met during the simulation (the simulation was stopped), or empty.
  const std::string& error() const { return m_error; }
  // Every request in trace order, once responded (kept for tests and small traces: call
  // keep_completions() before the simulation starts).
  void keep_completions() { m_keep = true; }
  const std::vector<Completion>& completions() const { return m_completions; }

 private:
  void init();
  void tick();

  RequestSource m_source;
  uint32_t m_line_bytes;
  ClockDomain m_clock;
  mem::PayloadPool m_pool;
  Wakeup m_wake;
  std::optional<TraceRequest> m_next;
  bool m_finished = false;
  bool m_keep = false;
  std::string m_error;
  std::vector<Completion> m_completions;

  uint64_t m_issued = 0, m_completed = 0, m_latency_sum = 0, m_latency_max = 0, m_held_cycles = 0;
  uint64_t m_bytes = 0, m_reads = 0, m_writes = 0;
  uint64_t m_first_issue = ~0ull, m_last_response = 0;  // none yet: ~0 and 0
  uint64_t elapsed_cycles() const {
    return m_last_response > m_first_issue ? m_last_response - m_first_issue : 0;
  }
};

}  // namespace gputlm::tb
