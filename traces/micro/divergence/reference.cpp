#include <cstdint>

#include "io/workload/reference.h"

namespace {

uint32_t mix(uint32_t h) {  // the kernel's integer hash (lowbias32)
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

uint32_t divergence_one(uint32_t v, uint32_t trips) {
  uint32_t acc;
  if (v & 1u) {
    if (v & 2u) {
      acc = mix(mix(v) + 0x9e3779b9u);
    } else {
      const uint32_t d = ((v >> 8) & 15u) + 3u;
      const uint32_t q = v / d, r = v % d;
      acc = (q * 13u + r * 101u + q / (r + 1u)) ^ (v >> 5);
    }
  } else {
    if ((v & 12u) == 0u) {
      acc = v;
      acc = acc * 2654435761u + 17u;
      acc = acc * 2246822519u + (acc >> 13);
      acc = acc * 3266489917u + (acc >> 7);
    } else {
      acc = (v << 7) | (v >> 25);
      acc ^= (acc >> 11) + 0x5bd1e995u;
      acc = (acc << 3) - v;
    }
  }
  const uint32_t t = trips & 63u;
  for (uint32_t k = 0; k < t; ++k) {
    if ((acc ^ k) & 4u)
      acc = acc * 1664525u + 1013904223u;
    else
      acc = mix(acc + k);
  }
  return acc;
}

}  // namespace

GPUTLM_REFERENCE("micro/divergence") {
  auto data = ctx.input<uint32_t>("data");
  auto trips = ctx.input<uint32_t>("trips");
  std::vector<uint32_t> out(data.size());
  for (size_t i = 0; i < data.size(); ++i) out[i] = divergence_one(data[i], trips[i]);
  ctx.expect("out", out);
}
