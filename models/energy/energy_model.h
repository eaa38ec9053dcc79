// Energy of a stretch of a run (one launch, usually) from the events the modules counted over it:
// a per-event model in the manner of GPUWattch (Leng et al., ISCA 2013) and AccelWattch (Kandiah et
// al., MICRO 2021), where each counted event costs the energy the table (energy_spec.h) gives it,
// plus static power times the stretch's duration; DRAM follows Micron TN-41-01 / DRAMPower from
// the devices' datasheet currents. The input is the statistics JSON the report already builds
// (modules keyed by SystemC name: "gpu.core0", "gpu.core0.l1d", "gpu.xbar", "gpu.l2_0",
// "gpu.dram0", and on VGIW cores "gpu.core0.cgrf", "gpu.core0.bbs", "gpu.core0.lvc"), so the model
// reads only what the modules report and needs no SystemC.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/energy/energy_spec.h"

namespace gputlm::energy {

// What the statistics do not say about the stretch.
struct EnergyContext {
  double seconds = 0;         // its duration (launch cycles at the core clock)
  double dram_clock_mhz = 0;  // the DRAM controllers count their own cycles
  uint32_t flit_bytes = 0;    // the interconnect's flit
  bool vgiw = false;          // the cores are VGIW cores (gpu.coreN.l1d takes the table's vgiw.l1d)
};

struct EnergyPart {
  std::string name;  // "register_file", "static", ...
  double joules = 0;
  bool is_static = false;  // static power x time (DRAM: background), not per event
};

struct EnergyComponent {
  std::string name;  // "core", "l1d", "dram", "fabric", ...
  std::vector<EnergyPart> parts;
  double total() const;
};

struct EnergyBreakdown {
  double seconds = 0;
  std::vector<EnergyComponent>
      components;  // in a fixed order: core side, caches, interconnect, DRAM

  double total() const;
  double static_joules() const;
  double average_power_w() const { return seconds > 0 ? total() / seconds : 0.0; }
  // Adds another stretch's energy, part by part (a run's is the sum of its launches').
  void add(const EnergyBreakdown& other);
};

EnergyBreakdown estimate_energy(const EnergySpec& spec, const nlohmann::json& modules,
                                const EnergyContext& context);

}  // namespace gputlm::energy
