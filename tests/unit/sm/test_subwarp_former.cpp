// The LWM sub-warp former (models/sm/formation/subwarp_former.h) on the paper's Figure 7 example,
// the column constraint, the perfect-register-file variant and per-row sub-warps.
#include <gtest/gtest.h>

#include <random>

#include "models/sm/formation/subwarp_former.h"

namespace gputlm::sm {
namespace {

// Figure 7 of MICRO 2011 (dissertation Fig. 4.5): a large warp of 32 threads on a SIMD width of
// 4 (8 rows of 4 columns) with 15 active threads; the sub-warps' row IDs per column are, cycle by
// cycle, (0,2,1,0), (1,3,2,2), (6,4,4,5), (7,7,5,-) (digest section 2.3). The former works on 32
// columns: columns 4..31 are simply empty.
RowMask figure7() {
  const std::vector<std::vector<uint32_t>> rows_of_column = {
      {0, 1, 6, 7}, {2, 3, 4, 7}, {1, 2, 4, 5}, {0, 2, 5}};
  RowMask m;
  for (uint32_t c = 0; c < rows_of_column.size(); ++c)
    for (uint32_t r : rows_of_column[c]) m.set(r * kWarpSize + c);
  return m;
}

TEST(SubWarpFormer, Figure7GivesItsFourSubWarps) {
  RowMask left = figure7();
  ASSERT_EQ(left.count(), 15u);
  const int none = -1;
  const std::vector<std::array<int, 4>> expected = {
      {0, 2, 1, 0}, {1, 3, 2, 2}, {6, 4, 4, 5}, {7, 7, 5, none}};
  for (const auto& rows : expected) {
    const SubWarp s = pick_per_column(left, 8, false);
    for (unsigned c = 0; c < 4; ++c) {
      if (rows[c] == none) {
        EXPECT_FALSE(s.lanes & (1u << c));
        continue;
      }
      ASSERT_TRUE(s.lanes & (1u << c)) << "column " << c;
      EXPECT_EQ(s.thread[c], rows[c] * kWarpSize + c) << "column " << c;
    }
    EXPECT_EQ(s.lanes & ~0xFu, 0u);
    left &= ~s.pick;
  }
  EXPECT_FALSE(left);  // four cycles take all 15 threads (the baseline would need 8 warps)
}

TEST(SubWarpFormer, EachThreadStaysInItsColumnAndEveryThreadIsPackedOnce) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t rows = 1u << (trial % 5);  // 1..16 rows (32..512 threads)
    RowMask left;
    for (uint32_t r = 0; r < rows; ++r) left.row[r] = rng() & rng();
    const RowMask all = left;
    RowMask seen;
    uint32_t subwarps = 0, max_column = 0;
    for (uint32_t c = 0; c < kWarpSize; ++c) {
      uint32_t n = 0;
      for (uint32_t r = 0; r < rows; ++r) n += (left.row[r] >> c) & 1u;
      max_column = std::max(max_column, n);
    }
    while (left) {
      const SubWarp s = pick_per_column(left, rows, false);
      ++subwarps;
      for_each_lane(s.lanes, [&](unsigned lane) {
        EXPECT_EQ(s.thread[lane] % kWarpSize, lane);  // the column constraint
        EXPECT_FALSE(seen.test(s.thread[lane]));
        seen.set(s.thread[lane]);
      });
      EXPECT_EQ(s.pick.count(), popcount(s.lanes));
      left &= ~s.pick;
    }
    EXPECT_TRUE(seen == all);
    EXPECT_EQ(subwarps, max_column);  // as many cycles as the fullest column has threads
  }
}

TEST(SubWarpFormer, ThePerfectRegisterFilePacksAnyThreads) {
  // Every thread in column 0 of 8 rows: one thread a cycle with the column constraint, all eight
  // at once with the perfect register file.
  RowMask left;
  for (uint32_t r = 0; r < 8; ++r) left.set(r * kWarpSize);
  EXPECT_EQ(popcount(pick_per_column(left, 8, false).lanes), 1u);
  const SubWarp s = pick_per_column(left, 8, true);
  EXPECT_EQ(s.lanes, 0xFFu);
  EXPECT_TRUE(s.pick == left);
  for (unsigned lane = 0; lane < 8; ++lane) EXPECT_EQ(s.thread[lane], lane * kWarpSize);
}

TEST(SubWarpFormer, ARowSubWarpKeepsTheRowsThreadsInTheirLanes) {
  RowMask left = figure7();
  const SubWarp s = pick_row(left, 2);
  EXPECT_EQ(s.lanes, 0b1110u);  // row 2 has columns 1, 2, 3
  for_each_lane(s.lanes, [&](unsigned lane) { EXPECT_EQ(s.thread[lane], 2 * kWarpSize + lane); });
}

}  // namespace
}  // namespace gputlm::sm
