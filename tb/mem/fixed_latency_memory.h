// Testbench target: a memory that accepts every request at once and answers it a fixed number of
// cycles later, logging what it was asked (cycle, address, kind, size, core). Stands in for the
// level below a module under test so that its cycles can be predicted exactly.
#pragma once

#include <queue>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/mem/mem_extension.h"
#include "models/mem/tlm_ends.h"

namespace gputlm::tb {

class FixedLatencyMemory : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FixedLatencyMemory);
  struct Access {
    Cycle cycle;
    uint64_t address;
    mem::AccessKind kind;
    uint32_t bytes;
    uint32_t core;
  };

  FixedLatencyMemory(sc_core::sc_module_name name, Cycle latency, const ClockDomain& clock)
      : sc_module(name), upstream("upstream", m_wake, m_clock), m_latency(latency), m_clock(clock) {
    SC_METHOD(tick);
    sensitive << m_wake.event();
    dont_initialize();
  }

  mem::TargetEnd upstream;
  const std::vector<Access>& log() const { return m_log; }

 private:
  void tick() {
    const Cycle now = m_clock.now();
    while (tlm::tlm_generic_payload* p = upstream.peek()) {
      upstream.take();
      const auto& e = mem::MemExtension::of(*p);
      m_log.push_back({now, p->get_address(), e.kind, p->get_data_length(), e.core});
      m_pending.push({now + m_latency, m_seq++, p});
    }
    while (!m_pending.empty() && m_pending.top().at <= now && upstream.can_respond()) {
      upstream.respond(*m_pending.top().p);
      m_pending.pop();
    }
    sleep_until(m_clock, m_pending.empty() ? kNever : std::max(now + 1, m_pending.top().at),
                m_wake);
  }
  struct Due {
    Cycle at;
    uint64_t seq;
    tlm::tlm_generic_payload* p;
    bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  Wakeup m_wake;
  Cycle m_latency;
  ClockDomain m_clock;
  std::vector<Access> m_log;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> m_pending;
  uint64_t m_seq = 0;
};

}  // namespace gputlm::tb
