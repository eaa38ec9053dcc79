// The MWP/CWP model's kernel inputs measured on a simulated launch (digest 7.2): per-thread
// dynamic instruction counts are the launch's warp-instruction counts over the warps it ran (every
// thread of a warp runs the warp's stream, Sec. 3.4.3); a global or local memory warp instruction
// is coalesced when it made one line request and uncoalesced otherwise (footnote 8), and
// #Uncoal_per_mw is the mean line requests of the uncoalesced ones; barriers count as both
// computation and synchronisation instructions (Table 2); occupancy comes from the CTA
// dispatcher's limits.
#pragma once

#include <cstdint>

#include "models/analytical/kernel_inputs.h"

namespace gputlm::analytical {

struct LaunchCounts {
  uint32_t threads_per_block = 0;
  uint64_t blocks = 0;
  uint32_t blocks_that_fit_per_sm = 0;  // CTAs an empty core holds at once
  uint32_t sms = 0;                     // cores of the simulated GPU
  uint64_t warp_instructions = 0;       // retired, every class
  uint64_t coalesced_memory_instructions = 0;
  uint64_t uncoalesced_memory_instructions = 0;
  uint64_t uncoalesced_line_requests = 0;
  uint64_t barrier_instructions = 0;
  uint32_t threads_per_warp = 32;
  // Bytes one line request moves; nonzero: Load_bytes_per_warp is what the launch's memory warp
  // instructions moved on average (line_bytes x line requests / memory instructions), for GPUs
  // whose uncoalesced lanes each move a whole line (0: the GPU's Load_bytes_per_warp).
  uint32_t line_bytes = 0;
};

// Throws InputError if the launch ran no warps or no CTA fits on a core.
KernelInputs inputs_from_run(const LaunchCounts& c);

}  // namespace gputlm::analytical
