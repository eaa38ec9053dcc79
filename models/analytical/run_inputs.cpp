#include "models/analytical/run_inputs.h"

#include <algorithm>

#include "models/common/error.h"

namespace gputlm::analytical {

KernelInputs inputs_from_run(const LaunchCounts& c) {
  if (c.threads_per_block == 0 || c.blocks == 0 || c.sms == 0 || c.threads_per_warp == 0)
    throw InputError("MWP/CWP inputs: a launch with no threads, blocks or cores");
  if (c.blocks_that_fit_per_sm == 0)
    throw InputError("MWP/CWP inputs: no CTA of the launch fits on a core");
  const double warps_per_block =
      (c.threads_per_block + c.threads_per_warp - 1) / c.threads_per_warp;
  const double warps = warps_per_block * static_cast<double>(c.blocks);
  const uint64_t memory = c.coalesced_memory_instructions + c.uncoalesced_memory_instructions;
  KernelInputs k;
  k.threads_per_block = c.threads_per_block;
  k.blocks = static_cast<uint32_t>(c.blocks);
  k.active_sms = static_cast<uint32_t>(std::min<uint64_t>(c.sms, c.blocks));
  // A core holds what fits, but never more than its share of the grid.
  const uint64_t share = (c.blocks + *k.active_sms - 1) / *k.active_sms;
  k.active_blocks_per_sm =
      static_cast<uint32_t>(std::min<uint64_t>(c.blocks_that_fit_per_sm, share));
  k.comp_insts =
      static_cast<double>(c.warp_instructions - std::min(memory, c.warp_instructions)) / warps;
  k.coal_mem_insts = static_cast<double>(c.coalesced_memory_instructions) / warps;
  k.uncoal_mem_insts = static_cast<double>(c.uncoalesced_memory_instructions) / warps;
  k.synch_insts = static_cast<double>(c.barrier_instructions) / warps;
  if (c.line_bytes && memory)
    k.load_bytes_per_warp = double(c.line_bytes) *
                            double(c.coalesced_memory_instructions + c.uncoalesced_line_requests) /
                            double(memory);
  if (c.uncoalesced_memory_instructions)
    k.uncoal_per_mw = static_cast<double>(c.uncoalesced_line_requests) /
                      static_cast<double>(c.uncoalesced_memory_instructions);
  return k;
}

}  // namespace gputlm::analytical
