// A per-request DRAM trace (`gputlm run --dram-trace FILE`): one CSV line per request a DRAM
// controller serves, written when its data transfer ends. It says who asked (core, warp slot,
// instruction index), where the request went (bank, row, column) and what happened there (arrival,
// start and end in controller cycles, row hit / empty / conflict): the evidence behind a
// row-buffer hit rate. scripts/dram_trace_summary.py reads it.
#pragma once

#include <cstdint>
#include <ostream>

#include "models/common/clock.h"
#include "models/mem/dram/dram_row_outcome.h"
#include "models/mem/mem_extension.h"

namespace gputlm::mem {

struct DramRequestRecord {
  uint32_t channel = 0;
  const MemExtension* who = nullptr;  // the request's extension (core, warp, pc, kind, id)
  uint64_t address = 0;
  uint32_t bank = 0;
  uint64_t row = 0, column = 0;
  Cycle arrival = 0, start = 0, done = 0;  // controller cycles
  RowOutcome outcome = RowOutcome::Hit;
  uint32_t queued = 0;  // requests left in the queue when this one started
};

class DramRequestLog {
 public:
  explicit DramRequestLog(std::ostream& out);  // writes the header line
  void record(const DramRequestRecord& r);

 private:
  std::ostream& m_out;
};

}  // namespace gputlm::mem
