// The constant cache (sm/memory/constant_cache.h) without a simulation kernel: one request per
// distinct address of a warp, one a cycle; hits and misses by line.
#include <gtest/gtest.h>

#include "models/sm/memory/constant_cache.h"

namespace gputlm::sm {
namespace {

// 2 KB, 4 ways, 64 B lines, hits in 4 cycles, misses in 20 (values of this test).
ConstantCache cache() {
  mem::CacheSpec s;
  s.size_bytes = 2048;
  s.assoc = 4;
  s.line_bytes = 64;
  s.hit_latency = 4;
  return ConstantCache(s, 20);
}

std::array<uint64_t, kWarpSize> addresses(uint64_t base, uint64_t stride) {
  std::array<uint64_t, kWarpSize> a{};
  for (unsigned i = 0; i < kWarpSize; ++i) a[i] = base + i * stride;
  return a;
}

TEST(ConstantCache, OneAddressForTheWholeWarpIsOneRequest) {
  ConstantCache c = cache();
  EXPECT_EQ(c.access(addresses(0x1000, 0), kFullMask, false), 20u);  // a miss
  EXPECT_EQ(c.access(addresses(0x1000, 0), kFullMask, false), 4u);   // then a hit
  EXPECT_EQ(c.requests(), 2u);
  EXPECT_EQ(c.hits(), 1u);
  EXPECT_EQ(c.misses(), 1u);
}

TEST(ConstantCache, DistinctAddressesAreSerialisedOneACycle) {
  ConstantCache c = cache();
  // 32 words over two lines: lane 0 misses (ready at 20), lanes 1-15 wait for that fill, lane 16
  // misses at cycle 16 (ready at 36), lanes 17-31 wait for it.
  EXPECT_EQ(c.access(addresses(0x1000, 4), kFullMask, false), 36u);
  EXPECT_EQ(c.misses(), 2u);
  EXPECT_EQ(c.hits(), 30u);
  // Present: 32 hits, the last starting at cycle 31.
  EXPECT_EQ(c.access(addresses(0x1000, 4), kFullMask, false), 35u);
  EXPECT_EQ(c.requests(), 64u);
  // Lanes that did not access count for nothing: lanes 0 and 5, two requests.
  EXPECT_EQ(c.access(addresses(0x1000, 4), 0x21, false), 5u);
}

TEST(ConstantCache, ParameterOffsetsAndConstantAddressesKeepApart) {
  ConstantCache c = cache();
  EXPECT_EQ(c.access(addresses(0x40, 0), kFullMask, false), 20u);
  EXPECT_EQ(c.access(addresses(0x40, 0), kFullMask, true), 20u);  // another line: a miss
  EXPECT_EQ(c.access(addresses(0x40, 0), kFullMask, true), 4u);
}

// With a `missed` list (core.l1c_misses "icache"): an absent constant line is named once and left
// absent until fill(); its requests are misses that add no cycles (the caller waits for the
// line), the present lines' hits answer as usual. Parameters keep the fixed miss latency.
TEST(ConstantCache, MissesReadBelowAreNamedOnceAndPresentOnlyOnceFilled) {
  ConstantCache c = cache();
  std::vector<uint64_t> missed;
  // 32 words over two lines (0x1000, 0x1040): both absent, every request a miss, no cycles.
  EXPECT_EQ(c.access(addresses(0x1000, 4), kFullMask, false, &missed), 0u);
  EXPECT_EQ(missed, (std::vector<uint64_t>{0x1000, 0x1040}));
  EXPECT_EQ(c.misses(), 32u);
  missed.clear();
  // Before the fills, a second warp misses them too (it waits for the same reads).
  EXPECT_EQ(c.access(addresses(0x1000, 0), kFullMask, false, &missed), 0u);
  EXPECT_EQ(missed, std::vector<uint64_t>{0x1000});
  missed.clear();
  c.fill(0x1000);
  // Lane 0's line is present (a hit, ready at 4); lanes 16-31 still miss theirs.
  EXPECT_EQ(c.access(addresses(0x1000, 4), kFullMask, false, &missed), 15u + 4u);
  EXPECT_EQ(missed, std::vector<uint64_t>{0x1040});
  EXPECT_EQ(c.hits(), 16u);
  missed.clear();
  EXPECT_EQ(c.access(addresses(0x40, 0), kFullMask, true, &missed), 20u);  // a parameter
  EXPECT_TRUE(missed.empty());
}

}  // namespace
}  // namespace gputlm::sm
