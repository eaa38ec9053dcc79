#include "sweep/sweep_plan.h"

#include <algorithm>
#include <map>

#include "io/workload/launch_spec.h"
#include "models/common/config_reader.h"
#include "models/common/error.h"
#include "models/gpu/gpu_spec.h"
#include "sweep/run_identity.h"

namespace gputlm::sweep {

namespace {

using Assignment = std::vector<std::pair<std::string, nlohmann::json>>;

// Every combination of axis values: the axes crossed, each zip group taken position by position.
std::vector<Assignment> assignments(const SweepSpec& spec) {
  std::vector<std::vector<Assignment>> dimensions;  // each: its alternatives
  for (const Axis& a : spec.axes) {
    std::vector<Assignment> alternatives;
    for (const auto& v : a.values) alternatives.push_back({{a.key, v}});
    dimensions.push_back(alternatives);
  }
  for (const auto& group : spec.zips) {
    std::vector<Assignment> alternatives(group.front().values.size());
    for (const Axis& a : group)
      for (size_t i = 0; i < a.values.size(); ++i) alternatives[i].push_back({a.key, a.values[i]});
    dimensions.push_back(alternatives);
  }
  std::vector<Assignment> all{{}};
  for (const auto& alternatives : dimensions) {
    std::vector<Assignment> next;
    for (const Assignment& prefix : all)
      for (const Assignment& a : alternatives) {
        next.push_back(prefix);
        next.back().insert(next.back().end(), a.begin(), a.end());
      }
    all.swap(next);
  }
  return all;
}

std::string describe(const Assignment& a) {
  std::string s;
  for (const auto& [key, value] : a) s += (s.empty() ? "" : ", ") + key + "=" + value.dump();
  return s;
}

// Whether the config key `unknown` is `key` or lies below it.
bool under(const std::string& unknown, const std::string& key) {
  return unknown == key || unknown.rfind(key + ".", 0) == 0;
}

// The config of `c` with "set" and the assignment applied, checked by GpuSpec::from_json.
nlohmann::json resolve(const SweepSpec& spec, const ConfigEntry& c, const Assignment& a) {
  nlohmann::json config = c.resolved;
  std::vector<std::pair<std::string, std::string>> applied;  // config key -> spec key
  auto apply = [&](const std::string& key, const nlohmann::json& value,
                   const std::string& spec_key) {
    if (!set_key_path(config, key, value))
      throw ConfigError(
          spec.file, spec_key,
          "config '" + c.label + "' has a value, not an object, on the way to '" + key + "'");
    applied.push_back({key, spec_key});
  };
  for (auto it = spec.set.begin(); it != spec.set.end(); ++it)
    apply(it.key(), it.value(), "set." + it.key());
  for (const auto& [key, value] : a) {
    std::string spec_key = "axes." + key;
    for (size_t g = 0; g < spec.zips.size(); ++g)
      for (const Axis& z : spec.zips[g])
        if (z.key == key) spec_key = "zip[" + std::to_string(g) + "]." + key;
    apply(key, value, spec_key);
  }
  const std::string where =
      spec.file + " (config '" + c.label + "'" + (a.empty() ? "" : " with " + describe(a)) + ")";
  try {
    gpu::GpuSpec::from_json(config, where);
  } catch (const UnknownKeyError& e) {
    for (const auto& [key, spec_key] : applied)
      if (under(e.key(), key)) {
        const std::string what = e.what();
        const size_t hint = what.find(" (did you mean");
        throw ConfigError(spec.file, spec_key,
                          "no config key '" + e.key() + "'" +
                              (hint == std::string::npos ? "" : what.substr(hint)));
      }
    throw;
  }
  return config;
}

}  // namespace

nlohmann::ordered_json SweepRun::describe() const {
  nlohmann::ordered_json j;
  j["id"] = id;
  j["config"] = config_label;
  j["workload"] = workload.label;
  j[workload.trace ? "trace" : "workload_dir"] = workload.path;
  j["size"] = size;
  j["axes"] = axes;
  const nlohmann::json extra = options.non_default();
  for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
  return j;
}

std::vector<SweepRun> expand(const SweepSpec& spec, const Hash128& simulator) {
  std::vector<Hash128> inputs;
  for (const WorkloadEntry& w : spec.workloads) {
    inputs.push_back(hash_tree(w.path));
    if (w.trace) continue;
    for (const std::string& size : spec.sizes) {
      try {
        workload::read_workload_spec(w.path + "/launch.json", size, w.label);
      } catch (const InputError& e) {
        throw InputError(spec.file + ": workload '" + w.label + "' at size '" + size +
                         "': " + e.what());
      }
    }
  }
  std::vector<SweepRun> runs;
  std::map<std::string, std::string> seen;  // id -> the run's description, for a run given twice
  const std::vector<Assignment> all = assignments(spec);
  const nlohmann::json options = spec.options.non_default();
  for (const ConfigEntry& c : spec.configs)
    for (const Assignment& a : all) {
      const nlohmann::json config = resolve(spec, c, a);
      nlohmann::ordered_json axes = nlohmann::ordered_json::object();
      for (const auto& [key, value] : a) axes[key] = value;
      for (size_t w = 0; w < spec.workloads.size(); ++w)
        for (const std::string& size :
             spec.workloads[w].trace ? std::vector<std::string>{""} : spec.sizes) {
          if (spec.excluded_by(c.label, spec.workloads[w].label, size) >= 0) continue;
          SweepRun r{run_id(config, spec.workloads[w].trace ? "trace" : "workload", inputs[w], size,
                            simulator, options),
                     c.label,
                     config,
                     spec.workloads[w],
                     size,
                     axes,
                     spec.options};
          const std::string what = "config '" + c.label + "'" +
                                   (a.empty() ? "" : " with " + describe(a)) + " on " +
                                   r.workload.label + (size.empty() ? "" : " at " + size);
          if (const auto [at, fresh] = seen.emplace(r.id, what); !fresh)
            throw InputError(spec.file + ": " + what + " is the same run as " + at->second +
                             " (a value given twice in an axis?)");
          runs.push_back(std::move(r));
        }
    }
  // An exclusion whose configs or workloads name none of the spec's is a typo (its sizes are not
  // checked: --size may replace them).
  for (size_t e = 0; e < spec.exclude.size(); ++e) {
    const Exclusion& x = spec.exclude[e];
    bool config = x.configs.empty(), workload = x.workloads.empty();
    for (const ConfigEntry& c : spec.configs)
      config |= std::find(x.configs.begin(), x.configs.end(), c.label) != x.configs.end();
    for (const WorkloadEntry& w : spec.workloads)
      workload |= std::find(x.workloads.begin(), x.workloads.end(), w.label) != x.workloads.end();
    if (!config || !workload)
      throw ConfigError(
          spec.file, "exclude[" + std::to_string(e) + "]." + (config ? "workload" : "config"),
          "names none of the spec's " + std::string(config ? "workloads (suite/name)" : "configs"));
  }
  if (runs.empty()) throw InputError(spec.file + ": \"exclude\" leaves out every run");
  return runs;
}

}  // namespace gputlm::sweep
