// A sweep's description (README, "Sweeps"): which configs, workloads and sizes, which config keys
// to vary (crossed axes, zipped groups) and which to set in every run. Read and checked here,
// before anything runs; every message names the spec file and the key.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tb/sweep/slurm_options.h"

namespace gputlm::tb::sweep {

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

struct SweepSpec {
  std::string file;  // the spec as given (for messages)
  std::string name;
  std::vector<ConfigEntry> configs;
  std::vector<WorkloadEntry> workloads;
  std::vector<std::string> sizes;
  std::vector<Axis> axes;              // crossed
  std::vector<std::vector<Axis>> zips;  // each group zipped (equal lengths), groups crossed
  nlohmann::json set = nlohmann::json::object();  // key path -> value, in every run
  SlurmOptions slurm;  // the "slurm" object, checked here, used by the Slurm backend only

  // Reads and checks the spec's own structure (types, empty lists, zip lengths, duplicate keys,
  // config files and workload paths that exist). InputError naming `path` and the key.
  static SweepSpec from_file(const std::string& path);
  static SweepSpec from_json(const nlohmann::json& j, const std::string& path);

  // Every axis key, axes first then zip groups in order (the CSV's axis columns).
  std::vector<std::string> axis_keys() const;
};

// Sets `value` at the dotted key path `key` ("core.lwm.size") of `config`, making objects on the
// way; an object value is merged into an object there (JSON merge patch). False if a part of the
// path is a value that is not an object.
bool set_key_path(nlohmann::json& config, const std::string& key, const nlohmann::json& value);

}  // namespace gputlm::tb::sweep
