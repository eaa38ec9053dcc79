// The machine constants of the MWP/CWP analytical model (Hong & Kim, ISCA 2009, Table 1 rows 1-7,
// 19-21 and Tables 3 and 6), read from a GPU preset such as configs/analytical/fx5600.json.
//
// Units follow the paper's worked example (Table 2): Freq in GHz and Mem_Bandwidth in GB/s, so that
// Eq. 7's BW_per_warp comes out in GB/s; every latency and delay is in SM (processor) clock cycles
// (Sec. 4.1 times kernels in "GPU Shader clock cycles"). The defaults are the Quadro FX5600, the
// GPU the paper fitted Table 6 on (Sec. 5.1).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace gputlm::analytical {

struct GpuParams {
  std::string name = "fx5600";
  std::string description;

  // --- Table 3 rows the model uses.
  uint32_t sm_count = 16;            // "#SM"; the most #Active_SMs can be (Eq. 6, 21, 25)
  double freq_ghz = 1.35;            // Freq (Table 1 row 3): the "Processor Clock" row, not the
                                     // "Graphics Clock" (digest 2.10.11)
  double mem_bandwidth_gbps = 76.8;  // Mem_Bandwidth (Table 1 row 4), shared by all SMs (Eq. 6)
  // "#Uncoal_per_mw": transactions an uncoalesced warp access makes. 32 on compute capability
  // 1.0/1.1. 0 means "depends on the access pattern" (GTX280, CC 1.3, Table 3 cites [12]): each
  // kernel must then give KernelInputs::uncoal_per_mw.
  double uncoal_per_mw = 32;
  // "#Coal_per_mw": always 1, because the model calls an access coalesced only when the warp's
  // requests combine into ONE transaction (Sec. 3.4.5, footnote 8). Kept so a preset is the whole
  // Table 3 column; validate() rejects any other value.
  double coal_per_mw = 1;

  // --- Table 6: fitted on the micro-benchmarks (Sec. 5.1), in SM cycles.
  double mem_ld = 420;               // Mem_LD: DRAM round trip of one transaction (Eq. 10, 11)
  double departure_del_uncoal = 10;  // gap between two uncoalesced transactions (Eq. 10, 15)
  double departure_del_coal = 4;     // gap between two coalesced memory warps (Eq. 15)

  // --- Table 1 constants.
  double issue_cycles = 4;           // a warp instruction on 8 SPs takes 4 cycles (Table 1 row 2)
  uint32_t threads_per_warp = 32;    // Table 1 row 1
  double load_bytes_per_warp = 128;  // Table 1 row 21: 4 B x 32; also for uncoalesced warps
                                     // (digest 2.10.9), so wasted bytes cost no bandwidth.
                                     // 0: per kernel (KernelInputs::load_bytes_per_warp), e.g.
                                     // the bytes a simulated launch's memory warps moved

  // --- Occupancy limits used to reject impossible kernel inputs.
  uint32_t max_blocks_per_sm = 8;        // footnote 9
  uint32_t max_threads_per_block = 512;  // Sec. 5.2
  uint32_t max_warps_per_sm = 24;        // CUDA Programming Guide 2.x: 768 threads on CC 1.0/1.1,
                                         // 1024 on CC 1.2/1.3 (digest 2.10.8, not in the paper)

  // --- Table 3 rows the model does not use; kept so a preset is the whole column.
  uint32_t sp_cores = 128;
  double graphics_clock_mhz = 600;
  double memory_size_mb = 1536;
  double peak_gflops = 384;
  std::string compute_capability = "1.0";

  // Throws ConfigError naming the JSON key of the first value the model cannot use. `where` names
  // the file (or "code" for a struct built by hand).
  void validate(const std::string& where) const;

  // Reads a preset object over `base` (unknown keys are errors), then validate()s. `path` is the
  // object's key path in its file for error messages ("" at the root, "analytical" in a GPU
  // config).
  static GpuParams from_json(const nlohmann::json& j, const std::string& where,
                             const GpuParams& base, const std::string& path);
  static GpuParams from_json(const nlohmann::json& j, const std::string& where) {
    return from_json(j, where, GpuParams{}, "");
  }
  static GpuParams from_file(const std::string& path);
};

}  // namespace gputlm::analytical
