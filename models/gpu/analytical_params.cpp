#include "models/gpu/analytical_params.h"

#include <algorithm>
#include <cmath>

#include "models/gpu/gpu_spec.h"

namespace gputlm::gpu {
namespace {

// Peak bytes per second of one DRAM channel, in GB/s.
double channel_gbps(const mem::DramSpec& d) {
  if (d.command_model())
    return double(d.command.bus_bytes) * double(d.command.data_rate) * d.clock_mhz / 1000.0;
  return d.latency.bandwidth_gbps;
}

// Cycles of a clock at `mhz` in core cycles at `core_mhz`.
double in_core_cycles(double cycles, double mhz, double core_mhz) {
  return cycles * core_mhz / mhz;
}

}  // namespace

analytical::GpuParams derived_analytical_params(const GpuSpec& s) {
  analytical::GpuParams p;
  const double core_mhz = s.core.clock_mhz;
  const uint32_t line = s.core.l1d.line_bytes;
  p.name = s.name;
  p.description = "derived from the GPU config " + s.name;
  p.sm_count = s.cores;
  p.freq_ghz = core_mhz / 1000.0;
  p.mem_bandwidth_gbps = s.partitions * channel_gbps(s.dram);
  // A warp instruction leaves fetch every fetch_cycles, starts every issue_interval and passes the
  // ALU in 32 / width passes.
  const sm::UnitSpec& alu = s.core.unit(isa::InstrClass::IntAlu);
  p.issue_cycles = std::max({double(s.core.fetch_cycles), double(s.core.issue_interval),
                             double(32 / alu.width) * alu.interval});
  p.uncoal_per_mw = 0;
  p.load_bytes_per_warp = 0;  // per launch: an uncoalesced lane moves a whole line here
  p.max_blocks_per_sm = s.core.max_ctas;
  p.max_threads_per_block = s.core.max_threads;
  p.max_warps_per_sm = s.core.max_warps;
  p.sp_cores = s.cores * s.core.unit(isa::InstrClass::IntAlu).width;
  p.graphics_clock_mhz = core_mhz;
  p.compute_capability = "simulated";

  // One line's trip: request header out, line back over the interconnect; DRAM access to a closed
  // row.
  const double flits = std::ceil(double(line) / s.xbar.flit_bytes);
  const double xbar = in_core_cycles(2.0 * s.xbar.latency + flits, s.xbar.clock_mhz, core_mhz);
  const double dram_bytes_per_cycle = channel_gbps(s.dram) * 1000.0 / s.dram.clock_mhz;
  const double transfer = std::ceil(line / dram_bytes_per_cycle);
  double dram = 0;
  if (s.dram.command_model()) {
    const mem::CommandTiming& c = s.dram.command;
    dram = double(c.tRCD + c.tCL) + transfer;
  } else {
    dram = double(s.dram.latency.row_empty);  // the latency model's figure includes the transfer
  }
  double mem_ld = s.core.l1d.hit_latency + xbar + in_core_cycles(dram, s.dram.clock_mhz, core_mhz);
  if (s.l2) mem_ld += in_core_cycles(s.l2->hit_latency, s.l2->clock_mhz, core_mhz);
  p.mem_ld = mem_ld;
  const double departure = std::max({1.0, in_core_cycles(flits, s.xbar.clock_mhz, core_mhz),
                                     in_core_cycles(transfer, s.dram.clock_mhz, core_mhz)});
  p.departure_del_coal = departure;
  p.departure_del_uncoal = departure;
  return p;
}

}  // namespace gputlm::gpu
