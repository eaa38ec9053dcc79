#include "models/energy/energy_model.h"

#include <algorithm>

namespace gputlm::energy {

namespace {

constexpr double kPicojoule = 1e-12;

double count(const nlohmann::json& stats, const char* key) {
  const auto it = stats.find(key);
  return it != stats.end() && it->is_number() ? it->get<double>() : 0.0;
}

// What a module is, from its SystemC name: the leaf of "gpu.core0.l1d" is "l1d" under a core.
enum class Kind { Core, L1i, L1d, Lvc, Fabric, Scheduler, L2, Xbar, Dram, Other };

Kind kind_of(const std::string& name) {
  const size_t dot = name.rfind('.');
  const std::string leaf = dot == std::string::npos ? name : name.substr(dot + 1);
  const std::string parent = dot == std::string::npos ? "" : name.substr(0, dot);
  const size_t pdot = parent.rfind('.');
  const bool under_core = parent.compare(pdot == std::string::npos ? 0 : pdot + 1, 4, "core") == 0;
  if (under_core) {
    if (leaf == "l1i") return Kind::L1i;
    if (leaf == "l1d") return Kind::L1d;
    if (leaf == "lvc") return Kind::Lvc;
    if (leaf == "cgrf") return Kind::Fabric;
    if (leaf == "bbs") return Kind::Scheduler;
    return Kind::Other;
  }
  if (leaf.rfind("core", 0) == 0) return Kind::Core;
  if (leaf == "xbar") return Kind::Xbar;
  if (leaf.rfind("l2_", 0) == 0) return Kind::L2;
  if (leaf.rfind("dram", 0) == 0) return Kind::Dram;
  return Kind::Other;
}

// Adds `part` to component `component` of `into`: to the part of that name, or as a new one (a
// new component goes last).
void accumulate(std::vector<EnergyComponent>& into, const std::string& component,
                const EnergyPart& part) {
  auto c = std::find_if(into.begin(), into.end(),
                        [&](const EnergyComponent& x) { return x.name == component; });
  if (c == into.end()) c = into.insert(into.end(), {component, {}});
  auto p = std::find_if(c->parts.begin(), c->parts.end(),
                        [&](const EnergyPart& x) { return x.name == part.name; });
  if (p == c->parts.end())
    c->parts.push_back(part);
  else
    p->joules += part.joules;
}

// Components in a fixed order, each part summed over the modules that feed it.
class Builder {
 public:
  explicit Builder(std::vector<std::string> order) {
    for (std::string& n : order) m_components.push_back({std::move(n), {}});
  }
  void add(const std::string& component, const std::string& part, double joules,
           bool is_static = false) {
    accumulate(m_components, component, {part, joules, is_static});
  }
  std::vector<EnergyComponent> take() {
    std::vector<EnergyComponent> out;
    for (EnergyComponent& c : m_components)
      if (!c.parts.empty()) out.push_back(std::move(c));
    return out;
  }

 private:
  std::vector<EnergyComponent> m_components;
};

void add_cache(Builder& b, const std::string& component, const CacheEnergy& e,
               const nlohmann::json& s, double seconds) {
  b.add(component, "hits", count(s, "hits") * e.hit_pj * kPicojoule);
  b.add(component, "misses", count(s, "misses") * e.miss_pj * kPicojoule);
  b.add(component, "fills", count(s, "fills") * e.fill_pj * kPicojoule);
  b.add(component, "writebacks", count(s, "writebacks") * e.writeback_pj * kPicojoule);
  b.add(component, "static", e.static_w * seconds, true);
}

void add_simt_core(Builder& b, const SimtCoreEnergy& e, const nlohmann::json& s, double seconds) {
  b.add("core", "instructions", count(s, "warp_instructions") * e.instruction_pj * kPicojoule);
  b.add("core", "register_file",
        (count(s, "register_reads") * e.register_read_pj +
         count(s, "register_writes") * e.register_write_pj) *
            kPicojoule);
  double units = 0;
  if (const auto it = s.find("thread_instructions_by_class"); it != s.end() && it->is_object())
    for (size_t i = 0; i < isa::kInstrClasses; ++i)
      units +=
          count(*it, std::string(isa::instr_class_name(static_cast<isa::InstrClass>(i))).c_str()) *
          e.unit_pj[i];
  b.add("core", "functional_units", units * kPicojoule);
  b.add("core", "shared_memory", count(s, "shared_accesses") * e.shared_access_pj * kPicojoule);
  b.add("core", "static", e.static_w * seconds, true);
}

void add_fabric(Builder& b, const VgiwEnergy& e, const nlohmann::json& s) {
  const double firings[] = {count(s, "firings_compute"),    count(s, "firings_special"),
                            count(s, "firings_load_store"), count(s, "firings_live_value"),
                            count(s, "firings_split_join"), count(s, "firings_control_vector")};
  const double pj[] = {e.compute_pj,    e.special_pj,    e.load_store_pj,
                       e.live_value_pj, e.split_join_pj, e.control_vector_pj};
  double units = 0, all = 0;
  for (size_t i = 0; i < std::size(firings); ++i) {
    units += firings[i] * pj[i];
    all += firings[i];
  }
  b.add("fabric", "units", units * kPicojoule);
  b.add("fabric", "token_buffers", all * e.token_buffer_pj * kPicojoule);
  b.add("fabric", "token_hops", count(s, "token_hops") * e.token_hop_pj * kPicojoule);
  b.add("fabric", "shared_memory", count(s, "shared_accesses") * e.shared_access_pj * kPicojoule);
}

void add_scheduler(Builder& b, const VgiwEnergy& e, const nlohmann::json& s) {
  b.add("scheduler", "control_vector_table",
        (count(s, "cvt_word_reads") * e.cvt_read_pj +
         count(s, "cvt_word_updates") * e.cvt_update_pj) *
            kPicojoule);
  b.add("scheduler", "reconfiguration",
        count(s, "reconfigurations") * e.reconfiguration_pj * kPicojoule);
}

void add_xbar(Builder& b, const XbarEnergy& e, const nlohmann::json& s, const EnergyContext& c) {
  const double flits = count(s, "request_flits") + count(s, "response_flits");
  b.add("xbar", "flit_hops", flits * c.flit_bytes * e.hops * e.byte_hop_pj * kPicojoule);
  b.add("xbar", "static", e.static_w * c.seconds, true);
}

// One channel: Micron TN-41-01 / DRAMPower per device, times the devices of the channel. Banks
// count as active (IDD3N) from the channel's first request to its last data within the stretch
// (its active_cycles), precharged (IDD2N) the rest: power-down is not modelled.
void add_dram(Builder& b, const DramEnergy& e, const nlohmann::json& s, const EnergyContext& c) {
  const double devices = e.devices_per_channel;
  const double cycle_s = c.dram_clock_mhz > 0 ? 1e-6 / c.dram_clock_mhz : 0.0;
  const double reads = count(s, "reads"), writes = count(s, "writes");
  const double bus_s = count(s, "bus_busy_cycles") * cycle_s;
  const double read_s = reads + writes > 0 ? bus_s * reads / (reads + writes) : 0.0;
  const double active_s = std::min(c.seconds, count(s, "active_cycles") * cycle_s);
  b.add("dram", "activate_precharge",
        count(s, "activates") * e.activate_precharge_pj() * devices * kPicojoule);
  b.add("dram", "read_bursts", read_s * e.read_burst_w() * devices);
  b.add("dram", "write_bursts", (bus_s - read_s) * e.write_burst_w() * devices);
  b.add(
      "dram", "refresh",
      (count(s, "refreshes") + count(s, "idle_refreshes")) * e.refresh_pj() * devices * kPicojoule);
  b.add("dram", "background",
        (active_s * e.active_standby_w() + (c.seconds - active_s) * e.precharge_standby_w()) *
            devices,
        true);
}

}  // namespace

double EnergyComponent::total() const {
  double t = 0;
  for (const EnergyPart& p : parts) t += p.joules;
  return t;
}

double EnergyBreakdown::total() const {
  double t = 0;
  for (const EnergyComponent& c : components) t += c.total();
  return t;
}

double EnergyBreakdown::static_joules() const {
  double t = 0;
  for (const EnergyComponent& c : components)
    for (const EnergyPart& p : c.parts)
      if (p.is_static) t += p.joules;
  return t;
}

void EnergyBreakdown::add(const EnergyBreakdown& other) {
  seconds += other.seconds;
  for (const EnergyComponent& oc : other.components)
    for (const EnergyPart& op : oc.parts) accumulate(components, oc.name, op);
}

EnergyBreakdown estimate_energy(const EnergySpec& spec, const nlohmann::json& modules,
                                const EnergyContext& context) {
  Builder b({"core", "fabric", "scheduler", "l1i", "lvc", "l1d", "l2", "xbar", "dram"});
  for (const auto& [name, stats] : modules.items()) {
    switch (kind_of(name)) {
      case Kind::Core:
        if (context.vgiw)
          b.add("fabric", "static", spec.vgiw.static_w * context.seconds, true);
        else
          add_simt_core(b, spec.core, stats, context.seconds);
        break;
      case Kind::L1i:
        add_cache(b, "l1i", spec.l1i, stats, context.seconds);
        break;
      case Kind::L1d:
        add_cache(b, "l1d", context.vgiw ? spec.vgiw.l1d : spec.l1d, stats, context.seconds);
        break;
      case Kind::Lvc:
        add_cache(b, "lvc", spec.vgiw.lvc, stats, context.seconds);
        break;
      case Kind::Fabric:
        add_fabric(b, spec.vgiw, stats);
        break;
      case Kind::Scheduler:
        add_scheduler(b, spec.vgiw, stats);
        break;
      case Kind::L2:
        add_cache(b, "l2", spec.l2, stats, context.seconds);
        break;
      case Kind::Xbar:
        add_xbar(b, spec.xbar, stats, context);
        break;
      case Kind::Dram:
        add_dram(b, spec.dram, stats, context);
        break;
      case Kind::Other:
        break;
    }
  }
  EnergyBreakdown e;
  e.seconds = context.seconds;
  e.components = b.take();
  return e;
}

}  // namespace gputlm::energy
