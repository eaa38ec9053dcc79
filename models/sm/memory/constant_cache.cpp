#include "models/sm/memory/constant_cache.h"

#include <algorithm>

#include "models/mem/cache/replacement.h"

namespace gputlm::sm {
namespace {
// Parameter offsets are small numbers and constant addresses are global ones: a parameter's tag
// carries the top bit, so the two never share a line.
constexpr uint64_t kParamBank = uint64_t{1} << 63;
}  // namespace

ConstantCache::ConstantCache(const mem::CacheSpec& spec, uint32_t miss_latency)
    : m_spec(spec),
      m_miss_latency(miss_latency),
      m_tags(spec.sets(), spec.assoc,
             mem::make_replacement(spec.replacement, spec.sets(), spec.assoc)) {}

uint32_t ConstantCache::access(const std::array<uint64_t, kWarpSize>& addresses, LaneMask lanes,
                               bool param, std::vector<uint64_t>* missed) {
  std::array<uint64_t, kWarpSize> seen{}, filling{}, filled_at{};
  uint32_t distinct = 0, fills = 0, done = 0;
  for_each_lane(lanes, [&](unsigned lane) {
    const uint64_t a = addresses[lane] | (param ? kParamBank : 0);
    if (std::find(seen.begin(), seen.begin() + distinct, a) != seen.begin() + distinct) return;
    const uint32_t start = distinct;  // one request a cycle
    seen[distinct++] = a;
    const uint64_t line = a / m_spec.line_bytes;
    const bool below = missed && !param;  // a miss is a read of the level below
    uint64_t ready = start + m_spec.hit_latency;
    const auto own = std::find(filling.begin(), filling.begin() + fills, line);
    if (below && own != filling.begin() + fills) {
      ++m_misses;  // waits for the read its access already asked for
      return;
    }
    if (m_tags.lookup(line)) {
      ++m_hits;
      if (own != filling.begin() + fills)  // a line this access's own miss is fetching
        ready = std::max(ready, filled_at[own - filling.begin()]);
    } else {
      ++m_misses;
      filling[fills] = line;
      if (below) {
        missed->push_back(line * m_spec.line_bytes);
        ++fills;
        return;  // answered when the line is back
      }
      m_tags.fill(line, false);
      ready = start + m_miss_latency;
      filled_at[fills++] = ready;
    }
    done = std::max(done, static_cast<uint32_t>(ready));
  });
  m_requests += distinct;
  m_last_requests = distinct;
  return done;
}

void ConstantCache::fill(uint64_t address) { m_tags.fill(address / m_spec.line_bytes, false); }

}  // namespace gputlm::sm
