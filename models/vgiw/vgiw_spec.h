// Configuration of a VGIW core (the "vgiw" section of a config whose "core" is "vgiw"). Defaults
// are Voitsechov & Etsion's Table 1 where it gives a value; every other value is chosen (the paper
// is silent) and says so here and in configs/vgiw.json.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "models/mem/cache/cache_spec.h"
#include "models/vgiw/mapper/block_graph.h"

namespace gputlm::vgiw {

struct VgiwSpec {
  double clock_mhz = 1400.0;        // Table 1: core 1.4 GHz
  UnitCounts units = kTable1Units;  // Table 1: 32 FPU-ALU, 12 SCU, 16 LDST, 16 LVU, 16 SJU, 16 CVU
  uint32_t grid_width = 12, grid_height = 9;  // chosen: the paper gives 108 units, not the shape
  // Token buffer entries per unit = threads a replica holds at once (each thread keeps one virtual
  // channel from initiation to termination, Sec. 3.5). Chosen: the buffers total ~30% of Fermi's
  // 128KB register file (Sec. 3.4), about 30 three-operand entries a unit.
  uint32_t virtual_channels = 32;
  uint32_t reservation_entries = 32;  // chosen: memory operations a load/store unit has outstanding
  // Latencies in core cycles (chosen: those of the fermi-gtx480 preset, so the comparison is
  // about the execution model, not the circuits).
  uint32_t compute_latency = 4;    // FPU-ALU, pipelined
  uint32_t int_div_latency = 145;  // special compute units, non-pipelined circuits
  uint32_t float_div_latency = 39;
  uint32_t sfu_latency = 20;
  uint32_t special_instances = 16;  // circuits per special compute unit (one op may start a cycle)
  uint32_t join_latency = 1;
  uint32_t control_latency = 1;  // initiator (thread coordinates) and terminator (branch)
  uint32_t shared_latency = 4;   // shared memory: the L1's scratchpad part, never missing (chosen)
  uint32_t param_latency = 1;    // ld.param on a load/store unit ("static_operands": "units" only)
  // Sec. 2: "reconfiguration only takes 34 cycles"; Sec. 3.2: two passes of 11 cycles
  // (sqrt(108) units a row) after the reset.
  uint32_t reconfiguration_cycles = 34;
  // Control vector table size in bits (chosen: 32KB). The tile (threads in flight, whole CTAs)
  // is cvt_bits / blocks (Sec. 3.2's tile-size rule), at most 65536 (16-bit batch bases).
  uint64_t cvt_bits = 262144;
  uint32_t cvt_banks = 8;                 // Sec. 3.3
  uint32_t max_threads_per_tile = 65536;  // 16-bit base thread IDs (Sec. 3.2)
  // Also bound the tile so that its live values fit the live value cache (Sec. 3.4: spilling "is
  // generally prevented by thread tiling"; the paper does not say how, so this is a choice).
  bool tile_fits_lvc = true;
  // Kernel parameters and thread coordinates: configuration constants and the initiator's
  // (Sec. 3.5), or, as a reading, instructions on units like any other; and how far arithmetic on
  // them folds (the paper is silent; chosen: launch constants). See mapper/static_operands.h.
  StaticOptions statics;
  // SGMF ("core": "sgmf") only: a kernel whose one graph does not fit the grid (or has a barrier)
  // is an error ("refuse", the default), or runs as VGIW blocks ("vgiw": a study reading, so that
  // the kernels that fit can be compared inside workloads that also launch kernels that do not;
  // the core's `tiles_as_vgiw` counts such tiles, per launch).
  bool sgmf_unmapped_as_vgiw = false;
  mem::CacheSpec l1d;  // Table 1: 64KB, 32 banks, 128 B lines, 4-way, write-back, write-allocate
  mem::CacheSpec lvc;  // Sec. 3.4: 64KB, banked like an L1, backed by L2

  VgiwSpec();
  static VgiwSpec from_json(const nlohmann::json& j, const std::string& where,
                            const std::string& path);
  uint32_t units_total() const;
};

}  // namespace gputlm::vgiw
