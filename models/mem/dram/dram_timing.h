// How long a DRAM access takes in the papers' latency abstraction (timing_model "latency"): a
// plain C++ model of bank and data-bus state. The controller module asks whether a bank can take
// an access, issues one, and gets back the row-buffer outcome and the cycle its data transfer
// ends. (The command model schedules single commands instead: dram_device.h.)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "models/common/clock.h"
#include "models/mem/dram/dram_spec.h"

namespace gputlm::mem {

enum class RowOutcome : uint8_t { Hit, Empty, Conflict };

// What the waves show per bank.
enum class DramCommand : uint8_t {
  Idle = 0,
  Activate = 1,
  Read = 2,
  Write = 3,
  Precharge = 4,
  Refresh = 5
};

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

class IDramTiming {
 public:
  virtual ~IDramTiming() = default;
  // The first cycle at or after `now` when `bank` can start a new access.
  virtual Cycle bank_ready(uint32_t bank, Cycle now) const = 0;
  // The first cycle at or after `now` when `bank` can start an access to a row other than the
  // open one (later than bank_ready where a row change waits for earlier accesses to finish).
  virtual Cycle row_change_ready(uint32_t bank, Cycle now) const { return bank_ready(bank, now); }
  // The row open in `bank` (none after a precharge or before the first access).
  virtual std::optional<uint64_t> open_row(uint32_t bank) const = 0;
  // Starts `a` at `now` (bank_ready(a.bank, now) == now). `keep_open` is the page policy's
  // decision for after the access (false: precharge at once).
  virtual DramIssue issue(const DramAccess& a, Cycle now, bool keep_open) = 0;
  // Cycles the data bus has been busy so far.
  virtual Cycle bus_busy_cycles() const = 0;
};

// The latency model of `spec`.
std::unique_ptr<IDramTiming> make_dram_timing(const DramSpec& spec);

}  // namespace gputlm::mem
