// A sweep expanded into its runs: configs x workloads x sizes x the crossed axes x each zip group
// (zipped), the groups crossed. Every resolved config is checked with GpuSpec::from_json and every
// workload size exists, before any run starts; each run gets its identity (run_identity.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/hash128.h"
#include "sweep/sweep_spec.h"

namespace gputlm::sweep {

struct SweepRun {
  std::string id;
  std::string config_label;
  nlohmann::json config;  // resolved: base chain, "set", then the axis values
  WorkloadEntry workload;
  std::string size;             // empty for a trace
  nlohmann::ordered_json axes;  // axis key -> value, in SweepSpec::axis_keys() order
  RunOptions options;           // the spec's

  // The manifest entry (docs/user-guide/sweeps-and-slurm.md): id, config, workload, trace or size,
  // axes, and the run options that differ from the default (command, dram_trace, sample).
  nlohmann::ordered_json describe() const;
};

// The runs of `spec`, in a stable order (configs, then axis values, then workloads, then sizes),
// without those "exclude" leaves out (an exclusion naming a config or workload the spec lacks is
// an error: a typo).
// `simulator` is the simulator's identity (hash_executable()). InputError naming the spec file and
// the key for a config an axis or "set" makes invalid, and for a size a workload lacks.
std::vector<SweepRun> expand(const SweepSpec& spec, const Hash128& simulator);

}  // namespace gputlm::sweep
