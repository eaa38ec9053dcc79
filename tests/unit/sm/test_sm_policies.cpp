// Core policies without a simulation kernel: warp schedulers, static warp formation, coalescer.
#include <gtest/gtest.h>

#include <functional>

#include "models/common/error.h"
#include "models/sm/formation/block_formation.h"
#include "models/sm/formation/warp_formation.h"
#include "models/sm/memory/coalescer.h"
#include "models/sm/scheduler/warp_scheduler.h"

namespace gputlm::sm {
namespace {

std::vector<WarpSlot> views(std::vector<uint64_t> ages) {
  std::vector<WarpSlot> v(ages.size());
  for (size_t i = 0; i < ages.size(); ++i) {
    v[i].status = WarpSlot::Status::Ready;
    v[i].age = ages[i];
  }
  return v;
}

TEST(SlotSet, FindsTheFirstMemberInARangeAcrossWordBoundaries) {
  SlotSet s(130);
  for (uint32_t m : {3u, 64u, 127u, 129u}) s.insert(m);
  EXPECT_EQ(s.first_in(0, 130), 3u);
  EXPECT_EQ(s.first_in(4, 130), 64u);
  EXPECT_EQ(s.first_in(65, 128), 127u);
  EXPECT_EQ(s.first_in(65, 127), SlotSet::kNone);  // 127 is outside [65, 127)
  EXPECT_EQ(s.first_in(128, 130), 129u);
  s.erase(64);
  EXPECT_FALSE(s.contains(64));
  EXPECT_EQ(s.first_in(4, 130), 127u);
}

TEST(SlotSet, RoundRobinSearchWrapsInsideItsRangeAndIgnoresAStartOutsideIt) {
  const SlotSet s = {1, 9, 14, 70};
  EXPECT_EQ(s.first_from(10, 8, 16), 14u);
  EXPECT_EQ(s.first_from(15, 8, 16), 9u);  // wraps to the range's start
  EXPECT_EQ(s.first_from(0, 8, 16), 9u);   // a start below the range counts from its start
  EXPECT_EQ(s.first_from(20, 8, 16), 9u);  // and one above it
  EXPECT_EQ(s.first_from(2, 2, 8), SlotSet::kNone);
  EXPECT_EQ(s.first_from(71, 0, 128), 1u);  // across words, wrapping
  std::vector<uint32_t> all;
  s.for_each([&](uint32_t m) { all.push_back(m); });
  EXPECT_EQ(all, (std::vector<uint32_t>{1, 9, 14, 70}));
}

TEST(WarpScheduler, RoundRobinTakesTheNextEligibleSlotAfterTheLastPick) {
  auto s = make_warp_scheduler("rr", 8);
  const auto v = views({0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(s->pick({1, 3, 6}, v, 0), 1u);
  EXPECT_EQ(s->pick({1, 3, 6}, v, 1), 3u);
  EXPECT_EQ(s->pick({1, 3, 6}, v, 2), 6u);
  EXPECT_EQ(s->pick({1, 3, 6}, v, 3), 1u);  // wraps around
  EXPECT_EQ(s->pick({0, 1}, v, 4), 0u);     // after 1 comes 2..7, then 0
}

TEST(WarpScheduler, GreedyThenOldestKeepsTheLastWarpThenFallsBackToTheOldest) {
  auto s = make_warp_scheduler("gto", 4);
  const auto v = views({30, 10, 20, 40});
  EXPECT_EQ(s->pick({0, 1, 2}, v, 0), 1u);  // oldest: age 10
  EXPECT_EQ(s->pick({0, 1, 2}, v, 1), 1u);  // greedy: same warp while eligible
  EXPECT_EQ(s->pick({0, 2, 3}, v, 2), 2u);  // 1 stalled: the oldest of the rest
}

TEST(WarpScheduler, StickyRoundRobinStaysWithTheLastSlotThenGoesRoundRobin) {
  auto s = make_warp_scheduler("srr", 4);
  const auto v = views({0, 0, 0, 0});
  EXPECT_EQ(s->pick({1, 2, 3}, v, 0), 1u);
  EXPECT_EQ(s->pick({0, 1, 2}, v, 1), 1u);  // sticky: the same slot while eligible
  EXPECT_EQ(s->pick({0, 3}, v, 2), 3u);     // 1 not eligible: the next after it
  EXPECT_EQ(s->pick({0, 3}, v, 3), 3u);
}

TEST(WarpScheduler, UnknownNameListsTheKnownOnes) {
  try {
    make_warp_scheduler("lottery", 4);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("unknown warp scheduler 'lottery' (known: 2lev, gto, rr, srr)"),
        std::string::npos)
        << e.what();
  }
}

TEST(WarpFormation, StaticFormsWarpsOf32ConsecutiveThreadsWithAPartialLastOne) {
  auto f = make_warp_formation("static");
  const auto layout = f->layout(80);
  ASSERT_EQ(layout.size(), 3u);
  EXPECT_EQ(layout[1].base_tid, 32u);
  EXPECT_EQ(layout[1].valid, 0xFFFFFFFFu);
  EXPECT_EQ(layout[2].valid, 0xFFFFu);
}

TEST(WarpFormation, CompactionPacksEachColumnsThreadsIntoTheFewestWarps) {
  RowMask m;
  m.row[0] = 0x0000FFFFu;  // lanes 0-15 of row 0, 16-31 of row 1, lane 0 of row 2
  m.row[1] = 0xFFFF0000u;
  m.row[2] = 0x1u;
  const std::vector<BlockWarp> w = compact(m, 3, 7);
  ASSERT_EQ(w.size(), 2u);  // column 0 has two threads
  EXPECT_EQ(w[0].lanes, 0xFFFFFFFFu);
  EXPECT_EQ(w[0].thread[0], 0u);
  EXPECT_EQ(w[0].thread[31], 63u);
  EXPECT_EQ(w[1].lanes, 0x1u);
  EXPECT_EQ(w[1].thread[0], 64u);
  EXPECT_EQ(w[1].pc, 7u);
  EXPECT_TRUE(compact(RowMask::first(256), 8, 0).size() == 8);  // every thread: the static warps
  EXPECT_EQ(compact(RowMask::first(256), 8, 0)[3].thread[5], 3u * 32 + 5);
}

TEST(Coalescer, AWarpReadingConsecutiveWordsNeedsOneLine) {
  func::ExecResult r;
  r.access_bytes = 4;
  std::vector<uint64_t> a(32);
  for (unsigned l = 0; l < 32; ++l) a[l] = 0x1000 + 4 * l;
  std::vector<LineRequest> out;
  coalesce(r, 0xFFFFFFFF, 128, a, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line_address, 0x1000u);
  EXPECT_EQ(out[0].bytes, 128u);
}

TEST(Coalescer, AStridedOrMisalignedWarpNeedsOneLinePerLineTouched) {
  func::ExecResult r;
  r.access_bytes = 4;
  std::vector<uint64_t> a(32);
  for (unsigned l = 0; l < 32; ++l) a[l] = 0x1000 + 128 * l;  // a line per lane
  std::vector<LineRequest> out;
  coalesce(r, 0xFFFFFFFF, 128, a, out);
  EXPECT_EQ(out.size(), 32u);
  for (unsigned l = 0; l < 32; ++l) a[l] = 0x1040 + 4 * l;  // straddles two lines
  coalesce(r, 0xFFFFFFFF, 128, a, out);
  EXPECT_EQ(out.size(), 2u);
  coalesce(r, 0x3, 128, a, out);  // inactive lanes do not count
  EXPECT_EQ(out.size(), 1u);
}

// Coalescing by sectors (CUDA C Programming Guide, Compute Capability 7.x, Global Memory): one
// request per 128 B line with the mask of the 32 B sectors its lanes touch.
size_t sectors_in(const std::vector<LineRequest>& out) {
  size_t n = 0;
  for (const LineRequest& l : out) n += static_cast<size_t>(__builtin_popcount(l.sectors));
  return n;
}

// A warp of 32 lanes, each accessing 4 bytes at address(lane), coalesced by lines (sector_bytes
// 0) or by 32 B sectors.
std::vector<LineRequest> coalesce_words(const std::function<uint64_t(unsigned)>& address,
                                        uint32_t sector_bytes) {
  func::ExecResult r;
  r.access_bytes = 4;
  std::vector<uint64_t> a(32);
  for (unsigned l = 0; l < 32; ++l) a[l] = address(l);
  std::vector<LineRequest> out;
  coalesce(r, 0xFFFFFFFF, 128, a, out, sector_bytes);
  return out;
}

TEST(Coalescer, ByLinesNamesNoSectors) {
  const auto out = coalesce_words([](unsigned l) { return 0x1000 + 4 * l; }, 0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sectors, 0u);
}

TEST(Coalescer, BySectorsAFullyCoalescedWarpIsOneLineOfFourSectors) {
  const auto out = coalesce_words([](unsigned l) { return 0x1000 + 4 * l; }, 32);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sectors, 0xFu);
  EXPECT_EQ(sectors_in(out), 4u);
}

TEST(Coalescer, BySectorsAStrideOfTwoWordsIsTwoLinesOfEightSectors) {
  const auto out = coalesce_words([](unsigned l) { return 0x1000 + 8 * l; }, 32);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].sectors, 0xFu);
  EXPECT_EQ(out[1].sectors, 0xFu);
  EXPECT_EQ(sectors_in(out), 8u);
}

TEST(Coalescer, BySectorsAScatteredWarpIsALineAndASectorPerLane) {
  const auto out = coalesce_words([](unsigned l) { return 0x1000 + 4096 * l + 32 * (l % 4); },
                                  32);  // sector l % 4
  ASSERT_EQ(out.size(), 32u);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l].sectors, 1u << (l % 4)) << l;
  EXPECT_EQ(sectors_in(out), 32u);
}

TEST(Coalescer, BySectorsAnAccessStraddlingSectorsNamesBoth) {
  func::ExecResult r;
  r.access_bytes = 8;
  std::vector<uint64_t> a(32);
  a[0] = 0x101C;  // bytes 28 .. 35: sectors 0 and 1
  std::vector<LineRequest> out;
  coalesce(r, 0x1, 128, a, out, 32);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sectors, 0x3u);
}

TEST(SharedMemory, BankConflictsCostTheirDegreeAndBroadcastsAreFree) {
  func::ExecResult r;
  r.access_bytes = 4;
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 4 * l;  // one word per bank
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 1u);
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 8 * l;  // stride 2: two words per bank
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 2u);
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 64;  // all the same word: a broadcast
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 1u);
  for (unsigned l = 0; l < 32; ++l)
    r.addr[l] = 4 * (l % 2) + 128 * (l / 16);  // broadcasts to 2 words of 2 rows
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 2u);
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 128 * l;  // 32 words in bank 0
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 32u);
  EXPECT_EQ(shared_access_cycles(r, 0x1, 32), 1u);  // one lane alone
  r.access_bytes = 8;  // two words a lane: lane l touches banks 2l and 2l+1 (mod 32)
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 8 * l;
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 2u);
  r.access_bytes = 4;
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 4 * l + 2;  // misaligned: each straddles two words
  EXPECT_EQ(shared_access_cycles(r, 0xFFFFFFFF, 32), 2u);
}

}  // namespace
}  // namespace gputlm::sm
