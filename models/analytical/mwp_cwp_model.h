// The MWP/CWP analytical model of Hong & Kim, "An Analytical Model for a GPU Architecture with
// Memory-level and Thread-level Parallelism Awareness", ISCA 2009 (Sec. 3, Eq. 5-27).
//
// What it models: one SM of a Tesla-generation GPU running N active warps that alternate
// computation periods with memory waiting periods; DRAM is one queue per SM with a fixed latency
// per memory warp (Mem_L) and a minimum departure gap (Departure_delay), each SM getting an equal
// share of the bandwidth (Sec. 3.3.1, Fig. 9). MWP = how many memory warps overlap, CWP = how many
// warps compute during one memory wait, plus one. Comparing MWP, CWP and N picks Eq. 22/23/24.
// What it abstracts away (Sec. 3.5, 5.2): caches, bank conflicts, SFU latency, branch divergence,
// dependency stalls, block-granularity retirement.
//
// Where the paper is inconsistent or silent (digest section 2.10), ModelOptions selects the
// reading; each default is the paper's literal text, except rounding, which defaults to exact
// arithmetic (the paper rounds only in its printed Table 2).
#pragma once

#include <string>

#include "models/analytical/gpu_params.h"
#include "models/analytical/kernel_inputs.h"

namespace gputlm::analytical {

// Digest 2.10.1. Eq. 1 (Sec. 3.2.1, Fig. 5) charges MWP computation periods on top of the memory
// time; Eq. 23, used by the paper for applications and Table 2, charges MWP - 1.
enum class CompPeriods { Eq23MwpMinusOne, Eq1Mwp };

// Digest 2.10.2. Eq. 23's condition reads "(CWP >= MWP) or (Comp_cycles > Mem_cycles)".
//  Literal: as printed; with MWP < N the result can fall below the issue bound N x Comp_cycles.
//  ClampToIssueBound: literal branch choice, but an Eq. 23 result is raised to N x Comp_cycles x
//    #Rep, the cycles a single-issue SM needs just to issue every warp instruction.
//  Case5UsesEq24: drop the "or" clause, so Comp_cycles > Mem_cycles with MWP > CWP takes Eq. 24,
//    which is what Sec. 3.2.2 says of Case 5 (Fig. 7): "8 computation periods + 1 memory period".
enum class CompOverMem { Literal, ClampToIssueBound, Case5UsesEq24 };

// Digest 2.10.4. Exact: double arithmetic throughout. PaperTable2: round as the printed Table 2
// does, so that its worked example gives 50738 (see round_as_table2 in the .cpp).
enum class Rounding { Exact, PaperTable2 };

// Digest 2.10.5. Eq. 21 divides #Blocks by the blocks one wave holds; the paper never rounds it.
// Ceil charges a partly filled last wave as a whole wave (tail effect).
enum class RepCount { RealDivision, Ceil };

// Digest 2.9, error source 5: N = #Threads_per_block / #Threads_per_warp x blocks (Table 2:
// "128/32 x 5"). With a block size that is not a multiple of 32 the paper's division gives a
// fractional warp count; Ceil counts the warps the hardware actually allocates. Used by Eq. 20
// and 25.
enum class WarpsPerBlock { RealDivision, Ceil };

struct ModelOptions {
  CompPeriods comp_periods_2_10_1 = CompPeriods::Eq23MwpMinusOne;
  CompOverMem comp_over_mem_2_10_2 = CompOverMem::Literal;
  Rounding rounding_2_10_4 = Rounding::Exact;
  RepCount rep_2_10_5 = RepCount::RealDivision;
  WarpsPerBlock warps_per_block_2_9_5 = WarpsPerBlock::RealDivision;
};

// Which formula gave Exec_cycles_app.
enum class ExecCase {
  NoMemory,  // #Mem_insts == 0: the issue bound N x Comp_cycles x #Rep (see evaluate())
  Eq22,      // MWP == N and CWP == N: not enough warps (Sec. 3.2.3)
  Eq23,      // CWP >= MWP (or Comp_cycles > Mem_cycles): memory-bound (Sec. 3.2.1)
  Eq24,      // MWP > CWP: computation-bound (Sec. 3.2.2)
};
const char* to_string(ExecCase c);

// Which term of Eq. 5's MIN set MWP.
enum class MwpLimit { DepartureDelay, PeakBandwidth, ActiveWarps };
const char* to_string(MwpLimit l);

// Every intermediate of the model, named as in the paper. Cycles are SM cycles per SM.
struct ModelResult {
  // Derived launch quantities.
  double warps_per_block = 0;      // #Threads_per_block / #Threads_per_warp
  double n = 0;                    // N = #Active_warps_per_SM (Eq. 20)
  uint32_t active_sms = 0;         // #Active_SMs
  double rep = 0;                  // #Rep (Eq. 21)
  double uncoal_per_mw = 0;        // #Uncoal_per_mw used
  double load_bytes_per_warp = 0;  // Load_bytes_per_warp used

  // Memory latency (Eq. 10-15).
  double weight_uncoal = 0, weight_coal = 0;  // Eq. 13, 14
  double mem_l_uncoal = 0, mem_l_coal = 0;    // Eq. 10, 11
  double mem_l = 0;                           // Eq. 12
  double departure_delay = 0;                 // Eq. 15

  // MWP (Eq. 5-7, 16, 17).
  double mwp_without_bw_full = 0;  // Eq. 16
  double mwp_without_bw = 0;       // Eq. 17
  double bw_per_warp_gbps = 0;     // Eq. 7
  double mwp_peak_bw = 0;          // Eq. 6
  double mwp = 0;                  // Eq. 5
  MwpLimit mwp_limit = MwpLimit::DepartureDelay;

  // Per-warp cycles and CWP (Eq. 8, 9, 18, 19, 2).
  double comp_cycles = 0;  // Eq. 19
  double mem_cycles = 0;   // Eq. 18
  double comp_p = 0;       // Eq. 2: Comp_cycles / #Mem_insts, one computation period
  double cwp_full = 0;     // Eq. 8
  double cwp = 0;          // Eq. 9

  // Execution time (Eq. 22-27) and CPI (Eq. 25).
  ExecCase exec_case = ExecCase::NoMemory;
  bool via_comp_over_mem =
      false;               // Eq. 23 was chosen only by its "Comp_cycles > Mem_cycles" clause
  double issue_bound = 0;  // N x Comp_cycles x #Rep: the SM issues every warp instruction
  bool clamped_to_issue_bound = false;
  double exec_cycles_app = 0;
  double synch_cost = 0;              // Eq. 26
  double exec_cycles_with_synch = 0;  // Eq. 27
  double cpi = 0;                     // Eq. 25 as printed: Exec_cycles_app over warp instructions
  double cpi_with_synch = 0;          // Eq. 25 with Exec_cycles_with_synch (digest 2.5)
};

// Evaluates Eq. 5-27 for one kernel on one GPU. Throws InputError naming the KernelInputs field of
// any input the model cannot evaluate (zero threads, blocks or instructions; occupancy above the
// GPU's limits; an uncoalesced count the GPU leaves to the kernel but the kernel does not give).
// `gpu` must have passed validate().
//
// Zero memory instructions (digest 2.10.6): Eq. 2, 13, 14, 22 and 23 divide by #Mem_insts and Eq.
// 16 by Departure_delay, none of which the paper defines at 0. The model then has no memory warps:
// Mem_L = Mem_cycles = Departure_delay = 0; nothing but N limits MWP, so MWP_Without_BW_full and
// MWP_peak_BW are +infinity and MWP = N; CWP_full = 1 (Eq. 8 with Mem_cycles = 0); Exec_cycles_app
// = N x Comp_cycles x #Rep, the issue bound, which is Eq. 24 with Mem_L = 0; Synch_cost = 0 since
// Departure_delay = 0 (Eq. 26).
ModelResult evaluate(const GpuParams& gpu, const KernelInputs& kernel,
                     const ModelOptions& options = {});

}  // namespace gputlm::analytical
