#include "models/mem/cache/cache_spec.h"

#include "models/common/config_reader.h"
#include "models/common/registry.h"
#include "models/mem/cache/replacement.h"

namespace gputlm::mem {

CacheSpec CacheSpec::from_json(const nlohmann::json& j, const std::string& where,
                               const std::string& path) {
  return from_json(j, where, path, CacheSpec{});
}

CacheSpec CacheSpec::from_json(const nlohmann::json& j, const std::string& where,
                               const std::string& path, const CacheSpec& base) {
  CacheSpec s = base;
  ConfigReader r(j, where, path);
  auto pow2 = [&](const char* key, uint64_t v) {
    if (v & (v - 1)) r.fail(key, "must be a power of two");
  };
  s.clock_mhz = r.get_double("clock_mhz", s.clock_mhz, 1.0, 100000.0);
  s.size_bytes = r.get_uint("size_bytes", s.size_bytes, 64, uint64_t{1} << 34);
  s.assoc = static_cast<uint32_t>(r.get_uint("assoc", s.assoc, 1, 1024));
  s.line_bytes = static_cast<uint32_t>(r.get_uint("line_bytes", s.line_bytes, 4, 4096));
  pow2("line_bytes", s.line_bytes);
  s.banks = static_cast<uint32_t>(r.get_uint("banks", s.banks, 1, 1024));
  s.bank_bytes = static_cast<uint32_t>(r.get_uint("bank_bytes", s.bank_bytes, 0, 1 << 20));
  if (s.bank_bytes) pow2("bank_bytes", s.bank_bytes);
  s.hit_latency = static_cast<uint32_t>(r.get_uint("hit_latency", s.hit_latency, 1, 100000));
  s.mshrs = static_cast<uint32_t>(r.get_uint("mshrs", s.mshrs, 1, 65536));
  s.mshr_merge = static_cast<uint32_t>(r.get_uint("mshr_merge", s.mshr_merge, 1, 1024));
  s.write_policy = r.get_choice("write_policy", s.write_policy, {"write-through", "write-back"});
  s.full_line_stores =
      r.get_choice("full_line_stores", s.full_line_stores, {"fetch", "install", "lazy"});
  s.write_validate = r.get_bool("write_validate", s.write_validate);
  s.ports = static_cast<uint32_t>(r.get_uint("ports", s.ports, 1, 64));
  s.perfect = r.get_bool("perfect", s.perfect);
  s.replacement =
      r.get_choice("replacement", s.replacement, Registry<ReplacementFactory>::instance().names());
  s.sector_bytes = static_cast<uint32_t>(r.get_uint("sector_bytes", s.sector_bytes, 0, 4096));
  if (s.sector_bytes) {
    pow2("sector_bytes", s.sector_bytes);
    if (s.sector_bytes > s.line_bytes || s.line_bytes / s.sector_bytes > 32)
      r.fail("sector_bytes", "must be at most line_bytes, with at most 32 sectors a line");
  }
  s.bypass_cg = r.get_bool("bypass_cg", s.bypass_cg);
  s.prefetch_lines = static_cast<uint32_t>(r.get_uint("prefetch_lines", s.prefetch_lines, 0, 1024));
  s.resident_fetches = r.get_bool("resident_fetches", s.resident_fetches);
  s.max_dirty_ways = static_cast<uint32_t>(r.get_uint("max_dirty_ways", s.max_dirty_ways, 0, 1024));
  if (s.max_dirty_ways && (!s.write_back() || s.max_dirty_ways >= s.assoc))
    r.fail("max_dirty_ways", "needs write_policy write-back and fewer ways than assoc (" +
                                 std::to_string(s.assoc) + "); 0 is no limit");
  s.set_index = r.get_choice("set_index", s.set_index, {"address", "slice"});
  if (s.size_bytes % (uint64_t{s.assoc} * s.line_bytes) != 0)
    r.fail("size_bytes", "must be a multiple of assoc x line_bytes (" +
                             std::to_string(uint64_t{s.assoc} * s.line_bytes) + ")");
  if (s.sets() & (s.sets() - 1))
    r.fail("size_bytes", "must give a power-of-two number of sets (size / (assoc x line_bytes))");
  r.finish();
  return s;
}

}  // namespace gputlm::mem
