#include "models/analytical/gpu_params.h"

#include <limits>
#include <sstream>

#include "models/common/config_reader.h"
#include "models/common/error.h"

namespace gputlm::analytical {
namespace {

// Shortest readable form of a value for an error message (10 significant digits, no trailing
// zeros).
std::string num(double v) {
  std::ostringstream o;
  o.precision(10);
  o << v;
  return o.str();
}

[[noreturn]] void bad(const std::string& where, const std::string& key, const std::string& why) {
  throw ConfigError(where, key, why);
}
void positive(const std::string& where, const char* key, double v) {
  if (!(v > 0)) bad(where, key, "must be greater than 0 (is " + num(v) + ")");
}
void non_negative(const std::string& where, const char* key, double v) {
  if (!(v >= 0)) bad(where, key, "must not be negative (is " + num(v) + ")");
}

}  // namespace

void GpuParams::validate(const std::string& where) const {
  if (sm_count < 1) bad(where, "sm_count", "must be at least 1");
  positive(where, "freq_ghz", freq_ghz);                      // Eq. 7 numerator
  positive(where, "mem_bandwidth_gbps", mem_bandwidth_gbps);  // Eq. 6 numerator; 0 would make MWP 0
  positive(where, "mem_ld", mem_ld);
  // Departure_delay is the divisor of Eq. 16, so both gaps must be positive.
  positive(where, "departure_del_uncoal", departure_del_uncoal);
  positive(where, "departure_del_coal", departure_del_coal);
  positive(where, "issue_cycles", issue_cycles);  // Eq. 8 divides by Comp_cycles
  if (threads_per_warp < 1) bad(where, "threads_per_warp", "must be at least 1");
  non_negative(where, "load_bytes_per_warp", load_bytes_per_warp);  // 0: per kernel
  // A warp of T threads makes at most T transactions; 0 defers to the kernel (CC 1.3).
  if (uncoal_per_mw != 0 && (uncoal_per_mw < 1 || uncoal_per_mw > threads_per_warp))
    bad(where, "uncoal_per_mw",
        "must be 0 (per kernel) or between 1 and threads_per_warp (is " + num(uncoal_per_mw) + ")");
  if (coal_per_mw != 1)
    bad(where, "coal_per_mw",
        "must be 1: only a single-transaction warp counts as coalesced (Hong & Kim footnote 8)");
  if (max_blocks_per_sm < 1) bad(where, "max_blocks_per_sm", "must be at least 1");
  if (max_threads_per_block < 1) bad(where, "max_threads_per_block", "must be at least 1");
  if (max_warps_per_sm < 1) bad(where, "max_warps_per_sm", "must be at least 1");
  non_negative(where, "graphics_clock_mhz", graphics_clock_mhz);
  non_negative(where, "memory_size_mb", memory_size_mb);
  non_negative(where, "peak_gflops", peak_gflops);
}

GpuParams GpuParams::from_json(const nlohmann::json& j, const std::string& where,
                               const GpuParams& base, const std::string& path) {
  // The reader checks types and unknown keys; ranges live in validate() only, so that a struct
  // built in code gets the same checks.
  constexpr double lo = std::numeric_limits<double>::lowest(),
                   hi = std::numeric_limits<double>::max();
  constexpr uint64_t u32 = std::numeric_limits<uint32_t>::max();
  GpuParams p = base;
  ConfigReader r(j, where, path);
  p.name = r.get_string("name", p.name);
  p.description = r.get_string("description", p.description);
  p.sm_count = static_cast<uint32_t>(r.get_uint("sm_count", p.sm_count, 0, u32));
  p.freq_ghz = r.get_double("freq_ghz", p.freq_ghz, lo, hi);
  p.mem_bandwidth_gbps = r.get_double("mem_bandwidth_gbps", p.mem_bandwidth_gbps, lo, hi);
  p.uncoal_per_mw = r.get_double("uncoal_per_mw", p.uncoal_per_mw, lo, hi);
  p.coal_per_mw = r.get_double("coal_per_mw", p.coal_per_mw, lo, hi);
  p.mem_ld = r.get_double("mem_ld", p.mem_ld, lo, hi);
  p.departure_del_uncoal = r.get_double("departure_del_uncoal", p.departure_del_uncoal, lo, hi);
  p.departure_del_coal = r.get_double("departure_del_coal", p.departure_del_coal, lo, hi);
  p.issue_cycles = r.get_double("issue_cycles", p.issue_cycles, lo, hi);
  p.threads_per_warp =
      static_cast<uint32_t>(r.get_uint("threads_per_warp", p.threads_per_warp, 0, u32));
  p.load_bytes_per_warp = r.get_double("load_bytes_per_warp", p.load_bytes_per_warp, lo, hi);
  p.max_blocks_per_sm =
      static_cast<uint32_t>(r.get_uint("max_blocks_per_sm", p.max_blocks_per_sm, 0, u32));
  p.max_threads_per_block =
      static_cast<uint32_t>(r.get_uint("max_threads_per_block", p.max_threads_per_block, 0, u32));
  p.max_warps_per_sm =
      static_cast<uint32_t>(r.get_uint("max_warps_per_sm", p.max_warps_per_sm, 0, u32));
  p.sp_cores = static_cast<uint32_t>(r.get_uint("sp_cores", p.sp_cores, 0, u32));
  p.graphics_clock_mhz = r.get_double("graphics_clock_mhz", p.graphics_clock_mhz, lo, hi);
  p.memory_size_mb = r.get_double("memory_size_mb", p.memory_size_mb, lo, hi);
  p.peak_gflops = r.get_double("peak_gflops", p.peak_gflops, lo, hi);
  p.compute_capability = r.get_string("compute_capability", p.compute_capability);
  r.finish();
  p.validate(path.empty() ? where : where + " (\"" + path + "\")");
  return p;
}

GpuParams GpuParams::from_file(const std::string& path) {
  return from_json(read_json_file(path), path);
}

}  // namespace gputlm::analytical
