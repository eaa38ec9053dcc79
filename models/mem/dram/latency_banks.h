// The banks and data bus of one channel as the latency model sees them (timing_model "latency",
// the papers' abstraction): a plain C++ model of each bank's open row and busy time and of the
// bus. The latency model (latency_model.h) asks whether a bank can take an access, issues one,
// and gets back the row-buffer outcome and the cycle its data transfer ends. (The command model's
// counterpart schedules single commands: dram_device.h.)
//
// A row hit takes row_hit cycles and is pipelined (a bank starts one a cycle), a row conflict
// takes row_conflict cycles of which row_conflict - row_hit keep the bank busy opening the row
// (so conflicts in one bank serialise), an access to a closed bank takes row_empty (Narasiman
// dissertation Table 5.1 and section 6.6). With conflict_busy "access", a row change also waits
// until the bank's earlier accesses are done. The bus moves one transfer at a time: with
// bus_order "issue" in the order accesses start (a hit behind a conflict of another bank waits
// for that conflict's data), with "data" each in the first free bus slot once its data is ready.
// Latencies count to the end of the data transfer; the data bus moves bandwidth_gbps, so a line
// occupies it for line bytes / (bytes per cycle) cycles and transfers never overlap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "models/common/clock.h"
#include "models/mem/dram/dram_row_outcome.h"
#include "models/mem/dram/dram_spec.h"

namespace gputlm::mem {

struct DramAccess {
  uint32_t bank = 0;
  uint64_t row = 0;
  bool write = false;
  uint32_t bytes = 128;
};

struct DramIssue {
  RowOutcome outcome = RowOutcome::Hit;
  Cycle done = 0;       // last cycle of the data transfer; the response leaves then
  Cycle bus_start = 0;  // first cycle of the data transfer
  // Command times for the waves (equal to the issue cycle where a command is not needed).
  Cycle precharge_at = 0, activate_at = 0, column_at = 0;
  bool precharged = false, activated = false;
};

class LatencyBanks {
 public:
  explicit LatencyBanks(const DramSpec& spec);

  // The first cycle at or after `now` when `bank` can start a new access.
  Cycle bank_ready(uint32_t bank, Cycle now) const { return std::max(now, m_banks[bank].ready_at); }
  // The first cycle at or after `now` when `bank` can start an access to a row other than the
  // open one (later than bank_ready where a row change waits for earlier accesses to finish).
  Cycle row_change_ready(uint32_t bank, Cycle now) const {
    return std::max({now, m_banks[bank].ready_at, m_banks[bank].change_at});
  }
  // The row open in `bank` (none after a precharge or before the first access).
  std::optional<uint64_t> open_row(uint32_t bank) const { return m_banks[bank].open_row; }
  // Starts `a` at `now` (bank_ready(a.bank, now) == now). `keep_open` is the page policy's
  // decision for after the access (false: precharge at once).
  DramIssue issue(const DramAccess& a, Cycle now, bool keep_open);
  // Cycles the data bus has been busy so far.
  Cycle bus_busy_cycles() const { return m_bus_busy; }

 private:
  struct Bank {
    std::optional<uint64_t> open_row;
    Cycle ready_at = 0;
    Cycle change_at = 0;  // conflict_busy "access": when the last access's data is out
  };
  // The first start at or after `earliest` of `length` free bus cycles; reserves them. Drops the
  // reservations that ended by `now` (every later access's data comes later still).
  Cycle free_slot(Cycle now, Cycle earliest, Cycle length);

  LatencyTiming m_t;
  double m_bytes_per_cycle;
  bool m_access_busy;
  bool m_data_order;
  std::map<Cycle, Cycle> m_reserved;  // bus_order "data": transfers to come, start -> end
  std::vector<Bank> m_banks;
  Cycle m_bus_free = 0;
  Cycle m_bus_busy = 0;
};

}  // namespace gputlm::mem
