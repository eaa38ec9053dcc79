// One DRAM channel's controller: a request queue of queue_depth entries fed by a TLM target
// socket (a full queue leaves the next request unaccepted: back-pressure), a scheduling policy
// (fcfs, fr-fcfs, ...) that picks at most one request a cycle among banks that are ready, a
// timing model (latency or command level) for banks and the data bus, the page policy, and
// responses in completion order. The controller wakes only when something can happen.
#pragma once

#include <memory>
#include <queue>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/wakeup.h"
#include "models/common/stats.h"
#include "models/common/waves.h"
#include "models/mem/dram/address_map.h"
#include "models/mem/dram/dram_request_log.h"
#include "models/mem/dram/dram_scheduler.h"
#include "models/mem/dram/dram_timing.h"
#include "models/mem/tlm_ends.h"

namespace gputlm::mem {

class DramController : public sc_core::sc_module, public StatProvider, public WaveProvider, public Pollable {
 public:
  void poll_while(const bool* flag) override { m_wake.poll_while(flag); }
  SC_HAS_PROCESS(DramController);
  // `reference_mhz`: the clock whose period is 1 ns of simulation time (see ClockDomain).
  DramController(sc_core::sc_module_name name, const DramSpec& spec, double reference_mhz);

  TargetEnd upstream;

  void trace(sc_core::sc_trace_file* tf) const override;
  std::vector<WaveGroup> wave_groups() const override;
  const ClockDomain& clock() const { return m_clock; }
  // Every request served from now on is written to `log` as channel `channel` (nullptr: none).
  void set_request_log(DramRequestLog* log, uint32_t channel) {
    m_log = log;
    m_channel = channel;
  }
  // What the controller holds (the watchdog's dump).
  std::string dump() const {
    return std::to_string(m_queue.size()) + " requests queued, " + std::to_string(m_in_flight.size()) + " in the banks";
  }

 private:
  struct InFlight {
    Cycle done;
    uint64_t seq;
    tlm::tlm_generic_payload* payload;
    Cycle arrival;
    // For the request log:
    Cycle start;
    RowOutcome outcome;
    uint32_t queued;
    bool operator>(const InFlight& o) const { return done != o.done ? done > o.done : seq > o.seq; }
  };
  void tick();
  void accept(Cycle now);
  void complete(Cycle now);
  bool queued_for(uint32_t bank, uint64_t row) const;
  void record_hold(uint32_t bank, Cycle now);
  void schedule(Cycle now);
  Cycle next_wake(Cycle now) const;
  void record_waves(uint32_t bank, const DramIssue& issue, bool write, uint64_t row);

  DramSpec m_spec;
  bool m_open_page;  // page_policy == "open", decided once
  ClockDomain m_clock;
  AddressMap m_map;
  std::unique_ptr<IDramTiming> m_timing;
  std::unique_ptr<IDramScheduler> m_scheduler;
  Wakeup m_wake;
  std::vector<DramQueueEntry> m_queue;                  // oldest first
  std::vector<tlm::tlm_generic_payload*> m_queue_payloads;
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<InFlight>> m_in_flight;
  std::vector<DramBankView> m_views;
  std::vector<uint32_t> m_bank_queued;  // requests queued per bank
  uint64_t m_seq = 0;
  Cycle m_last_accept = kNever;
  DramRequestLog* m_log = nullptr;
  uint32_t m_channel = 0;

  // Statistics (controller cycles).
  uint64_t m_requests = 0, m_reads = 0, m_writes = 0, m_hits = 0, m_empties = 0, m_conflicts = 0;
  uint64_t m_latency_sum = 0, m_latency_max = 0, m_bytes = 0, m_max_queue = 0;
  uint64_t m_first_arrival = ~0ull, m_last_done = 0;  // none yet: ~0 and 0
  uint64_t m_bus_busy = 0;  // the timing model's bus busy cycles, counted here as they grow (a counter the statistics own)
  uint64_t active_cycles() const { return m_last_done > m_first_arrival ? m_last_done - m_first_arrival : 0; }

  // Waves (only updated once trace() was called).
  bool m_tracing = false;
  WaveTimeline m_timeline{"waves"};
  std::vector<uint64_t> m_wave_row, m_wave_cmd;
  std::vector<uint64_t> m_wave_issues;  // accesses issued per bank, guards "back to idle"
  bool m_holds;                         // the policy holds rows (the waves show them)
  std::vector<uint64_t> m_wave_held_row, m_wave_hold_until;
  std::vector<uint64_t> m_wave_hold_changes;  // guards a hold's scheduled end
  uint64_t m_wave_queue = 0, m_wave_bus = 0;
};

}  // namespace gputlm::mem
