#include "app/energy_report.h"

#include <cmath>
#include <iomanip>
#include <iterator>
#include <sstream>

namespace gputlm::app {

std::optional<energy::EnergyBreakdown> launch_energy(const gpu::GpuSpec& spec,
                                                     const nlohmann::json& modules,
                                                     uint64_t cycles) {
  if (!spec.energy) return std::nullopt;
  energy::EnergyContext c;
  c.seconds = double(cycles) / (spec.core_clock_mhz() * 1e6);
  c.dram_clock_mhz = spec.dram.clock_mhz;
  c.flit_bytes = spec.xbar.flit_bytes;
  c.vgiw = spec.fabric_core();  // VGIW and SGMF cores: the fabric and its L1
  return energy::estimate_energy(*spec.energy, modules, c);
}

namespace {
double per_instruction_pj(const energy::EnergyBreakdown& e, uint64_t thread_instructions) {
  return thread_instructions ? e.total() / double(thread_instructions) * 1e12 : 0.0;
}

// Joules with an SI prefix and three significant digits ("1.23 mJ").
std::string joules(double j) {
  static const char* const kPrefix[] = {"", "m", "u", "n", "p"};
  size_t i = 0;
  while (i + 1 < std::size(kPrefix) && j != 0 && std::fabs(j) < 1.0) {
    j *= 1000;
    ++i;
  }
  std::ostringstream s;
  s << std::setprecision(3) << j << " " << kPrefix[i] << "J";
  return s.str();
}

std::string headline(const energy::EnergyBreakdown& e, uint64_t thread_instructions) {
  std::ostringstream s;
  s << joules(e.total()) << ": " << std::fixed << std::setprecision(2) << e.average_power_w()
    << " W, " << std::setprecision(1) << per_instruction_pj(e, thread_instructions)
    << " pJ per thread instruction";
  return s.str();
}
}  // namespace

nlohmann::json to_json(const energy::EnergyBreakdown& e, uint64_t thread_instructions) {
  nlohmann::json j;
  j["total_j"] = e.total();
  j["static_j"] = e.static_joules();
  j["dynamic_j"] = e.total() - e.static_joules();
  j["seconds"] = e.seconds;
  j["average_power_w"] = e.average_power_w();
  j["pj_per_thread_instruction"] = per_instruction_pj(e, thread_instructions);
  nlohmann::json components = nlohmann::json::object();
  for (const energy::EnergyComponent& c : e.components) {
    nlohmann::json cj;
    for (const energy::EnergyPart& p : c.parts) cj[p.name + "_j"] = p.joules;
    cj["total_j"] = c.total();
    components[c.name] = cj;
  }
  j["components"] = components;
  return j;
}

void print_launch_energy(std::ostream& os, const energy::EnergyBreakdown& e,
                         uint64_t thread_instructions) {
  os << "  energy            " << headline(e, thread_instructions) << "\n";
}

void print_run_energy(std::ostream& os, const energy::EnergyBreakdown& e,
                      uint64_t thread_instructions) {
  const double total = e.total();
  auto share = [total](double j) { return total > 0 ? 100.0 * j / total : 0.0; };
  os << "energy              " << headline(e, thread_instructions) << std::fixed
     << std::setprecision(1) << " (static " << share(e.static_joules()) << "%)\n";
  os << "  by component     ";
  for (size_t i = 0; i < e.components.size(); ++i)
    os << (i ? ", " : " ") << e.components[i].name << " " << share(e.components[i].total()) << "%";
  os << "\n";
}

}  // namespace gputlm::app
