// A sweep's description (docs/user-guide/sweeps-and-slurm.md): which configs, workloads and sizes,
// which config keys to vary (crossed axes, zipped groups) and which to set in every run. Read and
// checked here, before anything runs; every message names the spec file and the key.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/slurm_options.h"

namespace gputlm::sweep {

// One entry of "configs": a config file, or an inline config object (with an optional "base").
struct ConfigEntry {
  std::string label;        // the resolved config's "name" (the CSV's config column)
  nlohmann::json resolved;  // its base chain merged, before "set" and the axes
};

// One entry of "workloads": a workload directory (launch.json) or a trace (file or Accel-Sim dir).
struct WorkloadEntry {
  std::string label;  // "suite/name", as gputlm run's statistics name it
  std::string path;   // absolute
  bool trace = false;
};

// A config key varied over values: "core.scheduler": ["rr", "gto"].
struct Axis {
  std::string key;
  std::vector<nlohmann::json> values;
};

// One entry of "exclude": the runs it matches are left out (each key given must match; a key
// holds a name or a list of names: config labels, workload labels "suite/name", sizes).
struct Exclusion {
  std::vector<std::string> configs, workloads, sizes;  // empty: any
};

// How each run is made (the same for every run of a sweep; part of each run's identity when not
// the default): "command": "run" | "predict", "dram_trace": true (runs/<id>/dram.csv, gputlm run
// --dram-trace), "sample": N (gputlm run --sample N; the series lands in stats.json).
struct RunOptions {
  std::string command = "run";
  bool dram_trace = false;
  uint64_t sample = 0;

  // The options that differ from the default ({} when none do): what the identity and run.json
  // hold.
  nlohmann::json non_default() const;
  static RunOptions from_job(const nlohmann::json& job);
};

struct SweepSpec {
  std::string file;  // the spec as given (for messages)
  std::string name;
  std::vector<ConfigEntry> configs;
  std::vector<WorkloadEntry> workloads;
  std::vector<std::string> sizes;
  std::vector<Axis> axes;               // crossed
  std::vector<std::vector<Axis>> zips;  // each group zipped (equal lengths), groups crossed
  nlohmann::json set = nlohmann::json::object();  // key path -> value, in every run
  std::vector<Exclusion> exclude;
  RunOptions options;
  SlurmOptions slurm;  // the "slurm" object, checked here, used by the Slurm backend only

  // Reads and checks the spec's own structure (types, empty lists, zip lengths, duplicate keys,
  // config files and workload paths that exist). InputError naming `path` and the key.
  static SweepSpec from_file(const std::string& path);
  static SweepSpec from_json(const nlohmann::json& j, const std::string& path);

  // The first "exclude" entry that leaves out a run of config `config`, workload label `workload`
  // at `size`, or -1.
  int excluded_by(const std::string& config, const std::string& workload,
                  const std::string& size) const;

  // Every axis key, axes first then zip groups in order (the CSV's axis columns).
  std::vector<std::string> axis_keys() const;
};

// Sets `value` at the dotted key path `key` ("core.lwm.size") of `config`, making objects on the
// way; an object value is merged into an object there (JSON merge patch). False if a part of the
// path is a value that is not an object.
bool set_key_path(nlohmann::json& config, const std::string& key, const nlohmann::json& value);

}  // namespace gputlm::sweep
