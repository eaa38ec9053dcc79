#include "sweep/sweep_spec.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "models/common/config_reader.h"
#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/gpu/gpu_spec.h"

namespace fs = std::filesystem;

namespace gputlm::sweep {

namespace {

fs::path resolve(const fs::path& dir, const std::string& p) { return (dir / p).lexically_normal(); }

// What to add to "no such file" for a path the spec gave: the nearest file, and that a relative
// path starts at the spec's directory.
std::string hint(const fs::path& resolved, const std::string& given) {
  return did_you_mean_file(resolved.string()) +
         (fs::path(given).is_relative() ? " (a spec's paths are relative to its directory)" : "");
}

// A list that must be there (or has a default) and must not be empty.
const nlohmann::json& nonempty_list(ConfigReader& r, const std::string& key, bool required) {
  if (required && !r.has(key)) r.fail(key, "is required (a non-empty list)");
  const nlohmann::json& list = r.get_array(key);
  if (r.has(key) && list.empty()) r.fail(key, "must not be empty");
  return list;
}

ConfigEntry read_config(const nlohmann::json& entry, const fs::path& dir, const std::string& file,
                        const std::string& key) {
  ConfigEntry c;
  if (entry.is_string()) {
    const fs::path path = resolve(dir, entry.get<std::string>());
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      throw ConfigError(
          file, key,
          "no config file '" + path.string() + "'" + hint(path, entry.get<std::string>()));
    c.resolved = gpu::load_config(path.string());
  } else if (entry.is_object()) {
    c.resolved = entry;
    if (entry.contains("base")) {
      if (!entry["base"].is_string()) throw ConfigError(file, key + ".base", "must be a file name");
      const fs::path base = resolve(dir, entry["base"].get<std::string>());
      std::error_code ec;
      if (!fs::is_regular_file(base, ec))
        throw ConfigError(file, key + ".base",
                          "no config file '" + base.string() + "'" +
                              hint(base, entry["base"].get<std::string>()));
      c.resolved = gpu::load_config(base.string());
      nlohmann::json own = entry;
      own.erase("base");
      c.resolved.merge_patch(own);
    }
  } else {
    throw ConfigError(file, key, "must be a config file name or a config object");
  }
  if (!c.resolved.is_object() || !c.resolved.contains("name") || !c.resolved["name"].is_string() ||
      c.resolved["name"].get<std::string>().empty())
    throw ConfigError(file, key, "the config needs a \"name\" (the sweep's config column)");
  c.label = c.resolved["name"].get<std::string>();
  return c;
}

WorkloadEntry read_workload(const nlohmann::json& entry, const fs::path& dir,
                            const std::string& file, const std::string& key) {
  WorkloadEntry w;
  std::string given;
  std::string where = key;
  if (entry.is_string()) {
    given = entry.get<std::string>();
  } else if (entry.is_object() && entry.size() == 1 &&
             (entry.contains("trace") || entry.contains("workload"))) {
    w.trace = entry.contains("trace");
    where = key + (w.trace ? ".trace" : ".workload");
    const nlohmann::json& v = entry.begin().value();
    if (!v.is_string()) throw ConfigError(file, where, "must be a path");
    given = v.get<std::string>();
  } else {
    throw ConfigError(file, key,
                      "must be a workload directory, {\"workload\": DIR} or {\"trace\": PATH}");
  }
  const fs::path path = fs::absolute(resolve(dir, given)).lexically_normal();
  std::error_code ec;
  const bool is_workload = fs::is_regular_file(path / "launch.json", ec);
  const bool is_trace =
      fs::is_regular_file(path, ec) || fs::is_regular_file(path / "kernelslist.g", ec);
  if (!entry.is_string() && !w.trace && !is_workload)
    throw ConfigError(
        file, where,
        "'" + path.string() + "' is not a workload directory (no launch.json)" + hint(path, given));
  if (w.trace && !is_trace)
    throw ConfigError(file, where,
                      "'" + path.string() +
                          "' is not a trace (a file, or a directory with kernelslist.g)" +
                          hint(path, given));
  if (entry.is_string()) {
    if (!is_workload && !is_trace)
      throw ConfigError(file, where,
                        "'" + path.string() +
                            "' is neither a workload directory (launch.json) nor a trace" +
                            hint(path, given));
    w.trace = !is_workload;
  }
  w.path = path.string();
  fs::path p = path;
  w.label = p.parent_path().filename().string() + "/" + p.filename().string();
  return w;
}

std::vector<Axis> read_axes(const nlohmann::json& obj, const std::string& file,
                            const std::string& key, std::set<std::string>& seen) {
  if (!obj.is_object() || obj.empty())
    throw ConfigError(file, key, "must be a non-empty object: config key path -> list of values");
  std::vector<Axis> axes;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string where = key + "." + it.key();
    if (it.key().empty() || it.key().front() == '.' || it.key().back() == '.' ||
        it.key().find("..") != std::string::npos)
      throw ConfigError(file, where, "not a config key path (like core.scheduler)");
    if (!it.value().is_array() || it.value().empty())
      throw ConfigError(file, where, "must be a non-empty list of values");
    for (const std::string& other : seen)
      if (other == it.key() || other.rfind(it.key() + ".", 0) == 0 ||
          it.key().rfind(other + ".", 0) == 0)
        throw ConfigError(file, where, "varies the same config key as axis '" + other + "'");
    seen.insert(it.key());
    axes.push_back({it.key(), std::vector<nlohmann::json>(it.value().begin(), it.value().end())});
  }
  return axes;
}

// A key given twice in one object (JSON parsers keep the last silently): the first one's key path
// ("axes.core.scheduler", "zip[1].core.lwm.size"), or "".
std::string duplicate_key(const std::string& text) {
  struct Open {
    std::string path;
    bool array;
    size_t index = 0;
    std::set<std::string> keys;
  };
  std::vector<Open> open;
  std::string key, found;
  auto child = [&]() {
    if (open.empty()) return std::string();
    const Open& o = open.back();
    return o.array ? o.path + "[" + std::to_string(o.index) + "]"
                   : (o.path.empty() ? "" : o.path + ".") + key;
  };
  nlohmann::json::parser_callback_t check = [&](int, nlohmann::json::parse_event_t event,
                                                nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start || event == E::array_start)
      open.push_back({child(), event == E::array_start, 0, {}});
    if (event == E::key) {
      key = parsed.get<std::string>();
      if (!open.back().keys.insert(key).second && found.empty()) found = child();
    }
    if (event == E::object_end || event == E::array_end) open.pop_back();
    if ((event == E::value || event == E::object_end || event == E::array_end) && !open.empty() &&
        open.back().array)
      ++open.back().index;
    return true;
  };
  if (nlohmann::json::parse(text, check, false).is_discarded())
    return "";  // invalid JSON: read_json_file says where
  return found;
}

// A name or a list of names (an "exclude" key).
std::vector<std::string> names(const nlohmann::json& v, const std::string& file,
                               const std::string& key) {
  std::vector<std::string> out;
  for (const auto& n : v.is_array() ? v : nlohmann::json::array({v})) {
    if (!n.is_string() || n.get<std::string>().empty())
      throw ConfigError(file, key, "must be a name or a list of names");
    out.push_back(n.get<std::string>());
  }
  if (out.empty()) throw ConfigError(file, key, "must not be empty");
  return out;
}

Exclusion read_exclusion(const nlohmann::json& entry, const std::string& file,
                         const std::string& key) {
  if (!entry.is_object() || entry.empty())
    throw ConfigError(file, key, "must be an object with \"config\", \"workload\" and/or \"size\"");
  Exclusion e;
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    const std::string where = key + "." + it.key();
    if (it.key() == "config")
      e.configs = names(it.value(), file, where);
    else if (it.key() == "workload")
      e.workloads = names(it.value(), file, where);
    else if (it.key() == "size")
      e.sizes = names(it.value(), file, where);
    else
      throw ConfigError(file, where,
                        "unknown key (an exclusion has \"config\", \"workload\" and \"size\")" +
                            did_you_mean(it.key(), {"config", "workload", "size"}));
  }
  return e;
}

bool matches(const std::vector<std::string>& names, const std::string& name) {
  return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

nlohmann::json RunOptions::non_default() const {
  nlohmann::json j = nlohmann::json::object();
  if (command != "run") j["command"] = command;
  if (dram_trace) j["dram_trace"] = true;
  if (sample) j["sample"] = sample;
  return j;
}

RunOptions RunOptions::from_job(const nlohmann::json& job) {
  RunOptions o;
  o.command = job.value("command", std::string("run"));
  o.dram_trace = job.value("dram_trace", false);
  o.sample = job.value("sample", uint64_t{0});
  return o;
}

int SweepSpec::excluded_by(const std::string& config, const std::string& workload,
                           const std::string& size) const {
  for (size_t i = 0; i < exclude.size(); ++i)
    if (matches(exclude[i].configs, config) && matches(exclude[i].workloads, workload) &&
        matches(exclude[i].sizes, size))
      return static_cast<int>(i);
  return -1;
}

bool set_key_path(nlohmann::json& config, const std::string& key, const nlohmann::json& value) {
  nlohmann::json* at = &config;
  size_t start = 0;
  for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1) {
    if (!at->is_object()) return false;
    at = &(*at)[key.substr(start, dot - start)];
    if (at->is_null()) *at = nlohmann::json::object();
  }
  if (!at->is_object()) return false;
  nlohmann::json& leaf = (*at)[key.substr(start)];
  if (value.is_object() && leaf.is_object())
    leaf.merge_patch(value);
  else
    leaf = value;
  return true;
}

std::vector<std::string> SweepSpec::axis_keys() const {
  std::vector<std::string> keys;
  for (const Axis& a : axes) keys.push_back(a.key);
  for (const auto& group : zips)
    for (const Axis& a : group) keys.push_back(a.key);
  return keys;
}

SweepSpec SweepSpec::from_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw InputError(path + ": no such sweep spec" + did_you_mean_file(path));
  const nlohmann::json j = read_json_file(path);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (const std::string key = duplicate_key(text); !key.empty())
    throw ConfigError(path, key, "given twice");
  return from_json(j, path);
}

SweepSpec SweepSpec::from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object())
    throw InputError(path + ": a sweep spec is a JSON object (README, \"Sweeps\")");
  SweepSpec s;
  s.file = path;
  const fs::path dir = fs::path(path).parent_path();
  ConfigReader r(j, path, "");
  s.name = r.get_string("name", fs::path(path).stem().string());
  if (s.name.empty() || s.name.find_first_of("/\\") != std::string::npos || s.name == "." ||
      s.name == "..")
    r.fail("name", "must be a plain name (it names the output directory sweeps/<name>)");
  r.get_string("description", "");
  const nlohmann::json& configs = nonempty_list(r, "configs", true);
  std::set<std::string> labels;
  for (size_t i = 0; i < configs.size(); ++i) {
    s.configs.push_back(read_config(configs[i], dir, path, "configs[" + std::to_string(i) + "]"));
    if (!labels.insert(s.configs.back().label).second)
      throw ConfigError(
          path, "configs[" + std::to_string(i) + "]",
          "a second config named '" + s.configs.back().label + "' (give each a distinct \"name\")");
  }
  const nlohmann::json& workloads = nonempty_list(r, "workloads", true);
  std::set<std::string> paths;
  for (size_t i = 0; i < workloads.size(); ++i) {
    s.workloads.push_back(
        read_workload(workloads[i], dir, path, "workloads[" + std::to_string(i) + "]"));
    if (!paths.insert(s.workloads.back().path).second)
      throw ConfigError(path, "workloads[" + std::to_string(i) + "]", "listed twice");
  }
  const nlohmann::json& sizes = nonempty_list(r, "sizes", false);
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (!sizes[i].is_string() || sizes[i].get<std::string>().empty())
      throw ConfigError(path, "sizes[" + std::to_string(i) + "]",
                        "must be a size name (test, study, ...)");
    s.sizes.push_back(sizes[i].get<std::string>());
  }
  if (s.sizes.empty()) s.sizes.push_back("test");
  std::set<std::string> seen;
  if (r.has("axes")) s.axes = read_axes(r.get_object("axes"), path, "axes", seen);
  const nlohmann::json& zips = r.has("zip") ? r.get_array("zip") : nlohmann::json::array();
  if (r.has("zip") && zips.empty()) r.fail("zip", "must not be empty");
  for (size_t g = 0; g < zips.size(); ++g) {
    const std::string key = "zip[" + std::to_string(g) + "]";
    s.zips.push_back(read_axes(zips[g], path, key, seen));
    for (const Axis& a : s.zips.back())
      if (a.values.size() != s.zips.back().front().values.size())
        throw ConfigError(path, key + "." + a.key,
                          std::to_string(a.values.size()) + " values where '" +
                              s.zips.back().front().key + "' has " +
                              std::to_string(s.zips.back().front().values.size()) +
                              " (a zip group's lists have equal lengths)");
  }
  if (r.has("set")) {
    s.set = r.get_object("set");
    for (auto it = s.set.begin(); it != s.set.end(); ++it)
      for (const std::string& axis : seen)
        if (axis == it.key() || axis.rfind(it.key() + ".", 0) == 0 ||
            it.key().rfind(axis + ".", 0) == 0)
          throw ConfigError(path, "set." + it.key(), "also varied by axis '" + axis + "'");
  }
  if (r.has("slurm")) s.slurm = SlurmOptions::from_json(r.get_object("slurm"), path);
  const nlohmann::json& exclude = r.get_array("exclude");
  for (size_t i = 0; i < exclude.size(); ++i)
    s.exclude.push_back(read_exclusion(exclude[i], path, "exclude[" + std::to_string(i) + "]"));
  s.options.command = r.get_choice("command", "run", {"run", "predict"});
  s.options.dram_trace = r.get_bool("dram_trace", false);
  s.options.sample = r.get_uint("sample", 0, 0, UINT64_MAX);
  if (s.options.command == "predict" && (s.options.dram_trace || s.options.sample))
    r.fail(s.options.dram_trace ? "dram_trace" : "sample",
           "is for timing runs (\"command\": \"run\"), not gputlm predict");
  if (s.options.command == "predict")
    for (size_t i = 0; i < s.workloads.size(); ++i)
      if (s.workloads[i].trace)
        throw ConfigError(path, "workloads[" + std::to_string(i) + "]",
                          "is a trace: gputlm predict takes workload directories");
  r.finish();
  return s;
}

}  // namespace gputlm::sweep
