// What a DRAM request found in its bank's row buffer, counted at its first step (the latency
// model: its access; the command model: its first command).
#pragma once

#include <cstdint>

namespace gputlm::mem {

enum class RowOutcome : uint8_t {
  Hit,      // its row was open: RD/WR
  Empty,    // no row was open: ACT first
  Conflict  // another row was open: PRE first
};

}  // namespace gputlm::mem
