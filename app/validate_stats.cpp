#include "app/validate_stats.h"

#include <cmath>
#include <regex>

#include "app/kernel_name.h"
#include "models/common/error.h"

namespace gputlm::app {

const std::vector<CounterMapping>& counter_mappings() {
  static const std::vector<CounterMapping> mappings = {
      {"l1_reads", {"L1_RH", "L1_RM"}, "l1d", "reads", "read_sectors"},
      {"l1_writes", {"L1_WH", "L1_WM"}, "l1d", "writes", "write_sectors"},
      {"l1_hits", {"L1_RH", "L1_WH"}, "l1d", "hits", "sector_hits"},
      {"l1_misses", {"L1_RM", "L1_WM"}, "l1d", "misses", "sector_misses"},
      {"l2_reads", {"L2_RH", "L2_RM"}, "l2", "reads", "read_sectors"},
      {"l2_writes", {"L2_WH", "L2_WM"}, "l2", "writes", "write_sectors"},
      {"l2_hits", {"L2_RH", "L2_WH"}, "l2", "hits", "sector_hits"},
      {"l2_misses", {"L2_RM", "L2_WM"}, "l2", "misses", "sector_misses"},
      {"dram_reads", {"DRAM_Rd"}, "dram", "reads", ""},
      {"dram_writes", {"DRAM_Wr"}, "dram", "writes", ""},
  };
  return mappings;
}

double SectorScale::of(const std::string& module_kind) const {
  return module_kind == "l1d" ? l1d : module_kind == "l2" ? l2 : module_kind == "dram" ? dram : 0;
}

double SectorScale::sector_of(const std::string& module_kind) const {
  return module_kind == "l1d" ? l1d_sector : module_kind == "l2" ? l2_sector : 0;
}

namespace {

bool module_of_kind(const std::string& module, const std::string& kind) {
  static const std::regex l1d(R"(gpu\.core[0-9]+\.l1d)"), l2(R"(gpu\.l2(_[0-9]+)?)"),
      dram(R"(gpu\.dram[0-9]+)");
  return std::regex_match(module, kind == "l1d" ? l1d : kind == "l2" ? l2 : dram);
}

}  // namespace

std::vector<SimKernel> average_launches(const nlohmann::json& stats, const SectorScale& scale,
                                        const std::string& where) {
  if (!stats.is_object() || !stats.contains("launches") || !stats["launches"].is_array())
    throw InputError(where + ": no \"launches\" array (not the --stats JSON of gputlm cuda)");
  std::vector<SimKernel> kernels;
  std::map<std::string, size_t> index;
  std::map<std::string, std::map<std::string, size_t>> counted;  // launches with the counter
  const nlohmann::json& launches = stats["launches"];
  const size_t complete = launches.size() - (stats.value("complete", true) ? 0 : 1);
  for (size_t i = 0; i < complete; ++i) {
    const nlohmann::json& launch = launches[i];
    const std::string name = launch.value("kernel", "");
    auto [it, added] = index.emplace(name, kernels.size());
    if (added) {
      kernels.emplace_back();
      kernels.back().kernel = name;
      kernels.back().demangled = demangled_kernel_name(name);
    }
    SimKernel& k = kernels[it->second];
    ++k.launches;
    k.cycles += launch.value("cycles", 0.0);
    const nlohmann::json& modules =
        launch.contains("modules") ? launch["modules"] : nlohmann::json();
    for (const CounterMapping& m : counter_mappings()) {
      const double sectors = scale.of(m.module_kind);
      bool found = false;
      double sum = 0;
      const double per_sector = scale.sector_of(m.module_kind);
      for (auto mod = modules.begin(); sectors > 0 && mod != modules.end(); ++mod) {
        if (!module_of_kind(mod.key(), m.module_kind)) continue;
        if (per_sector > 0 && mod.value().contains(m.sector_stat)) {
          found = true;
          sum += mod.value()[m.sector_stat].get<double>() * per_sector;
        } else if (mod.value().contains(m.stat)) {
          found = true;
          sum += mod.value()[m.stat].get<double>() * sectors;
        }
      }
      if (!found) continue;
      k.counters[m.name] += sum;
      ++counted[name][m.name];
    }
  }
  if (stats.contains("untimed_launches") && stats["untimed_launches"].is_array())
    for (const nlohmann::json& u : stats["untimed_launches"])
      if (auto it = index.find(u.value("kernel", "")); it != index.end())
        ++kernels[it->second].untimed;
  for (SimKernel& k : kernels) {
    k.cycles /= static_cast<double>(k.launches);
    for (auto& [counter, value] : k.counters)
      value /= static_cast<double>(counted[k.kernel][counter]);
  }
  return kernels;
}

Matching match_kernels(const std::string& program, const std::vector<SimKernel>& sim,
                       const std::vector<HwKernel>& hw) {
  Matching m;
  std::map<std::string, const SimKernel*> by_name;
  for (const SimKernel& k : sim) by_name[k.kernel] = &k;
  std::map<std::string, bool> matched;
  for (const HwKernel& row : hw) {
    if (row.benchmark != program) continue;
    auto it = by_name.find(row.kernel);
    if (it == by_name.end()) {
      m.hw_only.push_back(row);
      continue;
    }
    const SimKernel& s = *it->second;
    matched[s.kernel] = true;
    Comparison c;
    c.program = program;
    c.kernel = s.kernel;
    c.demangled = s.demangled;
    c.launches = s.launches;
    c.untimed = s.untimed;
    c.sim_cycles = s.cycles;
    c.hw_cycles = row.values.at("Elapsed_Cycles");
    for (const CounterMapping& map : counter_mappings()) {
      std::optional<double> sim_value, hw_value;
      if (auto v = s.counters.find(map.name); v != s.counters.end()) sim_value = v->second;
      double sum = 0;
      bool all = true;
      for (const std::string& column : map.hw_columns) {
        auto v = row.values.find(column);
        all = all && v != row.values.end();
        if (all) sum += v->second;
      }
      if (all) hw_value = sum;
      c.counters[map.name] = {sim_value, hw_value};
    }
    m.compared.push_back(std::move(c));
  }
  for (const SimKernel& k : sim)
    if (!matched.count(k.kernel)) m.sim_only.push_back(k);
  return m;
}

double mape(const std::vector<double>& sim, const std::vector<double>& hw) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < sim.size() && i < hw.size(); ++i)
    if (hw[i] > 0) {
      sum += std::fabs(sim[i] - hw[i]) / hw[i];
      ++n;
    }
  return n ? sum / static_cast<double>(n) : std::nan("");
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::nan("");
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : std::nan("");
}

namespace {

Agreement agreement(const std::vector<double>& sim, const std::vector<double>& hw) {
  return {sim.size(), mape(sim, hw), pearson(sim, hw)};
}

}  // namespace

Agreement cycles_agreement(const std::vector<Comparison>& c) {
  std::vector<double> sim, hw;
  for (const Comparison& k : c) sim.push_back(k.sim_cycles), hw.push_back(k.hw_cycles);
  return agreement(sim, hw);
}

Agreement counter_agreement(const std::vector<Comparison>& c, const std::string& counter) {
  std::vector<double> sim, hw;
  for (const Comparison& k : c) {
    auto it = k.counters.find(counter);
    if (it == k.counters.end() || !it->second.first || !it->second.second) continue;
    sim.push_back(*it->second.first);
    hw.push_back(*it->second.second);
  }
  return agreement(sim, hw);
}

}  // namespace gputlm::app
