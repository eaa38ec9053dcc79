// The per-kernel inputs of the MWP/CWP model (Hong & Kim, ISCA 2009, Table 1 rows 8-18 and 20).
//
// Instruction counts are dynamic counts PER THREAD (Sec. 3.4.3), i.e. per warp, since every thread
// of a warp runs the same stream (the model has no divergence, Sec. 3.5). They are doubles so that
// a trace can hand in the average over warps; the paper's own counts are integers. Counting rules
// (Sec. 3.6, digest 2.8 and 2.10.10): only global loads/stores are memory instructions;
// shared-memory accesses, bar.sync, setp and branches are computation instructions; a memory
// instruction is coalesced only if the warp's requests form ONE transaction (footnote 8).
#pragma once

#include <cstdint>
#include <optional>

namespace gputlm::analytical {

struct KernelInputs {
  // --- Launch configuration (Table 1 rows 8, 9).
  uint32_t threads_per_block = 0;
  uint32_t blocks = 0;

  // --- Occupancy (Table 1 rows 10, 11): from the CUDA occupancy calculator [22] or the simulator's
  // block dispatcher. Give the number of blocks actually resident on an SM.
  uint32_t active_blocks_per_sm = 0;
  // #Active_SMs. Unset: min(GpuParams::sm_count, blocks), every SM that gets a block
  // (digest 2.10.7).
  std::optional<uint32_t> active_sms;

  // --- Dynamic instruction counts per thread (Table 1 rows 14-18).
  double comp_insts = 0;        // #Comp_insts: every non-global-memory instruction
  double coal_mem_insts = 0;    // #Coal_Mem_insts
  double uncoal_mem_insts = 0;  // #Uncoal_Mem_insts
  double synch_insts = 0;       // #Synch_insts (also counted in comp_insts, as in Table 2)

  // --- Per-kernel overrides of machine values.
  // #Uncoal_per_mw (Table 1 row 20): required when the GPU's is 0 (CC 1.3, where the transaction
  // count depends on the access pattern, Sec. 3.4.5); may be an average.
  std::optional<double> uncoal_per_mw;
  // Load_bytes_per_warp (Table 1 row 21): data size x 32; default the GPU's 4 B x 32.
  std::optional<double> load_bytes_per_warp;

  // #Mem_insts = #Coal_Mem_insts + #Uncoal_Mem_insts (Table 1 row 15; Eq. 13/14 denominators).
  double mem_insts() const { return coal_mem_insts + uncoal_mem_insts; }
  // #Total_insts = #Comp_insts + #Mem_insts (Table 1 row 13; Eq. 19, 25).
  double total_insts() const { return comp_insts + mem_insts(); }
};

}  // namespace gputlm::analytical
