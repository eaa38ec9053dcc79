// A whole-GPU configuration (configs/<preset>.json): cores, the interconnect, optional L2 slices,
// memory partitions (one DRAM channel each, with its L2 slice if there is an L2) and the run's
// watchdog. The core clock is the reference: one core cycle is 1 ns of simulation time.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "models/analytical/gpu_params.h"
#include "models/analytical/mwp_cwp_model.h"
#include "models/energy/energy_spec.h"
#include "models/mem/cache/cache_spec.h"
#include "models/mem/dram/dram_spec.h"
#include "models/mem/xbar/xbar_spec.h"
#include "models/sm/core_spec.h"
#include "models/vgiw/vgiw_spec.h"

namespace gputlm::gpu {

// What a CUDA program is told about the device ("device" section): the memory cudaMalloc may hand
// out and the compute capability cudaGetDeviceProperties reports (programs choose code paths and
// refuse to run by it). Neither changes what is simulated.
struct DeviceSpec {
  uint64_t memory_mb = 16384;  // chosen: a nominal 16 GB; presets of real GPUs give theirs
  uint32_t cc_major = 7,
           cc_minor = 5;  // "compute_capability": "7.5" (the PTX gputlm ran first was compute_75)
  uint64_t memory_bytes() const { return memory_mb << 20; }
};

struct GpuSpec {
  std::string name;
  std::string description;
  uint32_t cores = 1;
  uint32_t partitions = 1;
  // "core": a SIMT core's section (an object), or the name of a core type: "simt" (the SIMT core
  // with its defaults), "vgiw" (the VGIW core, configured by the "vgiw" section) or "sgmf" (the
  // SGMF core: the same MT-CGRF fabric and "vgiw" section, the whole kernel in one configuration).
  enum class CoreType { Simt, Vgiw, Sgmf };
  CoreType core_type = CoreType::Simt;
  sm::CoreSpec core;
  vgiw::VgiwSpec vgiw;
  // A dataflow core (VGIW or SGMF): no warps, the "vgiw" section configures it.
  bool fabric_core() const { return core_type != CoreType::Simt; }
  bool sgmf() const { return core_type == CoreType::Sgmf; }
  const char* core_type_name() const;  // "simt", "vgiw" or "sgmf", as in the config
  double core_clock_mhz() const { return fabric_core() ? vgiw.clock_mhz : core.clock_mhz; }
  mem::XbarSpec xbar;
  std::optional<mem::CacheSpec> l2;
  mem::DramSpec dram;
  // The per-event energy table ("energy": an object, or in a config file the name of a table file
  // relative to it, which load_config reads in its place); without one a run reports no energy.
  std::optional<energy::EnergySpec> energy;
  // The MWP/CWP model's constants for this GPU: derived (analytical_params.h), then the config's
  // "analytical" section over them.
  analytical::GpuParams analytical;
  // Which readings of the paper's inconsistencies the model takes ("analytical_model": keys
  // comp_periods eq23|eq1, comp_over_mem literal|clamp|eq24, rounding exact|table2, rep real|ceil,
  // warps_per_block real|ceil; defaults: the paper's literal text, exact arithmetic).
  analytical::ModelOptions analytical_options;
  DeviceSpec device;
  // Core cycles from a launch's start (the previous launch's end) to its first CTA dispatch,
  // counted in the launch's cycles as GPGPU-Sim counts its -gpgpu_kernel_launch_latency
  // (Accel-Sim's Volta and Ampere configs give 5000). 0: the first CTAs start at once.
  uint64_t launch_latency = 0;
  // Core cycles between two CTAs the dispatcher starts on one core: 1 is GPGPU-Sim's one CTA a
  // core a cycle; 0 starts every CTA that fits at once. Clusters start together whatever it is.
  uint64_t cta_dispatch_interval = 0;
  uint64_t watchdog_cycles =
      1000000;  // core cycles without a retired instruction before the run is stopped
  // Every module runs at every edge of its clock while a launch runs, instead of sleeping until it
  // has work: a check that no module misses a wake-up (the statistics must come out identical).
  bool poll_every_cycle = false;
  uint64_t max_warp_instructions =
      2'000'000'000ull;  // per launch: more is an endless loop, stopped as a fault
  std::string hash;      // of the config text, for the statistics

  static GpuSpec from_json(const nlohmann::json& j, const std::string& where);
  static GpuSpec from_file(const std::string& path);
};

// A config file as JSON, with its "base" (a path relative to the file) applied first: the file's
// own keys then override the base's as a JSON merge patch (RFC 7386), so a preset that differs
// from another in a few keys says only those. Bases may chain; a cycle is an error. An "energy"
// that names a file (relative to the config file naming it) is replaced by that file's object,
// with "table_file" saying which, before the merge: a preset may then patch single values.
nlohmann::json load_config(const std::string& path, int depth = 0);

}  // namespace gputlm::gpu
