// Replacement policies.
//   lru     least recently used: the line whose last fill or hit is oldest
//   fifo    first in, first out: the line filled longest ago (hits do not count)
//   random  a uniformly random way (fixed seed, so runs repeat)
#include <vector>

#include "models/common/registry.h"
#include "models/mem/cache/replacement.h"

namespace gputlm::mem {
namespace {

// Keeps a stamp per line and evicts the smallest.
class StampPolicy : public IReplacement {
 public:
  StampPolicy(uint32_t sets, uint32_t ways, bool stamp_hits)
      : m_ways(ways), m_stamp(size_t{sets} * ways, 0), m_hits(stamp_hits) {}
  void on_fill(uint32_t set, uint32_t way) override {
    m_stamp[size_t{set} * m_ways + way] = ++m_clock;
  }
  void on_hit(uint32_t set, uint32_t way) override {
    if (m_hits) m_stamp[size_t{set} * m_ways + way] = ++m_clock;
  }
  uint32_t victim(uint32_t set) override {
    uint32_t best = 0;
    for (uint32_t w = 1; w < m_ways; ++w)
      if (m_stamp[size_t{set} * m_ways + w] < m_stamp[size_t{set} * m_ways + best]) best = w;
    return best;
  }

 private:
  uint32_t m_ways;
  std::vector<uint64_t> m_stamp;
  bool m_hits;
  uint64_t m_clock = 0;
};

class RandomPolicy : public IReplacement {
 public:
  explicit RandomPolicy(uint32_t ways) : m_ways(ways) {}
  void on_fill(uint32_t, uint32_t) override {}
  void on_hit(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t) override {
    m_state = m_state * 6364136223846793005ull + 1442695040888963407ull;  // 64-bit LCG (Knuth)
    return static_cast<uint32_t>((m_state >> 33) % m_ways);
  }

 private:
  uint32_t m_ways;
  uint64_t m_state = 0x853c49e6748fea9bull;
};

const ReplacementRegistration kLru("lru", [](uint32_t s, uint32_t w) {
  return std::make_unique<StampPolicy>(s, w, true);
});
const ReplacementRegistration kFifo("fifo", [](uint32_t s, uint32_t w) {
  return std::make_unique<StampPolicy>(s, w, false);
});
const ReplacementRegistration kRandom("random", [](uint32_t, uint32_t w) {
  return std::make_unique<RandomPolicy>(w);
});

}  // namespace

ReplacementRegistration::ReplacementRegistration(const char* name, ReplacementFactory f) {
  Registry<ReplacementFactory>::instance().add(name, std::move(f));
}

std::unique_ptr<IReplacement> make_replacement(const std::string& name, uint32_t sets,
                                               uint32_t ways) {
  return Registry<ReplacementFactory>::instance().get(name, "replacement policy")(sets, ways);
}

}  // namespace gputlm::mem
