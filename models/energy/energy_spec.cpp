#include "models/energy/energy_spec.h"

#include "models/common/config_reader.h"
#include "models/common/error.h"

namespace gputlm::energy {

namespace {

constexpr double kMaxPj = 1e9;  // a millijoule per event: anything above is a unit mistake
constexpr double kMaxWatts = 1e4;

// Every group may say where its numbers come from; the text is for readers, not the model.
void read_notes(ConfigReader& r) {
  r.get_string("description", "");
  if (!r.has("sources")) return;
  const nlohmann::json& s = r.get_object("sources");
  for (const auto& [key, text] : s.items())
    if (!text.is_string())
      r.fail("sources." + key, "must be a string (where the value comes from)");
}

double need(ConfigReader& r, const std::string& key, double max) {
  if (!r.has(key)) r.fail(key, "missing: an energy table gives every value (with its source)");
  return r.get_double(key, 0, 0, max);
}

const nlohmann::json& need_object(ConfigReader& r, const std::string& key) {
  if (!r.has(key)) r.fail(key, "missing: an energy table has every group");
  return r.get_object(key);
}

CacheEnergy read_cache(const nlohmann::json& j, const std::string& where, const std::string& path) {
  ConfigReader r(j, where, path);
  read_notes(r);
  CacheEnergy c;
  c.hit_pj = need(r, "hit_pj", kMaxPj);
  c.miss_pj = need(r, "miss_pj", kMaxPj);
  c.fill_pj = need(r, "fill_pj", kMaxPj);
  c.writeback_pj = need(r, "writeback_pj", kMaxPj);
  c.static_w = need(r, "static_w", kMaxWatts);
  r.finish();
  return c;
}

SimtCoreEnergy read_core(const nlohmann::json& j, const std::string& where,
                         const std::string& path) {
  ConfigReader r(j, where, path);
  read_notes(r);
  SimtCoreEnergy c;
  c.instruction_pj = need(r, "instruction_pj", kMaxPj);
  c.register_read_pj = need(r, "register_read_pj", kMaxPj);
  c.register_write_pj = need(r, "register_write_pj", kMaxPj);
  ConfigReader units(need_object(r, "unit_pj"), where, path + ".unit_pj");
  for (size_t i = 0; i < isa::kInstrClasses; ++i)
    c.unit_pj[i] =
        need(units, std::string(isa::instr_class_name(static_cast<isa::InstrClass>(i))), kMaxPj);
  units.finish();
  c.shared_access_pj = need(r, "shared_access_pj", kMaxPj);
  c.static_w = need(r, "static_w", kMaxWatts);
  r.finish();
  return c;
}

XbarEnergy read_xbar(const nlohmann::json& j, const std::string& where, const std::string& path) {
  ConfigReader r(j, where, path);
  read_notes(r);
  XbarEnergy x;
  x.byte_hop_pj = need(r, "byte_hop_pj", kMaxPj);
  x.hops = need(r, "hops", 1e3);
  x.static_w = need(r, "static_w", kMaxWatts);
  r.finish();
  return x;
}

DramEnergy read_dram(const nlohmann::json& j, const std::string& where, const std::string& path) {
  ConfigReader r(j, where, path);
  read_notes(r);
  DramEnergy d;
  d.vdd = need(r, "vdd", 10);
  d.idd0_ma = need(r, "idd0_ma", 1e5);
  d.idd2n_ma = need(r, "idd2n_ma", 1e5);
  d.idd3n_ma = need(r, "idd3n_ma", 1e5);
  d.idd4r_ma = need(r, "idd4r_ma", 1e5);
  d.idd4w_ma = need(r, "idd4w_ma", 1e5);
  d.idd5_ma = need(r, "idd5_ma", 1e5);
  d.trc_ns = need(r, "trc_ns", 1e6);
  d.tras_ns = need(r, "tras_ns", 1e6);
  d.trfc_ns = need(r, "trfc_ns", 1e6);
  if (!r.has("devices_per_channel"))
    r.fail("devices_per_channel", "missing: an energy table gives every value (with its source)");
  d.devices_per_channel = static_cast<uint32_t>(r.get_uint("devices_per_channel", 1, 1, 1024));
  r.finish();
  return d;
}

VgiwEnergy read_vgiw(const nlohmann::json& j, const std::string& where, const std::string& path) {
  ConfigReader r(j, where, path);
  read_notes(r);
  VgiwEnergy v;
  v.compute_pj = need(r, "compute_pj", kMaxPj);
  v.special_pj = need(r, "special_pj", kMaxPj);
  v.load_store_pj = need(r, "load_store_pj", kMaxPj);
  v.live_value_pj = need(r, "live_value_pj", kMaxPj);
  v.split_join_pj = need(r, "split_join_pj", kMaxPj);
  v.control_vector_pj = need(r, "control_vector_pj", kMaxPj);
  v.token_buffer_pj = need(r, "token_buffer_pj", kMaxPj);
  v.token_hop_pj = need(r, "token_hop_pj", kMaxPj);
  v.shared_access_pj = need(r, "shared_access_pj", kMaxPj);
  v.cvt_read_pj = need(r, "cvt_read_pj", kMaxPj);
  v.cvt_update_pj = need(r, "cvt_update_pj", kMaxPj);
  v.reconfiguration_pj = need(r, "reconfiguration_pj", kMaxPj);
  v.static_w = need(r, "static_w", kMaxWatts);
  v.l1d = read_cache(need_object(r, "l1d"), where, path + ".l1d");
  v.lvc = read_cache(need_object(r, "lvc"), where, path + ".lvc");
  r.finish();
  return v;
}

}  // namespace

EnergySpec EnergySpec::from_json(const nlohmann::json& j, const std::string& where_in,
                                 const std::string& path) {
  EnergySpec s;
  std::string where = where_in;
  if (j.is_object() && j.contains("table_file") && j["table_file"].is_string()) {
    s.table_file = j["table_file"].get<std::string>();
    where += " (energy table " + s.table_file + ")";
  }
  ConfigReader r(j, where, path);
  r.get_string("table_file", "");
  read_notes(r);
  s.name = r.get_string("name", "");
  s.description = r.get_string("description", "");
  s.process_nm = need(r, "process_nm", 1e4);
  s.core = read_core(need_object(r, "core"), where, r.key_path("core"));
  s.l1i = read_cache(need_object(r, "l1i"), where, r.key_path("l1i"));
  s.l1d = read_cache(need_object(r, "l1d"), where, r.key_path("l1d"));
  s.l2 = read_cache(need_object(r, "l2"), where, r.key_path("l2"));
  s.xbar = read_xbar(need_object(r, "xbar"), where, r.key_path("xbar"));
  s.dram = read_dram(need_object(r, "dram"), where, r.key_path("dram"));
  s.vgiw = read_vgiw(need_object(r, "vgiw"), where, r.key_path("vgiw"));
  r.finish();
  s.validate(where, path);
  return s;
}

void EnergySpec::validate(const std::string& where, const std::string& path) const {
  const std::string dram_path = path + ".dram";
  auto fail = [&](const std::string& key, const std::string& why) {
    throw ConfigError(where, dram_path + "." + key, why);
  };
  if (dram.tras_ns > dram.trc_ns) fail("tras_ns", "must not exceed trc_ns (tRC = tRAS + tRP)");
  if (dram.idd3n_ma < dram.idd2n_ma)
    fail("idd3n_ma", "must be at least idd2n_ma (a bank open draws more than all precharged)");
  if (dram.idd4r_ma < dram.idd3n_ma)
    fail("idd4r_ma", "must be at least idd3n_ma (a read burst adds to active standby)");
  if (dram.idd4w_ma < dram.idd3n_ma)
    fail("idd4w_ma", "must be at least idd3n_ma (a write burst adds to active standby)");
  if (dram.idd5_ma < dram.idd3n_ma)
    fail("idd5_ma", "must be at least idd3n_ma (refresh adds to active standby)");
  if (dram.activate_precharge_pj() < 0)
    fail("idd0_ma",
         "gives a negative activate energy: IDD0 x tRC must exceed IDD3N x tRAS + IDD2N x (tRC - "
         "tRAS)");
}

}  // namespace gputlm::energy
