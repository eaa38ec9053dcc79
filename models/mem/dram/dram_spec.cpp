#include "models/mem/dram/dram_spec.h"

#include <stdexcept>

#include "models/common/registry.h"
#include "models/mem/dram/dram_scheduler.h"

namespace gputlm::mem {
namespace {
bool power_of_two(uint64_t v) { return v && !(v & (v - 1)); }
unsigned log2u(uint64_t v) { return static_cast<unsigned>(63 - __builtin_clzll(v)); }
}  // namespace

DramSpec DramSpec::from_json(const nlohmann::json& j, const std::string& where,
                             const std::string& path) {
  DramSpec s;
  ConfigReader r(j, where, path);
  if (r.has("preset")) s = *preset(r.get_choice("preset", "", preset_names()));
  s.clock_mhz = r.get_double("clock_mhz", s.clock_mhz, 1.0, 100000.0);
  s.banks = static_cast<uint32_t>(r.get_uint("banks", s.banks, 1, 1024));
  s.row_bytes = static_cast<uint32_t>(r.get_uint("row_bytes", s.row_bytes, 64, 1u << 20));
  if (!power_of_two(s.row_bytes)) r.fail("row_bytes", "must be a power of two");
  s.queue_depth = static_cast<uint32_t>(r.get_uint("queue_depth", s.queue_depth, 1, 4096));
  s.write_queue_depth =
      static_cast<uint32_t>(r.get_uint("write_queue_depth", s.write_queue_depth, 1, 4096));
  s.write_high = r.get_double("write_high", s.write_high, 0.0, 1.0);
  s.write_low = r.get_double("write_low", s.write_low, 0.0, 1.0);
  if (s.write_low > s.write_high) r.fail("write_low", "must not be above write_high");
  s.controller_latency = r.get_uint("controller_latency", s.controller_latency, 0, 100000);
  s.channel_addresses = r.get_choice("address_space", s.channel_addresses ? "channel" : "global",
                                     {"global", "channel"}) == "channel";
  s.page_policy = r.get_enum("page_policy", s.page_policy,
                             {{"open", PagePolicy::Open}, {"closed", PagePolicy::Closed}});
  s.scheduler =
      r.get_choice("scheduler", s.scheduler, Registry<DramSchedulerFactory>::instance().names());
  s.timing_model = r.get_enum("timing_model", s.timing_model, timing_model_names());
  s.hold_cycles = r.get_uint("hold_cycles", s.hold_cycles, 0, 1000000);
  if (s.scheduler == "fr-fcfs-hold" && s.page_policy != PagePolicy::Open)
    r.fail("scheduler", "fr-fcfs-hold holds rows open, so it needs page_policy \"open\"");

  const nlohmann::json& map = r.get_array("address_map");
  if (!map.empty()) s.address_map.clear();
  unsigned total = 0, bank_bits = 0, group_bits = 0;
  for (size_t i = 0; i < map.size(); ++i) {
    ConfigReader f(map[i], where, r.key_path("address_map[" + std::to_string(i) + "]"));
    AddressField a;
    a.field = f.get_choice("field", "", {"column", "bank", "bank_group", "channel"});
    a.bits = static_cast<unsigned>(f.get_uint("bits", 0, 0, 40));
    f.finish();
    if (a.field == "bank") bank_bits += a.bits;
    if (a.field == "bank_group") group_bits += a.bits;
    total += a.bits;
    s.address_map.push_back(a);
  }
  if (!map.empty() && (1ull << (bank_bits + group_bits)) != s.banks)
    r.fail("address_map", "has " + std::to_string(bank_bits + group_bits) +
                              " bank and bank group bits but banks is " + std::to_string(s.banks));
  if (total > 56) r.fail("address_map", "uses more than 56 bits");
  if (map.empty() && !power_of_two(s.banks))
    r.fail("banks", "must be a power of two unless address_map is given");

  ConfigReader lt(r.get_object("latency"), where, r.key_path("latency"));
  s.latency.row_hit = lt.get_uint("row_hit", s.latency.row_hit, 1, 1000000);
  s.latency.row_conflict = lt.get_uint("row_conflict", s.latency.row_conflict, 1, 1000000);
  s.latency.row_empty = lt.get_uint("row_empty", s.latency.row_empty, 1, 1000000);
  s.latency.bandwidth_gbps =
      lt.get_double("bandwidth_gbps", s.latency.bandwidth_gbps, 0.001, 100000.0);
  s.latency.conflict_busy =
      lt.get_choice("conflict_busy", s.latency.conflict_busy, {"opening", "access"});
  s.latency.bus_order = lt.get_choice("bus_order", s.latency.bus_order, {"issue", "data"});
  if (s.latency.row_conflict < s.latency.row_hit)
    lt.fail("row_conflict", "must not be below row_hit");
  if (s.latency.row_empty < s.latency.row_hit) lt.fail("row_empty", "must not be below row_hit");
  lt.finish();

  ConfigReader ct(r.get_object("command"), where, r.key_path("command"));
  CommandTiming& c = s.command;
  for (auto [key, field] : {std::pair{"tRCD", &c.tRCD},
                            {"tCL", &c.tCL},
                            {"tRP", &c.tRP},
                            {"tRAS", &c.tRAS},
                            {"tCCD_S", &c.tCCD_S},
                            {"tCCD_L", &c.tCCD_L},
                            {"tRRD_S", &c.tRRD_S},
                            {"tRRD_L", &c.tRRD_L},
                            {"tRTP", &c.tRTP},
                            {"tWR", &c.tWR},
                            {"tWTR_S", &c.tWTR_S},
                            {"tWTR_L", &c.tWTR_L}})
    *field = ct.get_uint(key, *field, 1, 10000);
  // Zero means: tWL none, tRCDWR tRCD, tRC tRAS + tRP, tFAW no window, tRTW the JEDEC turnaround,
  // tREFI no refresh.
  for (auto [key, field] : {std::pair{"tWL", &c.tWL},
                            {"tRCDWR", &c.tRCDWR},
                            {"tRC", &c.tRC},
                            {"tFAW", &c.tFAW},
                            {"tRTW", &c.tRTW},
                            {"tREFI", &c.tREFI},
                            {"tRFC", &c.tRFC}})
    *field = ct.get_uint(key, *field, 0, key == std::string("tREFI") ? 10000000 : 10000);
  c.bank_groups = static_cast<uint32_t>(ct.get_uint("bank_groups", c.bank_groups, 1, 64));
  c.burst_length = ct.get_uint("burst_length", c.burst_length, 1, 64);
  c.bus_bytes = ct.get_uint("bus_bytes", c.bus_bytes, 1, 1024);
  c.data_rate = ct.get_uint("data_rate", c.data_rate, 1, 16);
  c.dual_command_bus = ct.get_bool("dual_command_bus", c.dual_command_bus);
  if (c.burst_length % c.data_rate != 0) ct.fail("burst_length", "must be a multiple of data_rate");
  if (s.banks % c.bank_groups != 0)
    ct.fail("bank_groups", "must divide banks (" + std::to_string(s.banks) + ")");
  if (c.tRC && c.tRC < c.tRAS) ct.fail("tRC", "must not be below tRAS");
  if (c.tREFI && c.tRFC == 0) ct.fail("tRFC", "must be given when tREFI turns refresh on");
  if (c.tREFI && c.tREFI <= c.tRFC) ct.fail("tREFI", "must be above tRFC");
  if (group_bits && (1ull << group_bits) != c.bank_groups)
    r.fail("address_map", "has " + std::to_string(group_bits) +
                              " bank group bits but command.bank_groups is " +
                              std::to_string(c.bank_groups));
  ct.finish();
  r.finish();
  if (s.address_map.empty())
    s.address_map = {{"column", log2u(s.row_bytes)}, {"bank", log2u(s.banks)}};
  return s;
}

uint64_t DramSpec::hold_threshold() const {
  if (hold_cycles) return hold_cycles;
  return command_model() ? command.tRP + command.tRCD : latency.row_conflict - latency.row_hit;
}

const std::vector<std::pair<std::string, DramSpec::TimingModel>>& DramSpec::timing_model_names() {
  static const std::vector<std::pair<std::string, TimingModel>> names{
      {"latency", TimingModel::Latency}, {"command", TimingModel::Command}};
  return names;
}

const std::string& DramSpec::timing_model_name() const {
  for (const auto& [name, model] : timing_model_names())
    if (model == timing_model) return name;
  throw std::logic_error("a DRAM timing model without a name");
}

}  // namespace gputlm::mem
