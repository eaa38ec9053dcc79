// A DRAM controller's statistics, in controller cycles: the module shell (dram_controller.cpp)
// registers them and counts what reaches it (requests, latencies, bytes, queue occupancy); its
// timing model (dram_timing.h) counts the row outcomes and commands it issues and the data bus's
// busy cycles.
#pragma once

#include <cstdint>

#include "models/mem/dram/dram_row_outcome.h"

namespace gputlm::mem {

struct DramCounters {
  uint64_t requests = 0, reads = 0, writes = 0, hits = 0, empties = 0, conflicts = 0;
  uint64_t activates = 0, precharges = 0, refreshes = 0, idle_refreshes = 0, read_latency_sum = 0,
           write_drains = 0;
  uint64_t latency_sum = 0, latency_max = 0, bytes = 0, max_queue = 0;
  uint64_t first_arrival = ~0ull, last_done = 0;  // none yet: ~0 and 0
  uint64_t bus_busy = 0;  // the timing model's bus busy cycles, counted as they grow

  void count(RowOutcome outcome) {
    (outcome == RowOutcome::Hit ? hits : outcome == RowOutcome::Empty ? empties : conflicts)++;
  }
  uint64_t active_cycles() const {
    return last_done > first_arrival ? last_done - first_arrival : 0;
  }
};

}  // namespace gputlm::mem
