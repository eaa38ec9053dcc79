#include "models/analytical/mwp_cwp_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "models/common/error.h"

namespace gputlm::analytical {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Shortest readable form of a value for an error message (10 significant digits, no trailing
// zeros).
std::string num(double v) {
  std::ostringstream o;
  o.precision(10);
  o << v;
  return o.str();
}

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw ConfigError("kernel inputs", field, why);
}

void check_count(const char* field, double v) {
  if (!std::isfinite(v) || v < 0) bad(field, "must be a finite count >= 0 (is " + num(v) + ")");
}

// Rejects inputs that make an equation undefined or describe an occupancy the GPU cannot hold.
void check_inputs(const GpuParams& gpu, const KernelInputs& k) {
  if (k.threads_per_block < 1 || k.threads_per_block > gpu.max_threads_per_block)
    bad("threads_per_block", "must be between 1 and " + std::to_string(gpu.max_threads_per_block) +
                                 " (is " + std::to_string(k.threads_per_block) + ")");
  if (k.blocks < 1) bad("blocks", "must be at least 1");
  if (k.active_blocks_per_sm < 1 || k.active_blocks_per_sm > gpu.max_blocks_per_sm)
    bad("active_blocks_per_sm", "must be between 1 and " + std::to_string(gpu.max_blocks_per_sm) +
                                    " (is " + std::to_string(k.active_blocks_per_sm) + ")");
  const uint64_t hw_warps = (k.threads_per_block + gpu.threads_per_warp - 1) / gpu.threads_per_warp;
  if (hw_warps * k.active_blocks_per_sm > gpu.max_warps_per_sm)
    bad("active_blocks_per_sm", std::to_string(k.active_blocks_per_sm) + " blocks of " +
                                    std::to_string(hw_warps) + " warps exceed max_warps_per_sm " +
                                    std::to_string(gpu.max_warps_per_sm));
  if (k.active_sms && (*k.active_sms < 1 || *k.active_sms > gpu.sm_count))
    bad("active_sms", "must be between 1 and sm_count " + std::to_string(gpu.sm_count));
  check_count("comp_insts", k.comp_insts);
  check_count("coal_mem_insts", k.coal_mem_insts);
  check_count("uncoal_mem_insts", k.uncoal_mem_insts);
  check_count("synch_insts", k.synch_insts);
  // Eq. 8 divides by Comp_cycles = Issue_cycles x #Total_insts.
  if (!(k.total_insts() > 0))
    bad("comp_insts", "the kernel has no instructions (comp_insts + mem insts is 0)");
  if (k.uncoal_per_mw && !(*k.uncoal_per_mw >= 1 && *k.uncoal_per_mw <= gpu.threads_per_warp))
    bad("uncoal_per_mw",
        "must be between 1 and threads_per_warp (is " + num(*k.uncoal_per_mw) + ")");
  if (k.uncoal_mem_insts > 0 && !k.uncoal_per_mw && gpu.uncoal_per_mw == 0)
    bad("uncoal_per_mw", "is required: GPU '" + gpu.name +
                             "' leaves the transactions per uncoalesced warp to the access pattern "
                             "(Hong & Kim Sec. 3.4.5)");
  if (k.load_bytes_per_warp && !(*k.load_bytes_per_warp > 0))
    bad("load_bytes_per_warp", "must be greater than 0");
  if (k.mem_insts() > 0 && !k.load_bytes_per_warp && gpu.load_bytes_per_warp == 0)
    bad("load_bytes_per_warp",
        "is required: GPU '" + gpu.name + "' leaves the bytes a memory warp moves to the kernel");
}

// Digest 2.10.4: Table 2 prints ratios to 2 decimals (MWP 2.28, MWP_peak_BW 28.57, CWP_full 34.18),
// BW_per_warp to 3 (0.175 GB/s), and Exec_cycles_app 38449.21 as 38450, i.e. to 10 cycles; each
// later step uses the printed value (Synch_cost 12288 = 320 x (2.28 - 1) x 6 x 5).
double round_to(double v, double quantum, const ModelOptions& o) {
  if (o.rounding_2_10_4 == Rounding::Exact || !std::isfinite(v)) return v;
  return std::round(v / quantum) * quantum;
}

// Eq. 20, 21 and the values a kernel may override.
void launch(const GpuParams& gpu, const KernelInputs& k, const ModelOptions& o, ModelResult& r) {
  r.warps_per_block = static_cast<double>(k.threads_per_block) / gpu.threads_per_warp;
  if (o.warps_per_block_2_9_5 == WarpsPerBlock::Ceil)
    r.warps_per_block = std::ceil(r.warps_per_block);
  r.n = r.warps_per_block * k.active_blocks_per_sm;                                // Eq. 20
  r.active_sms = k.active_sms ? *k.active_sms : std::min(gpu.sm_count, k.blocks);  // digest 2.10.7
  r.rep = static_cast<double>(k.blocks) /
          (static_cast<double>(k.active_blocks_per_sm) * r.active_sms);  // Eq. 21
  if (o.rep_2_10_5 == RepCount::Ceil) r.rep = std::ceil(r.rep);
  // With no uncoalesced instruction the count only feeds Mem_L_Uncoal, which has weight 0; a GPU
  // that defers it to the kernel then reports 1 (one transaction: Mem_L_Uncoal = Mem_LD).
  r.uncoal_per_mw =
      k.uncoal_per_mw ? *k.uncoal_per_mw : (gpu.uncoal_per_mw > 0 ? gpu.uncoal_per_mw : 1);
  r.load_bytes_per_warp = k.load_bytes_per_warp ? *k.load_bytes_per_warp : gpu.load_bytes_per_warp;
}

// Hong & Kim Sec. 3.3.1, Eq. 10-15 and 18: latency of one memory warp, gap between memory warps.
void memory_latency(const GpuParams& gpu, const KernelInputs& k, ModelResult& r) {
  const double mem = k.mem_insts();
  r.mem_l_uncoal = gpu.mem_ld + (r.uncoal_per_mw - 1) * gpu.departure_del_uncoal;        // Eq. 10
  r.mem_l_coal = gpu.mem_ld;                                                             // Eq. 11
  r.mem_cycles = r.mem_l_uncoal * k.uncoal_mem_insts + r.mem_l_coal * k.coal_mem_insts;  // Eq. 18
  if (mem == 0) return;  // no memory warps: weights, Mem_L and Departure_delay stay 0
  r.weight_uncoal = k.uncoal_mem_insts / mem;                                 // Eq. 13
  r.weight_coal = k.coal_mem_insts / mem;                                     // Eq. 14
  r.mem_l = r.mem_l_uncoal * r.weight_uncoal + r.mem_l_coal * r.weight_coal;  // Eq. 12
  r.departure_delay = gpu.departure_del_uncoal * r.uncoal_per_mw * r.weight_uncoal +
                      gpu.departure_del_coal * r.weight_coal;  // Eq. 15
}

// Hong & Kim Sec. 3.3.1, Eq. 5-7, 16, 17.
void memory_warp_parallelism(const GpuParams& gpu, const KernelInputs& k, const ModelOptions& o,
                             ModelResult& r) {
  if (k.mem_insts() == 0) {
    // Nothing but N limits the overlap of memory warps that do not exist (see evaluate()).
    r.mwp_without_bw_full = r.mwp_peak_bw = kInf;
  } else {
    r.mwp_without_bw_full = round_to(r.mem_l / r.departure_delay, 0.01, o);  // Eq. 16
    // GHz x bytes / cycles = GB/s.
    r.bw_per_warp_gbps =
        round_to(gpu.freq_ghz * r.load_bytes_per_warp / r.mem_l, 0.001, o);  // Eq. 7
    r.mwp_peak_bw =
        round_to(gpu.mem_bandwidth_gbps / (r.bw_per_warp_gbps * r.active_sms), 0.01, o);  // Eq. 6
  }
  r.mwp_without_bw = std::min(r.mwp_without_bw_full, r.n);   // Eq. 17
  r.mwp = std::min({r.mwp_without_bw, r.mwp_peak_bw, r.n});  // Eq. 5
  if (r.n <= r.mwp_without_bw_full && r.n <= r.mwp_peak_bw)
    r.mwp_limit = MwpLimit::ActiveWarps;
  else if (r.mwp_without_bw_full <= r.mwp_peak_bw)
    r.mwp_limit = MwpLimit::DepartureDelay;
  else
    r.mwp_limit = MwpLimit::PeakBandwidth;
}

// Hong & Kim Sec. 3.3.2, Eq. 8, 9, 19 and Eq. 2.
void computation_warp_parallelism(const GpuParams& gpu, const KernelInputs& k,
                                  const ModelOptions& o, ModelResult& r) {
  r.comp_cycles = gpu.issue_cycles * k.total_insts();  // Eq. 19: memory insts issue too
  r.comp_p = k.mem_insts() > 0 ? r.comp_cycles / k.mem_insts() : 0;                // Eq. 2
  r.cwp_full = round_to((r.mem_cycles + r.comp_cycles) / r.comp_cycles, 0.01, o);  // Eq. 8
  r.cwp = std::min(r.cwp_full, r.n);                                               // Eq. 9
}

// Hong & Kim Sec. 3.4.2, Eq. 22-24, tried in the printed order (digest 2.10.3). "MWP is N" and
// "CWP is N" are exact here: Eq. 5 and 9 return N itself when N is the binding term, so comparing
// with N and asking which term bound the MIN agree.
void execution_time(const KernelInputs& k, const ModelOptions& o, ModelResult& r) {
  r.issue_bound = r.n * r.comp_cycles * r.rep;
  if (k.mem_insts() == 0) {
    r.exec_case = ExecCase::NoMemory;
    r.exec_cycles_app = r.issue_bound;
  } else if (r.mwp >= r.n && r.cwp_full >= r.n) {
    r.exec_case = ExecCase::Eq22;
    r.exec_cycles_app = (r.mem_cycles + r.comp_cycles + r.comp_p * (r.mwp - 1)) * r.rep;  // Eq. 22
  } else if (r.cwp >= r.mwp || (o.comp_over_mem_2_10_2 != CompOverMem::Case5UsesEq24 &&
                                r.comp_cycles > r.mem_cycles)) {
    r.exec_case = ExecCase::Eq23;
    r.via_comp_over_mem = !(r.cwp >= r.mwp);
    // Digest 2.10.1: Eq. 23 hides all but MWP - 1 computation periods; Eq. 1 all but MWP.
    const double periods = o.comp_periods_2_10_1 == CompPeriods::Eq1Mwp ? r.mwp : r.mwp - 1;
    r.exec_cycles_app = (r.mem_cycles * r.n / r.mwp + r.comp_p * periods) * r.rep;  // Eq. 23
    // Eq. 22 and 24 never fall below the issue bound; Eq. 23 can (digest 2.10.2, test vector E).
    if (o.comp_over_mem_2_10_2 == CompOverMem::ClampToIssueBound &&
        r.exec_cycles_app < r.issue_bound) {
      r.exec_cycles_app = r.issue_bound;
      r.clamped_to_issue_bound = true;
    }
  } else {
    r.exec_case = ExecCase::Eq24;
    r.exec_cycles_app = (r.mem_l + r.comp_cycles * r.n) * r.rep;  // Eq. 24
  }
  r.exec_cycles_app = round_to(r.exec_cycles_app, 10, o);
}

// Hong & Kim Sec. 3.4.6 (Eq. 26, 27) and Sec. 3.4.4 (Eq. 25).
void synch_and_cpi(const KernelInputs& k, ModelResult& r) {
  r.synch_cost =
      r.departure_delay * (r.mwp - 1) * k.synch_insts * k.active_blocks_per_sm * r.rep;  // Eq. 26
  r.exec_cycles_with_synch = r.exec_cycles_app + r.synch_cost;                           // Eq. 27
  // Warp instructions one SM executes: per-thread count x warps per block x blocks per SM.
  const double warp_insts =
      k.total_insts() * r.warps_per_block * (static_cast<double>(k.blocks) / r.active_sms);
  r.cpi = r.exec_cycles_app / warp_insts;  // Eq. 25
  r.cpi_with_synch = r.exec_cycles_with_synch / warp_insts;
}

}  // namespace

const char* to_string(ExecCase c) {
  switch (c) {
    case ExecCase::NoMemory:
      return "no-memory";
    case ExecCase::Eq22:
      return "eq22";
    case ExecCase::Eq23:
      return "eq23";
    case ExecCase::Eq24:
      return "eq24";
  }
  return "?";
}

const char* to_string(MwpLimit l) {
  switch (l) {
    case MwpLimit::DepartureDelay:
      return "departure-delay";
    case MwpLimit::PeakBandwidth:
      return "peak-bandwidth";
    case MwpLimit::ActiveWarps:
      return "active-warps";
  }
  return "?";
}

ModelResult evaluate(const GpuParams& gpu, const KernelInputs& kernel,
                     const ModelOptions& options) {
  check_inputs(gpu, kernel);
  ModelResult r;
  launch(gpu, kernel, options, r);
  memory_latency(gpu, kernel, r);
  memory_warp_parallelism(gpu, kernel, options, r);
  computation_warp_parallelism(gpu, kernel, options, r);
  execution_time(kernel, options, r);
  synch_and_cpi(kernel, r);
  return r;
}

}  // namespace gputlm::analytical
