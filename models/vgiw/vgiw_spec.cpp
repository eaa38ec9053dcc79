#include "models/vgiw/vgiw_spec.h"

#include <algorithm>

#include "models/common/config_reader.h"

namespace gputlm::vgiw {

VgiwSpec::VgiwSpec() {
  l1d.clock_mhz = lvc.clock_mhz = clock_mhz;
  l1d.size_bytes = lvc.size_bytes = 65536;
  l1d.assoc = lvc.assoc = 4;
  l1d.line_bytes = lvc.line_bytes = 128;
  l1d.banks = lvc.banks = 32;
  l1d.bank_bytes = lvc.bank_bytes = 4;   // word-interleaved: the threads of a line reach 32 banks
  l1d.mshr_merge = lvc.mshr_merge = 32;  // a line's 32 words, one request a thread
  l1d.hit_latency = 20;                  // as the fermi-gtx480 L1
  lvc.hit_latency = 4;  // chosen: a small banked SRAM read, like a register file bank
  l1d.mshrs = lvc.mshrs = 64;
  l1d.write_policy = lvc.write_policy = "write-back";
  lvc.write_validate =
      true;  // live values are written before they are read: no fetch on a write miss
  l1d.ports = units[static_cast<size_t>(UnitType::LoadStore)];
  lvc.ports = units[static_cast<size_t>(UnitType::LiveValue)];
}

uint32_t VgiwSpec::units_total() const {
  uint32_t n = 0;
  for (uint32_t u : units) n += u;
  return n;
}

VgiwSpec VgiwSpec::from_json(const nlohmann::json& j, const std::string& where,
                             const std::string& path) {
  VgiwSpec s;
  ConfigReader r(j, where, path);
  s.clock_mhz = r.get_double("clock_mhz", s.clock_mhz, 1.0, 100000.0);
  {
    ConfigReader u(r.get_object("units"), where, r.key_path("units"));
    for (size_t t = 0; t < kUnitTypes; ++t)
      s.units[t] = static_cast<uint32_t>(
          u.get_uint(unit_type_name(static_cast<UnitType>(t)), s.units[t], 0, 4096));
    u.finish();
  }
  s.grid_width = static_cast<uint32_t>(r.get_uint("grid_width", s.grid_width, 1, 256));
  s.grid_height = static_cast<uint32_t>(r.get_uint("grid_height", s.grid_height, 1, 256));
  if (s.grid_width * s.grid_height != s.units_total())
    r.fail("grid_width", "grid_width x grid_height (" +
                             std::to_string(s.grid_width * s.grid_height) +
                             ") must equal the units (" + std::to_string(s.units_total()) + ")");
  for (size_t t : {size_t(UnitType::Compute), size_t(UnitType::LoadStore),
                   size_t(UnitType::LiveValue), size_t(UnitType::ControlVector)})
    if (s.units[t] == 0)
      r.fail("units", std::string("needs at least one ") +
                          unit_type_name(static_cast<UnitType>(t)) + " unit");
  if (s.units[size_t(UnitType::ControlVector)] < 2)
    r.fail("units", "needs two control_vector units (an initiator and a terminator)");
  s.virtual_channels =
      static_cast<uint32_t>(r.get_uint("virtual_channels", s.virtual_channels, 1, 4096));
  s.reservation_entries =
      static_cast<uint32_t>(r.get_uint("reservation_entries", s.reservation_entries, 1, 4096));
  auto latency = [&](const char* key, uint32_t& v) {
    v = static_cast<uint32_t>(r.get_uint(key, v, 1, 100000));
  };
  latency("compute_latency", s.compute_latency);
  latency("int_div_latency", s.int_div_latency);
  latency("float_div_latency", s.float_div_latency);
  latency("sfu_latency", s.sfu_latency);
  latency("join_latency", s.join_latency);
  latency("control_latency", s.control_latency);
  latency("shared_latency", s.shared_latency);
  latency("param_latency", s.param_latency);
  s.special_instances =
      static_cast<uint32_t>(r.get_uint("special_instances", s.special_instances, 1, 4096));
  s.reconfiguration_cycles = static_cast<uint32_t>(
      r.get_uint("reconfiguration_cycles", s.reconfiguration_cycles, 0, 1000000));
  s.cvt_bits = r.get_uint("cvt_bits", s.cvt_bits, 64, uint64_t{1} << 32);
  s.cvt_banks = static_cast<uint32_t>(r.get_uint("cvt_banks", s.cvt_banks, 1, 1024));
  s.max_threads_per_tile =
      static_cast<uint32_t>(r.get_uint("max_threads_per_tile", s.max_threads_per_tile, 64, 65536));
  s.tile_fits_lvc = r.get_bool("tile_fits_lvc", s.tile_fits_lvc);
  s.statics.configuration =
      r.get_choice("static_operands", s.statics.configuration ? "configuration" : "units",
                   {"configuration", "units"}) == "configuration";
  const auto& folding = static_folding_names();
  const std::string fold =
      r.get_choice("static_folding", folding[size_t(s.statics.folding)], folding);
  s.statics.folding =
      static_cast<StaticFolding>(std::find(folding.begin(), folding.end(), fold) - folding.begin());
  s.sgmf_unmapped_as_vgiw =
      r.get_choice("sgmf_unmapped", s.sgmf_unmapped_as_vgiw ? "vgiw" : "refuse",
                   {"refuse", "vgiw"}) == "vgiw";
  const uint32_t ldst = s.units[size_t(UnitType::LoadStore)],
                 lvu = s.units[size_t(UnitType::LiveValue)];
  s.l1d.ports = ldst;
  s.lvc.ports = lvu;
  s.l1d.clock_mhz = s.lvc.clock_mhz = s.clock_mhz;
  if (r.has("l1d"))
    s.l1d = mem::CacheSpec::from_json(r.get_object("l1d"), where, r.key_path("l1d"), s.l1d);
  if (r.has("lvc"))
    s.lvc = mem::CacheSpec::from_json(r.get_object("lvc"), where, r.key_path("lvc"), s.lvc);
  if (s.l1d.ports != ldst)
    r.fail("l1d", "ports must equal the load_store units (" + std::to_string(ldst) + ")");
  if (s.lvc.ports != lvu)
    r.fail("lvc", "ports must equal the live_value units (" + std::to_string(lvu) + ")");
  r.finish();
  return s;
}

}  // namespace gputlm::vgiw
