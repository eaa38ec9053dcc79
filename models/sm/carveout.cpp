#include "models/sm/carveout.h"

#include <algorithm>

namespace gputlm::sm {
namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The smallest carve-out of at least `bytes`, else the largest.
uint32_t smallest_at_least(const std::vector<uint32_t>& carveouts, uint64_t bytes) {
  for (uint32_t c : carveouts)
    if (c >= bytes) return c;
  return carveouts.back();
}

// The CTAs of `launch` that must be resident at once on one core of `cores`: a cooperative grid's
// (grid.sync() waits for all) and a cluster's (its CTAs start together) share, else one.
uint64_t must_be_resident(const func::Launch& launch, uint32_t cores) {
  if (launch.grid_workspace) return ceil_div(launch.grid.count(), cores);
  if (launch.clustered()) return ceil_div(launch.cluster.count(), cores);
  return 1;
}
}  // namespace

Carveout choose_carveout(const CoreSpec& spec, const func::Launch& launch, uint32_t cores) {
  if (!spec.unified()) return {spec.shared_bytes, spec.l1d.assoc, spec.l1d.size_bytes};
  const std::vector<uint32_t>& carveouts = spec.shared_carveouts;
  const uint64_t per_cta = launch.shared_bytes();
  const uint64_t fit = ctas_fitting(spec, launch);  // at the largest capacity (spec.shared_bytes)
  uint32_t shared = carveouts.back();
  if (fit > 0) {
    const uint64_t needed =
        per_cta * std::min<uint64_t>(fit, launch.preferred_carveout < 0
                                              ? ceil_div(launch.grid.count(), cores)
                                              : must_be_resident(launch, cores));
    shared = smallest_at_least(carveouts, needed);
    if (launch.preferred_carveout >= 0) {
      // p% of the largest, rounded up: a capacity c holds it when 100 c >= p x largest.
      const uint64_t wish = ceil_div(uint64_t(launch.preferred_carveout) * carveouts.back(), 100);
      shared = std::max(shared, smallest_at_least(carveouts, wish));
    }
  }
  const uint64_t way = uint64_t{spec.l1d.sets()} * spec.l1d.line_bytes;
  const auto ways = static_cast<uint32_t>((spec.unified_l1_shared_bytes - shared) / way);
  return {shared, ways, ways * way};
}

}  // namespace gputlm::sm
