#include "models/sm/core_spec.h"

#include <algorithm>

#include "models/common/config_reader.h"
#include "models/common/registry.h"
#include "models/isa/modifiers.h"
#include "models/sm/formation/warp_formation.h"
#include "models/sm/scheduler/warp_scheduler.h"

namespace gputlm::sm {

namespace {
// Threads of a compaction block or a warp pool: whole rows of 32, at most 32 rows (RowMask).
uint32_t block_threads(ConfigReader& r, const char* key = "block_size") {
  const auto n = static_cast<uint32_t>(r.get_uint(key, 256, 32, 1024));
  if (n % kWarpSize != 0) r.fail(key, "must be a multiple of 32");
  return n;
}
// The unified L1/shared keys (CoreSpec::unified_l1_shared_bytes), read after shared_bytes and l1d,
// which they constrain: the L1 keeps its sets and line size and takes the array less the shared
// memory in whole ways (sm/carveout.h), so each capacity must leave a whole number of ways.
void read_unified_l1(ConfigReader& r, CoreSpec& s) {
  s.unified_l1_shared_bytes = static_cast<uint32_t>(
      r.get_uint("unified_l1_shared_bytes", s.unified_l1_shared_bytes, 0, 1u << 24));
  const nlohmann::json& list = r.get_array("shared_carveouts_kb");
  if (!s.unified()) {
    if (!list.empty()) r.fail("shared_carveouts_kb", "needs unified_l1_shared_bytes");
    return;
  }
  const uint32_t unified = s.unified_l1_shared_bytes;
  const uint64_t way = uint64_t{s.l1d.sets()} * s.l1d.line_bytes;
  if (s.l1d.size_bytes != unified)
    r.fail("unified_l1_shared_bytes", "must equal l1d.size_bytes (the L1 with no shared memory)");
  if (s.l1d.write_back())
    r.fail("unified_l1_shared_bytes", "needs a write-through l1d (resizing it drops its lines)");
  if (list.empty()) r.fail("shared_carveouts_kb", "lists the shared capacities (KB)");
  s.shared_carveouts.clear();
  for (const nlohmann::json& kb : list) {
    if (!kb.is_number_integer() || kb.get<int64_t>() < 0 || kb.get<uint64_t>() * 1024 >= unified)
      r.fail("shared_carveouts_kb", "each must be a whole number of KB below the unified size");
    const auto bytes = static_cast<uint32_t>(kb.get<uint64_t>() * 1024);
    if (!s.shared_carveouts.empty() && bytes <= s.shared_carveouts.back())
      r.fail("shared_carveouts_kb", "must be ascending");
    if ((unified - bytes) % way != 0)
      r.fail("shared_carveouts_kb", "each must leave whole l1d ways of " + std::to_string(way) +
                                        " bytes (sets x line_bytes)");
    s.shared_carveouts.push_back(bytes);
  }
  if (r.has("shared_bytes") && s.shared_bytes != s.shared_carveouts.back())
    r.fail("shared_bytes",
           "must be the largest of shared_carveouts_kb on a unified core (or left out)");
  s.shared_bytes = s.shared_carveouts.back();
}
}  // namespace

CoreSpec::CoreSpec() {
  units.fill(UnitSpec{2, 1, 32});
  units[static_cast<size_t>(isa::InstrClass::Sfu)] = UnitSpec{2, 1, 32};
  // Tensor cores, for every preset that names none: Volta's, four units (one a sub-core) of two
  // tensor cores doing 64 FMA a cycle each (NVIDIA Tesla V100 whitepaper, 2017: 8 tensor cores an
  // SM, 64 FMA a clock each), so 128 multiply-adds a pass; latency 8 cycles after the last pass
  // (Accel-Sim's TENSOR unit example, `-specialized_unit_3 1,4,8,...`). A wmma m16n16k16 takes 32
  // passes, an mma m16n8k16 16.
  units[static_cast<size_t>(isa::InstrClass::Tensor)] = UnitSpec{8, 1, 32, 4, 128};
  icache.size_bytes = 4096;  // Table 5.1: 4KB I-cache
  icache.assoc = 4;
  icache.write_policy = "write-through";
  l1d.size_bytes = 128 * 1024;  // Table 5.1: 128KB, 4-way, 1-cycle D-cache, 128 B lines
  l1d.assoc = 4;
  l1d.hit_latency = 1;
  l1c.size_bytes = 0;  // no constant cache unless "l1c" names one
}

CoreSpec CoreSpec::from_json(const nlohmann::json& j, const std::string& where,
                             const std::string& path) {
  CoreSpec s;
  ConfigReader r(j, where, path);
  s.clock_mhz = r.get_double("clock_mhz", s.clock_mhz, 1.0, 100000.0);
  s.max_threads = static_cast<uint32_t>(r.get_uint("max_threads", s.max_threads, 32, 65536));
  s.max_warps = static_cast<uint32_t>(r.get_uint("max_warps", s.max_warps, 1, 2048));
  s.max_ctas = static_cast<uint32_t>(r.get_uint("max_ctas", s.max_ctas, 1, 1024));
  s.registers = static_cast<uint32_t>(r.get_uint("registers", s.registers, 1, 1u << 24));
  s.registers_per_thread =
      static_cast<uint32_t>(r.get_uint("registers_per_thread", s.registers_per_thread, 1, 255));
  s.shared_bytes = static_cast<uint32_t>(r.get_uint("shared_bytes", s.shared_bytes, 0, 1u << 24));
  s.scheduler =
      r.get_choice("scheduler", s.scheduler, Registry<WarpSchedulerFactory>::instance().names());
  SchedulerParams& sp = s.scheduling;
  sp.fetch_group_size =
      static_cast<uint32_t>(r.get_uint("fetch_group_size", sp.fetch_group_size, 1, 2048));
  sp.group_timeout = r.get_uint("fetch_group_timeout", sp.group_timeout, 0, uint64_t{1} << 40);
  sp.long_latency_cycles = r.get_uint("long_latency_cycles", sp.long_latency_cycles, 0, 100000);
  s.formation =
      r.get_choice("formation", s.formation, Registry<WarpFormationFactory>::instance().names());
  s.issue =
      r.get_enum("issue", s.issue, {{"barrel", Issue::Barrel}, {"scoreboard", Issue::Scoreboard}});
  if (r.has("lwm")) {  // large warps (Narasiman dissertation Sec. 4.2; sweep of Sec. 5.3: 32 to 512
                       // threads)
    ConfigReader l(r.get_object("lwm"), where, r.key_path("lwm"));
    FormationParams& fp = s.formation_params;
    fp.large_warp_size = static_cast<uint32_t>(l.get_uint("size", fp.large_warp_size, 32, 512));
    if (fp.large_warp_size % 32 != 0) l.fail("size", "must be a multiple of 32");
    fp.perfect_register_file = l.get_bool("perfect_register_file", fp.perfect_register_file);
    fp.memory_rows = l.get_bool("memory_rows", fp.memory_rows);
    fp.single_jump = l.get_bool("single_jump", fp.single_jump);
    fp.pack_predicated = l.get_bool("pack_predicated", fp.pack_predicated);
    fp.suspend_on_busy = l.get_choice("busy_threads", fp.suspend_on_busy ? "suspend" : "wait",
                                      {"suspend", "wait"}) == "suspend";
    fp.refetch_after_all =
        l.get_choice("refetch", fp.refetch_after_all ? "all" : "first", {"first", "all"}) == "all";
    l.finish();
  }
  if (r.has("tbc")) {  // thread block compaction (dissertation Sec. 5.1: 256-thread blocks)
    ConfigReader t(r.get_object("tbc"), where, r.key_path("tbc"));
    s.formation_params.block_threads = block_threads(t);
    t.finish();
  }
  if (r.has("dwf")) {  // dynamic warp formation (MICRO 2011 Sec. 6)
    ConfigReader d(r.get_object("dwf"), where, r.key_path("dwf"));
    FormationParams& fp = s.formation_params;
    fp.block_threads = block_threads(d, "pool_size");
    fp.pdom_priority = d.get_choice("policy", fp.pdom_priority ? "pdom" : "majority",
                                    {"majority", "pdom"}) == "pdom";
    d.finish();
  }
  if (r.has("tbc") && r.has("dwf"))
    r.fail("dwf", "tbc and dwf both set the block size; keep the one of the formation");
  using func::Reconvergence;
  s.reconvergence = r.get_enum("reconvergence", s.reconvergence,
                               {{"stack", Reconvergence::Stack}, {"its", Reconvergence::Its}});
  if (s.reconvergence == Reconvergence::Its && !s.static_warps())
    r.fail("reconvergence", "\"its\" needs the \"static\" formation (formation \"" + s.formation +
                                "\" regroups a warp's threads)");
  if (!s.static_warps() && s.issue != Issue::Barrel)
    r.fail("issue", "formation \"" + s.formation + "\" needs barrel issue");
  s.processing_blocks =
      static_cast<uint32_t>(r.get_uint("processing_blocks", s.processing_blocks, 1, 8));
  s.warp_placement = r.get_enum("warp_placement", s.warp_placement,
                                {{"first_free", CoreSpec::WarpPlacement::FirstFree},
                                 {"rotate", CoreSpec::WarpPlacement::Rotate}});
  // The blocks' fetch keeps each warp whole on its block: formations that regroup threads across
  // warp slots (large warps, DWF, TBC) are not modelled with more than one.
  if (s.processing_blocks > 1 && !s.static_warps())
    r.fail("processing_blocks", "more than 1 needs the \"static\" formation (formation \"" +
                                    s.formation + "\" regroups threads across warp slots)");
  if (s.processing_blocks > s.max_warps) r.fail("processing_blocks", "more blocks than max_warps");
  s.max_inflight_per_warp =
      static_cast<uint32_t>(r.get_uint("max_inflight_per_warp", s.max_inflight_per_warp, 1, 64));
  s.issue_interval = static_cast<uint32_t>(r.get_uint("issue_interval", s.issue_interval, 1, 64));
  s.release_at_latency =
      r.get_choice("dependent_issue", s.release_at_latency ? "latency" : "retire",
                   {"retire", "latency"}) == "latency";
  ConfigReader p(r.get_object("pipeline"), where, r.key_path("pipeline"));
  for (auto [key, field] : {std::pair{"fetch", &s.fetch_cycles},
                            {"decode", &s.decode_cycles},
                            {"read", &s.read_cycles},
                            {"memory", &s.memory_cycles},
                            {"writeback", &s.writeback_cycles}})
    *field = static_cast<uint32_t>(p.get_uint(key, *field, 1, 1000));
  p.finish();
  s.writeback_ports = static_cast<uint32_t>(r.get_uint("writeback_ports", s.writeback_ports, 1, 4));
  s.register_banks = static_cast<uint32_t>(r.get_uint("register_banks", s.register_banks, 0, 64));
  s.register_bank_ports =
      static_cast<uint32_t>(r.get_uint("register_bank_ports", s.register_bank_ports, 1, 8));
  s.fma_pipe_integers = r.get_bool("fma_pipe_integers", s.fma_pipe_integers);
  s.hoist_loads = r.get_bool("hoist_loads", s.hoist_loads);
  ConfigReader u(r.get_object("units"), where, r.key_path("units"));
  for (size_t c = 0; c < kClasses; ++c) {
    const std::string name(isa::instr_class_name(static_cast<isa::InstrClass>(c)));
    if (!u.has(name)) continue;
    ConfigReader one(u.get_object(name), where, u.key_path(name));
    UnitSpec& us = s.units[c];
    us.latency = static_cast<uint32_t>(one.get_uint("latency", us.latency, 1, 10000));
    us.interval = static_cast<uint32_t>(one.get_uint("interval", us.interval, 1, 10000));
    us.count = static_cast<uint32_t>(one.get_uint("count", us.count, 1, 64));
    if (c == static_cast<size_t>(isa::InstrClass::Tensor)) {
      us.macs = static_cast<uint32_t>(one.get_uint("macs", us.macs, 1, 1u << 20));
      const nlohmann::json& rates = one.get_object("rates");
      ConfigReader rr(rates, where, one.key_path("rates"));
      for (const auto& [type_name, value] : rates.items()) {
        isa::MmaType t = isa::MmaType::None;
        if (!isa::parse_mma_type(type_name, t))
          rr.fail(type_name,
                  "is not a matrix fragment type (f16, bf16, tf32, f64, s8, u8, s4, u4, "
                  "b1, e4m3, e5m2)");
        us.rates[static_cast<size_t>(t)] = rr.get_double(type_name, 1.0, 1.0 / 1024, 1024.0);
      }
      rr.finish();
    } else {
      us.width = static_cast<uint32_t>(one.get_uint("width", us.width, 1, 32));
      if (32 % us.width != 0) one.fail("width", "must divide 32");
    }
    one.finish();
  }
  u.finish();
  s.shared_banks = static_cast<uint32_t>(r.get_uint("shared_banks", s.shared_banks, 1, 64));
  s.shared_latency = static_cast<uint32_t>(r.get_uint("shared_latency", s.shared_latency, 1, 1000));
  s.pipelined_shared = r.get_choice("shared_path", s.pipelined_shared ? "pipelined" : "blocking",
                                    {"blocking", "pipelined"}) == "pipelined";
  s.cluster_shared_latency = static_cast<uint32_t>(
      r.get_uint("cluster_shared_latency", s.cluster_shared_latency, 0, 10000));
  s.local_memory = r.get_choice("local_memory", s.local_memory, {"cached", "scratchpad"});
  s.instruction_bytes =
      static_cast<uint32_t>(r.get_uint("instruction_bytes", s.instruction_bytes, 1, 64));
  s.wait_for_stores = r.get_bool("wait_for_stores", s.wait_for_stores);
  s.coalescing = r.get_choice("coalescing", s.coalescing, {"line", "sector"});
  s.run_every_cycle = r.get_bool("run_every_cycle", s.run_every_cycle);
  s.run_ahead = r.get_bool("run_ahead", s.run_ahead);
  s.fast_icache_hits = r.get_bool("fast_icache_hits", s.fast_icache_hits);
  if (r.has("icache"))
    s.icache = mem::CacheSpec::from_json(r.get_object("icache"), where, r.key_path("icache"));
  if (r.has("l1d"))
    s.l1d = mem::CacheSpec::from_json(r.get_object("l1d"), where, r.key_path("l1d"));
  if (r.has("l1c"))
    s.l1c = mem::CacheSpec::from_json(r.get_object("l1c"), where, r.key_path("l1c"));
  s.param_operands = r.get_bool("param_operands", s.param_operands);
  s.l1c_miss_latency =
      static_cast<uint32_t>(r.get_uint("l1c_miss_latency", s.l1c_miss_latency, 1, 100000));
  s.l1c_misses = r.get_choice("l1c_misses", s.l1c_misses, {"latency", "icache"});
  if (s.l1c_misses == "icache" && s.l1c.line_bytes > s.icache.line_bytes)
    r.fail("l1c_misses", "\"icache\" needs l1c lines no longer than the icache's");
  s.icache.clock_mhz = s.l1d.clock_mhz = s.l1c.clock_mhz = s.clock_mhz;
  read_unified_l1(r, s);
  if (s.coalescing == "sector" && !s.l1d.sectored() && s.l1d.line_bytes > 32 * 32)
    r.fail("coalescing", "\"sector\" needs at most 32 sectors of 32 B in an l1d line");
  if (s.max_warps * 32 < s.max_threads) r.fail("max_warps", "too few warps for max_threads");
  if (sp.fetch_group_size > s.max_warps) r.fail("fetch_group_size", "larger than max_warps");
  r.finish();
  return s;
}

uint32_t ctas_fitting(const CoreSpec& s, const func::Launch& launch, const CoreUsage& used,
                      std::optional<uint32_t> shared_capacity) {
  auto room = [](uint64_t limit, uint64_t in_use, uint64_t per_cta) {
    if (in_use > limit) return uint64_t{0};
    return per_cta ? (limit - in_use) / per_cta : ~uint64_t{0};
  };
  const uint64_t threads = launch.threads_per_cta();
  return static_cast<uint32_t>(std::min(
      {room(s.max_ctas, used.ctas, 1), room(s.max_threads, used.threads, threads),
       room(s.max_warps, used.warps, launch.warps_per_cta()),
       room(s.registers, used.registers, threads * s.registers_per_thread),
       room(shared_capacity.value_or(s.shared_bytes), used.shared, launch.shared_bytes())}));
}

}  // namespace gputlm::sm
