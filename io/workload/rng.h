// Deterministic random numbers for workload inputs: the same seed gives the same inputs on every
// machine and library version (std:: distributions are implementation-defined, so not used).
#pragma once

#include <cstdint>

namespace gputlm::workload {

class Rng {
 public:
  explicit Rng(uint64_t seed) : m_state(seed) {}

  // splitmix64 (Steele, Lea, Flood 2014): 64 random bits.
  uint64_t next_u64() {
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }
  // Uniform integer in [lo, hi] (inclusive); bias below 2^-32 for ranges under 2^32.
  int64_t uniform_int(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    return span == 0 ? static_cast<int64_t>(next_u64())
                     : static_cast<int64_t>(static_cast<uint64_t>(lo) + next_u64() % span);
  }
  // Uniform double in [0, 1).
  double uniform01() { return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform_real(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

 private:
  uint64_t m_state;
};

}  // namespace gputlm::workload
