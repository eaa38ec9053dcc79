// One DRAM channel's controller, the module shell: a request queue fed by a TLM target socket (a
// full queue leaves the next request unaccepted: back-pressure), a scheduling policy (fcfs,
// fr-fcfs, ...), responses in completion order, the statistics and the waves. When the queued
// requests take their steps is its timing model's (dram_timing.h), made by the name of the
// config's timing_model: "latency" (latency_model.h) or "command" (command_model.h). The
// controller wakes only when something can happen.
#pragma once

#include <memory>
#include <queue>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/clocked_module.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/wakeup.h"
#include "models/common/waves.h"
#include "models/mem/dram/address_map.h"
#include "models/mem/dram/dram_counters.h"
#include "models/mem/dram/dram_queue.h"
#include "models/mem/dram/dram_request_log.h"
#include "models/mem/dram/dram_scheduler.h"
#include "models/mem/dram/dram_timing.h"
#include "models/mem/dram/dram_waves.h"
#include "models/mem/tlm_ends.h"

namespace gputlm::mem {

class DramController : public ClockedModule<>, public StatProvider, public WaveProvider {
 public:
  // `reference_mhz`: the clock whose period is 1 ns of simulation time (see ClockDomain).
  DramController(sc_core::sc_module_name name, const DramSpec& spec, double reference_mhz);

  TargetEnd upstream;

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;
  // Every request served from now on is written to `log` as channel `channel` (nullptr: none).
  void set_request_log(DramRequestLog* log, uint32_t channel) {
    m_log = log;
    m_channel = channel;
  }
  // What the controller holds (the watchdog's dump).
  std::string dump() const {
    return std::to_string(m_queue.size()) + " requests queued, " +
           std::to_string(m_in_flight.size()) + " in the banks";
  }

 private:
  // A request whose data transfer is scheduled, until its response leaves.
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
  Cycle cycle(Cycle now) override;
  void accept(Cycle now);
  void complete(Cycle now);
  // Request s.index leaves the queue for the banks; its data moves until s.done.
  void start_access(const DramStart& s, Cycle now);
  bool idle() const { return m_queue.empty() && m_in_flight.empty(); }
  Cycle next_wake(Cycle now) const;
  void register_statistics();

  DramSpec m_spec;
  AddressMap m_map;
  std::unique_ptr<IDramScheduler> m_scheduler;
  DramQueue m_queue;
  DramCounters m_counters;  // the statistics
  DramWaves m_waves;        // updated only once start_waves() was called
  std::unique_ptr<IDramTiming> m_timing;
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<InFlight>> m_in_flight;
  uint64_t m_seq = 0;
  Cycle m_last_accept = kNever;
  DramRequestLog* m_log = nullptr;
  uint32_t m_channel = 0;
};

}  // namespace gputlm::mem
