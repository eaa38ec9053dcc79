// The input generator of the workloads' launch.json ("uniform" and the other random inits,
// io/workload/rng.h): splitmix64 seeded with seed ^ FNV-1a(buffer name). Programs that must see
// the same inputs as a workload (to take the same cycles) draw them with it.
#pragma once

#include <cstdint>

struct Splitmix64 {
  uint64_t state;
  explicit Splitmix64(uint64_t seed, const char* name) : state(seed) {
    uint64_t h = 1469598103934665603ull;
    for (const char* c = name; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
    state ^= h;
  }
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};
