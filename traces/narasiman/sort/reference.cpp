#include <algorithm>
#include <cstdint>

#include "io/workload/reference.h"

// Bucket b of a key is umulhi(key, nb) (order preserving), so sorting the buckets in place sorts
// the whole array: out is the sorted keys, count the bucket sizes, start their exclusive prefix
// sum. rank (the order of the atomics) is not checked.
GPUTLM_REFERENCE("narasiman/sort") {
  auto keys = ctx.input<uint32_t>("keys");
  const size_t nb = ctx.count("count");
  std::vector<uint32_t> count(nb, 0), start(nb, 0);
  for (uint32_t k : keys) ++count[(static_cast<uint64_t>(k) * nb) >> 32];
  uint32_t run = 0;
  for (size_t b = 0; b < nb; ++b) {
    start[b] = run;
    run += count[b];
  }
  std::sort(keys.begin(), keys.end());
  ctx.expect("out", keys);
  ctx.expect("count", count);
  ctx.expect("start", start);
}
