// The MWP/CWP model's machine constants (analytical::GpuParams) for a simulated GPU, so that every
// timing run can put the model's prediction beside its own cycles. Each value is derived from the
// GPU config where the config determines it, and any of them may be set in the config's
// "analytical" section (the keys of configs/analytical/*.json), which wins over the derivation.
//
// Derived (all in core cycles; chosen here, the paper fits the memory values on hardware,
// Sec. 5.1):
//   sm_count            cores
//   freq_ghz            core clock
//   mem_bandwidth_gbps  partitions x one DRAM channel's peak (latency model: bandwidth_gbps;
//                       command model: bus_bytes x data_rate x clock)
//   issue_cycles        the longest of the fetch stage's cycles per instruction, the execute
//                       stage's issue_interval and the integer ALU's passes (32 / lanes x interval)
//                       (Table 1 row 2: 32 threads on 8 SPs = 4)
//   mem_ld              an unloaded line read that misses every cache: L1 hit latency, the
//                       interconnect both ways (latency plus the response's flits), the L2's hit
//                       latency if there is an L2, and the DRAM's access to a closed row plus the
//                       line's transfer (Mem_LD, Table 6)
//   departure_del_coal  the longest a line occupies a shared resource on its way back: the
//   departure_del_uncoal  response flits on the interconnect or the transfer on one DRAM channel,
//                       at least one cycle (the D-cache port takes a line a cycle); the same for
//                       both, since our uncoalesced accesses also move whole lines
//   uncoal_per_mw       0: taken per launch from the run (line requests per uncoalesced
//   instruction) load_bytes_per_warp 0: per launch, the bytes its memory warp instructions moved (a
//   line per
//                       request: an uncoalesced warp moves up to 32 lines, where the paper's
//                       Table 1 row 21 charges every warp 128 B, digest 2.10.9)
//   max_blocks_per_sm, max_threads_per_block, max_warps_per_sm: the core's CTA, thread and warp
//   limits
#pragma once

#include "models/analytical/gpu_params.h"

namespace gputlm::gpu {

struct GpuSpec;

analytical::GpuParams derived_analytical_params(const GpuSpec& spec);

}  // namespace gputlm::gpu
