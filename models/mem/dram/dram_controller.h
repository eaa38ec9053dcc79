// One DRAM channel's controller: a request queue fed by a TLM target socket (a full queue leaves
// the next request unaccepted: back-pressure), a scheduling policy (fcfs, fr-fcfs, ...), the page
// policy, and responses in completion order. Two timing models:
//   latency  the papers' abstraction (latency_timing.cpp): one queue of queue_depth entries; the
//            policy starts at most one whole access a cycle among banks that can take one.
//   command  JEDEC command timing (dram_device.h): a read queue of queue_depth and a write queue
//            of write_queue_depth, drained by watermark; each cycle the policy picks one command
//            (ACT, PRE, RD, WR) among the requests whose next command is ready, so later requests
//            fill the slots behind earlier ones; all-bank refresh every tREFI.
// The controller wakes only when something can happen.
#pragma once

#include <deque>
#include <memory>
#include <queue>
#include <systemc>
#include <vector>

#include "models/common/clock.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/wakeup.h"
#include "models/common/waves.h"
#include "models/mem/dram/address_map.h"
#include "models/mem/dram/dram_device.h"
#include "models/mem/dram/dram_request_log.h"
#include "models/mem/dram/dram_row_index.h"
#include "models/mem/dram/dram_scheduler.h"
#include "models/mem/dram/dram_timing.h"
#include "models/mem/tlm_ends.h"

namespace gputlm::mem {

class DramController : public sc_core::sc_module,
                       public StatProvider,
                       public WaveProvider,
                       public Pollable {
 public:
  void poll_while(const bool* flag) override { m_wake.poll_while(flag); }
  void share_edges(SharedEdges& edges) override {
    edges.join(m_wake, m_clock, [this] { tick(); });
  }
  SC_HAS_PROCESS(DramController);
  // `reference_mhz`: the clock whose period is 1 ns of simulation time (see ClockDomain).
  DramController(sc_core::sc_module_name name, const DramSpec& spec, double reference_mhz);

  TargetEnd upstream;

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;
  const ClockDomain& clock() const { return m_clock; }
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
  static constexpr uint64_t kNoRow =
      0xFFFFFFFFull;  // waves: no open row (rows are traced as 32 bits)
  // A queued request beside its policy entry (m_queue[i] and m_pending[i]).
  struct Pending {
    tlm::tlm_generic_payload* payload;
    bool started = false;    // its first command has issued (its row outcome is counted)
    bool activated = false;  // its row was opened for it (command model)
    uint32_t columns = 0;    // column commands still to issue (command model; set when queued)
    RowOutcome outcome = RowOutcome::Hit;
    uint64_t serial = 0;  // its place in arrival order (ascending along m_pending)
  };
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
  void update_bank_start(uint32_t bank);
  bool any_bank_may_start(Cycle now) const;  // some bank's m_bank_start has come
  // Whether a queued request other than i wants request i's row (a closed page keeps it open).
  bool wanted_by_another(size_t i) const;
  void record_hold(uint32_t bank, Cycle now);
  void schedule(Cycle now);
  // The latency model with a policy that picks a bank's oldest request only: those that may start
  // now, marked, into m_candidates (their queue positions into m_candidate_index), oldest first.
  void collect_bank_heads();
  void count_outcome(Pending& p, RowOutcome outcome);
  void start_access(size_t i, Cycle now, const DramIssue& r);
  Cycle next_wake(Cycle now) const;
  // The command model (dram_controller_commands.cpp).
  bool command_model() const { return m_device != nullptr; }
  bool queue_has_room(const tlm::tlm_generic_payload& p) const;
  void schedule_commands(Cycle now);
  bool any_command_ready(Cycle now) const;
  bool next_write_mode() const;
  void update_write_mode();  // to next_write_mode(), counting a turn to draining writes
  bool candidate(size_t i, bool write_mode) const;
  bool schedule_refresh(Cycle now);
  void refresh_while_idle(Cycle now);
  void precharge_all(Cycle at, bool waves);
  bool rows_opened_for_requests() const;
  void issue_command(size_t i, DramCmd cmd, Cycle now);
  Cycle next_command_wake(Cycle now) const;
  // The device's earliest(), remembered per bank and command until the device next issues a
  // command (the scheduler asks it for every queued request, and twice a cycle).
  Cycle earliest(DramCmd cmd, uint32_t bank) const;
  void device_issue(DramCmd cmd, uint32_t bank, uint64_t row, Cycle at,
                    bool auto_precharge = false);
  void record_waves(uint32_t bank, const DramIssue& issue, bool write, uint64_t row);

  DramSpec m_spec;
  bool m_open_page;  // page_policy is open, decided once
  ClockDomain m_clock;
  AddressMap m_map;
  std::unique_ptr<IDramTiming> m_timing;  // the latency model, or
  std::unique_ptr<DramDevice> m_device;   // the command model
  std::unique_ptr<IDramScheduler> m_scheduler;
  bool m_heads_only;  // the latency model and m_scheduler->bank_heads_only(), asked once
  Wakeup m_wake;
  std::vector<DramQueueEntry> m_queue;  // oldest first
  std::vector<Pending> m_pending;
  // The command model: queued requests whose row was not yet opened for them, by kind (the read
  // and write queues), whether writes are being drained, and refresh.
  uint32_t m_queued_reads = 0, m_queued_writes = 0;
  bool m_write_mode = false;
  Cycle m_next_refresh = kNever;
  bool m_refresh_due = false;
  Cycle m_idle_since = 0;  // nothing queued or in the banks since this cycle (kNever: busy)
  std::vector<uint32_t>
      m_bank_activated;          // per bank: queued requests whose row was opened for them
  uint64_t m_device_issues = 1;  // commands the device has taken (+1): the memo's generation
  mutable std::vector<std::array<Cycle, kDramCmds>> m_earliest;  // memo of earliest(), per bank
  mutable std::vector<std::array<uint64_t, kDramCmds>>
      m_earliest_of;  // ... the generation it is of
  struct Step {
    DramCmd cmd;  // a queued request's next command
    bool ready;   // ... and whether it may issue now
  };
  std::vector<Step> m_steps;                 // scratch: per queued request, this cycle
  std::vector<DramQueueEntry> m_candidates;  // scratch: the entries the policy sees
  std::vector<size_t> m_candidate_index;
  // m_heads_only: per bank, the serial numbers of its queued requests, oldest first (a bank's
  // head is found in m_pending by a binary search).
  std::vector<std::deque<uint64_t>> m_bank_serials;
  uint64_t m_next_serial = 0;
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<InFlight>> m_in_flight;
  std::vector<DramBankView> m_views;
  std::vector<uint32_t> m_bank_queued;  // requests queued per bank
  // The latency model: per bank with requests queued, the first cycle it may start one (its open
  // row's once ready if one is queued for it, else a row change's), kept by update_bank_start.
  std::vector<Cycle> m_bank_start;
  DramRowIndex m_rows;  // ... and per row of each bank
  uint64_t m_seq = 0;
  Cycle m_last_accept = kNever;
  DramRequestLog* m_log = nullptr;
  uint32_t m_channel = 0;

  // Statistics (controller cycles).
  uint64_t m_requests = 0, m_reads = 0, m_writes = 0, m_hits = 0, m_empties = 0, m_conflicts = 0;
  uint64_t m_activates = 0, m_precharges = 0, m_refreshes = 0, m_idle_refreshes = 0,
           m_read_latency_sum = 0, m_write_drains = 0;
  uint64_t m_latency_sum = 0, m_latency_max = 0, m_bytes = 0, m_max_queue = 0;
  uint64_t m_first_arrival = ~0ull, m_last_done = 0;  // none yet: ~0 and 0
  uint64_t m_bus_busy = 0;  // the timing model's bus busy cycles, counted here as they grow (a
                            // counter the statistics own)
  uint64_t active_cycles() const {
    return m_last_done > m_first_arrival ? m_last_done - m_first_arrival : 0;
  }

  // Waves (only updated once start_waves() was called).
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
