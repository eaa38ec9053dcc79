#include "models/gpu/gpu_spec.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "models/common/config_reader.h"
#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/gpu/analytical_params.h"

namespace gputlm::gpu {
namespace {

const std::vector<std::pair<std::string, GpuSpec::CoreType>> kCoreTypes = {
    {"simt", GpuSpec::CoreType::Simt},
    {"vgiw", GpuSpec::CoreType::Vgiw},
    {"sgmf", GpuSpec::CoreType::Sgmf}};

analytical::ModelOptions model_options(const nlohmann::json& j, const std::string& where) {
  using namespace analytical;
  ConfigReader r(j, where, "analytical_model");
  ModelOptions o;
  o.comp_periods_2_10_1 =
      r.get_enum("comp_periods", CompPeriods::Eq23MwpMinusOne,
                 {{"eq23", CompPeriods::Eq23MwpMinusOne}, {"eq1", CompPeriods::Eq1Mwp}});
  o.comp_over_mem_2_10_2 = r.get_enum("comp_over_mem", CompOverMem::Literal,
                                      {{"literal", CompOverMem::Literal},
                                       {"clamp", CompOverMem::ClampToIssueBound},
                                       {"eq24", CompOverMem::Case5UsesEq24}});
  o.rounding_2_10_4 = r.get_enum("rounding", Rounding::Exact,
                                 {{"exact", Rounding::Exact}, {"table2", Rounding::PaperTable2}});
  o.rep_2_10_5 = r.get_enum("rep", RepCount::RealDivision,
                            {{"real", RepCount::RealDivision}, {"ceil", RepCount::Ceil}});
  o.warps_per_block_2_9_5 =
      r.get_enum("warps_per_block", WarpsPerBlock::RealDivision,
                 {{"real", WarpsPerBlock::RealDivision}, {"ceil", WarpsPerBlock::Ceil}});
  r.finish();
  return o;
}

DeviceSpec device_spec(const nlohmann::json& j, const std::string& where) {
  ConfigReader r(j, where, "device");
  DeviceSpec d;
  d.memory_mb = r.get_uint("memory_mb", d.memory_mb, 1, uint64_t{1} << 30);
  const std::string cc = r.get_string("compute_capability", "7.5");
  unsigned major = 0, minor = 0;
  char rest = 0;
  if (std::sscanf(cc.c_str(), "%u.%u%c", &major, &minor, &rest) != 2 || major < 3 || major > 12 ||
      minor > 9)
    r.fail("compute_capability",
           "must be \"MAJOR.MINOR\" as CUDA reports it (\"7.5\", \"9.0\"), not '" + cc + "'");
  d.cc_major = major;
  d.cc_minor = minor;
  r.finish();
  return d;
}

// Removes the key at `path` ("core.l1d.size", "dram.address_map[2].bits") from `j`.
bool erase_key(nlohmann::json& j, const std::string& path) {
  nlohmann::json* at = &j;
  std::string part;
  std::istringstream in(path);
  std::vector<std::string> parts;
  while (std::getline(in, part, '.')) parts.push_back(part);
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string key = parts[i];
    std::vector<size_t> indices;
    for (size_t b; (b = key.rfind('[')) != std::string::npos && key.back() == ']'; key.erase(b)) {
      const std::string digits = key.substr(b + 1, key.size() - b - 2);
      // A key whose own name has brackets ("a[x]") is not an index: it is not found, and the
      // caller reports the unknown keys gathered so far.
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        return false;
      indices.insert(indices.begin(), std::stoul(digits));
    }
    if (i + 1 == parts.size() && indices.empty()) return at->is_object() && at->erase(key) == 1;
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
    for (size_t k : indices) {
      if (!at->is_array() || k >= at->size()) return false;
      at = &(*at)[k];
    }
  }
  return false;
}

// Every unknown key of a config at once: the config is read again without each one found.
GpuSpec read_all_keys(nlohmann::json& j, const std::string& where) {
  std::string unknown;
  for (int found = 0;; ++found) {
    try {
      GpuSpec s = GpuSpec::from_json(j, where);
      if (unknown.empty()) return s;
      break;
    } catch (const UnknownKeyError& e) {
      unknown += (unknown.empty() ? "" : "\n") + std::string(e.what());
      if (found > 64 || !erase_key(j, e.key())) break;
    } catch (const InputError& e) {
      if (unknown.empty()) throw;
      unknown += "\n" + std::string(e.what());
      break;
    }
  }
  throw InputError(unknown);
}

}  // namespace

const char* GpuSpec::core_type_name() const {
  for (const auto& [n, v] : kCoreTypes)
    if (v == core_type) return n.c_str();
  return "simt";
}

GpuSpec GpuSpec::from_json(const nlohmann::json& j, const std::string& where) {
  GpuSpec s;
  ConfigReader r(j, where, "");
  s.name = r.get_string("name", "unnamed");
  s.description = r.get_string("description", "");
  s.cores = static_cast<uint32_t>(r.get_uint("cores", s.cores, 1, 1024));
  s.partitions = static_cast<uint32_t>(r.get_uint("partitions", s.partitions, 1, 1024));
  if (j.is_object() && j.contains("core") && j["core"].is_string()) {
    s.core_type = r.get_enum("core", GpuSpec::CoreType::Simt, kCoreTypes);
  } else {
    s.core = sm::CoreSpec::from_json(r.get_object("core"), where, "core");
  }
  if (r.has("vgiw")) {
    if (!s.fabric_core()) r.fail("vgiw", "a VGIW section needs \"core\": \"vgiw\" or \"sgmf\"");
    s.vgiw = vgiw::VgiwSpec::from_json(r.get_object("vgiw"), where, "vgiw");
  }
  if (s.fabric_core()) s.core.clock_mhz = s.vgiw.clock_mhz;  // the reference clock
  s.xbar = mem::XbarSpec::from_json(r.get_object("xbar"), where, "xbar");
  if (r.has("l2")) s.l2 = mem::CacheSpec::from_json(r.get_object("l2"), where, "l2");
  s.dram = mem::DramSpec::from_json(r.get_object("dram"), where, "dram");
  if (r.has("energy")) {
    if (!j["energy"].is_object())
      r.fail("energy",
             "must be an energy table (an object; a config file may name a table file, which "
             "loading the file reads)");
    s.energy = energy::EnergySpec::from_json(r.get_object("energy"), where, "energy");
  }
  if (r.has("device")) s.device = device_spec(r.get_object("device"), where);
  s.launch_latency = r.get_uint("launch_latency", s.launch_latency, 0, uint64_t{1} << 32);
  s.cta_dispatch_interval =
      r.get_uint("cta_dispatch_interval", s.cta_dispatch_interval, 0, uint64_t{1} << 32);
  s.watchdog_cycles = r.get_uint("watchdog_cycles", s.watchdog_cycles, 100, uint64_t{1} << 40);
  s.poll_every_cycle = r.get_bool("poll_every_cycle", s.poll_every_cycle);
  s.max_warp_instructions =
      r.get_uint("max_warp_instructions", s.max_warp_instructions, 1, uint64_t{1} << 50);
  s.analytical = derived_analytical_params(s);
  if (r.has("analytical"))
    s.analytical = analytical::GpuParams::from_json(r.get_object("analytical"), where, s.analytical,
                                                    "analytical");
  if (r.has("analytical_model"))
    s.analytical_options = model_options(r.get_object("analytical_model"), where);
  r.finish();
  return s;
}

namespace {
// "energy": "energy/table.json" in the config file `path`: the table's object in its place.
void read_energy_table(nlohmann::json& j, const std::string& path) {
  if (!j.is_object() || !j.contains("energy") || !j["energy"].is_string()) return;
  const std::string name = j["energy"].get<std::string>();
  const std::filesystem::path file = std::filesystem::path(path).parent_path() / name;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw ConfigError(path, "energy",
                      "cannot open energy table '" + file.string() + "' (not a file)" +
                          did_you_mean_file(file.string()));
  nlohmann::json table = read_json_file(file.string());
  if (!table.is_object())
    throw ConfigError(file.string(), "(root)", "an energy table must be a JSON object");
  table["table_file"] = name;
  j["energy"] = std::move(table);
}
}  // namespace

nlohmann::json load_config(const std::string& path, int depth) {
  if (depth > 16) throw ConfigError(path, "base", "chain longer than 16 (a cycle?)");
  nlohmann::json j = read_json_file(path);
  read_energy_table(j, path);
  if (!j.is_object() || !j.contains("base")) return j;
  if (!j["base"].is_string()) throw ConfigError(path, "base", "must be a file name");
  const std::filesystem::path base =
      std::filesystem::path(path).parent_path() / j["base"].get<std::string>();
  std::error_code ec;  // a directory, a device or a FIFO would not end (or not be JSON); name the
                       // file whose key points there
  if (!std::filesystem::is_regular_file(base, ec))
    throw ConfigError(
        path, "base",
        "cannot open '" + base.string() + "' (not a file)" + did_you_mean_file(base.string()));
  nlohmann::json merged = load_config(base.string(), depth + 1);
  j.erase("base");
  merged.merge_patch(j);
  return merged;
}

GpuSpec GpuSpec::from_file(const std::string& path) {
  nlohmann::json j = load_config(path);
  GpuSpec s = read_all_keys(j, path);
  uint64_t h =
      1469598103934665603ull;  // FNV-1a of the canonical JSON, so formatting does not matter
  for (unsigned char c : j.dump()) h = (h ^ c) * 1099511628211ull;
  std::ostringstream hex;
  hex << std::hex << h;
  s.hash = hex.str();
  return s;
}

}  // namespace gputlm::gpu
