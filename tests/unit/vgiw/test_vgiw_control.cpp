// The VGIW core's control structures without a simulation kernel (Voitsechov & Etsion, Sec. 3):
// the control vector table's read-and-reset and OR updates, the basic-block scheduler's rule
// (smallest block ID with threads) over loops and divergent branches, thread batches packed into
// 80-bit packets, and a terminator's pair of batches for out-of-order threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "models/vgiw/control_vector_table.h"
#include "models/vgiw/thread_batch.h"

namespace gputlm::vgiw {
namespace {

TEST(ControlVectorTable, ReadResetsAndUpdatesOr) {
  ControlVectorTable cvt(4, 200);
  EXPECT_EQ(cvt.words(), 4u);
  cvt.or_update(2, 1, 0b1010);
  cvt.or_update(2, 1, 0b0110);  // a second control flow reaching block 2
  EXPECT_EQ(cvt.pending(2), 3u);
  EXPECT_EQ(cvt.read_and_reset(2, 1), 0b1110u);
  EXPECT_EQ(cvt.read_and_reset(2, 1), 0u) << "the read reset the word";
  EXPECT_TRUE(cvt.empty(2));
  cvt.or_update(1, 3, ~uint64_t{0});  // threads 192..255: only 192..199 exist
  EXPECT_EQ(cvt.pending(1), 8u);
  EXPECT_EQ(cvt.bank_of(9), 1u);
  EXPECT_EQ(cvt.reads(), 2u);
  EXPECT_EQ(cvt.updates(), 3u);
  // Word w of every block sits in bank w mod 8: four accesses to word 1, one to word 3.
  EXPECT_EQ(cvt.bank_accesses(), (std::vector<uint64_t>{0, 4, 0, 1, 0, 0, 0, 0}));
}

TEST(ControlVectorTable, BatchesComeOutByWordAndGoBackInAtAnyBase) {
  ControlVectorTable cvt(2, 256);
  cvt.set_first(0, 130);
  uint32_t cursor = 0;
  std::vector<ThreadBatch> out;
  for (ThreadBatch b; !(b = cvt.next_batch(0, &cursor)).empty();) out.push_back(b);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], (ThreadBatch{0, ~uint64_t{0}}));
  EXPECT_EQ(out[2], (ThreadBatch{128, 0b11}));
  EXPECT_TRUE(cvt.empty(0));
  cvt.or_batch(1, ThreadBatch{60, 0b11111});  // threads 60..64 straddle words 0 and 1
  EXPECT_EQ(cvt.read_and_reset(1, 0), uint64_t{0xF} << 60);
  EXPECT_EQ(cvt.read_and_reset(1, 1), 1u);
}

TEST(ThreadBatch, PacksIntoEightyBitsAndBack) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100; ++i) {
    const ThreadBatch b{static_cast<uint16_t>(rng()), rng()};
    EXPECT_EQ(ThreadBatch::unpack(b.pack()), b);
  }
  const ThreadBatch b{0x1234, 0x8000000000000001ull};
  const auto p = b.pack();
  EXPECT_EQ(p[0], 0x34);
  EXPECT_EQ(p[1], 0x12);
  EXPECT_EQ(p[2], 0x01);
  EXPECT_EQ(p[9], 0x80);
  EXPECT_EQ(b.threads(), (std::vector<uint32_t>{0x1234, 0x1234 + 63}));
}

TEST(BatchCollector, KeepsAPairOfBatchesAndSendsTheOlderWhenAThirdWindowComes) {
  BatchCollector c;
  EXPECT_TRUE(c.add(5).empty());
  EXPECT_TRUE(c.add(70).empty());      // a second window: both held
  EXPECT_TRUE(c.add(6).empty());       // out of order, back to the first window
  const ThreadBatch out = c.add(130);  // a third window: the older batch (threads 5, 6) goes
  EXPECT_EQ(out, (ThreadBatch{0, 0b1100000}));
  const auto rest = c.flush();
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0], (ThreadBatch{64, uint64_t{1} << 6}));
  EXPECT_EQ(rest[1], (ThreadBatch{128, 0b100}));
  EXPECT_TRUE(c.flush().empty());
}

// Runs a kernel's blocks the way the basic-block scheduler does: the smallest block with threads,
// its whole vector in batches, each thread's successor (-1: exit) collected per destination and
// ORed back. Returns the order the blocks were configured in.
std::vector<int> run_blocks(ControlVectorTable& cvt,
                            const std::function<int(int block, uint32_t tid, int visits)>& next) {
  std::vector<int> order;
  std::map<std::pair<int, uint32_t>, int> visits;
  for (int b; (b = cvt.first_nonempty()) >= 0;) {
    order.push_back(b);
    std::map<int, BatchCollector> to;
    uint32_t cursor = 0;
    for (ThreadBatch batch; !(batch = cvt.next_batch(static_cast<uint32_t>(b), &cursor)).empty();)
      for (uint32_t t : batch.threads()) {
        const int n = next(b, t, visits[{b, t}]++);
        if (n < 0) continue;
        if (ThreadBatch full = to[n].add(t); !full.empty())
          cvt.or_batch(static_cast<uint32_t>(n), full);
      }
    for (auto& [n, c] : to)
      for (const ThreadBatch& rest : c.flush()) cvt.or_batch(static_cast<uint32_t>(n), rest);
    if (order.size() > 1000) break;
  }
  return order;
}

TEST(BlockScheduler, ALoopRunsItsBodyOncePerIterationForAllThreadsStillLooping) {
  // 0: entry; 1: loop body, back to 1 while the thread has iterations left (t % 4), else 2; 2:
  // exit.
  ControlVectorTable cvt(3, 300);
  cvt.set_first(0, 300);
  const auto order = run_blocks(cvt, [](int b, uint32_t t, int visits) {
    if (b == 0) return 1;
    if (b == 1) return visits < static_cast<int>(t % 4) ? 1 : 2;
    return -1;
  });
  EXPECT_EQ(order,
            (std::vector<int>{0, 1, 1, 1, 1, 2}));  // threads with t % 4 == 3 run the body 4 times
}

TEST(BlockScheduler, ADivergentKernelConfiguresEachBlockOnce) {
  // 0 -> 1 (odd threads) or 2 (even); 1 -> 3 or 4 by t % 3; 2 -> 4; 3, 4 -> 5; 5 exits. Several
  // control paths reach 4 and 5, yet every block runs once: reconfigurations follow blocks, not
  // paths.
  ControlVectorTable cvt(6, 500);
  cvt.set_first(0, 500);
  std::map<uint32_t, std::vector<int>> path;
  const auto order = run_blocks(cvt, [&](int b, uint32_t t, int) {
    path[t].push_back(b);
    switch (b) {
      case 0:
        return t % 2 ? 1 : 2;
      case 1:
        return t % 3 ? 3 : 4;
      case 2:
        return 4;
      case 3:
      case 4:
        return 5;
      default:
        return -1;
    }
  });
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  std::set<std::vector<int>> paths;
  for (const auto& [t, p] : path) paths.insert(p);
  EXPECT_EQ(paths.size(), 3u);
  EXPECT_EQ(path[499], (std::vector<int>{0, 1, 3, 5}));
}

TEST(TileSize, TheTableHoldsAVectorPerBlockInWholeWords) {
  EXPECT_EQ(tile_threads(64 * 1024, 16, 1 << 20), 4096u);  // 64 Kbit for 16 blocks
  EXPECT_EQ(tile_threads(64 * 1024, 16, 1000), 1000u);     // a small launch fits whole
  EXPECT_EQ(tile_threads(64 * 1024, 100, 1 << 20), 640u);  // 655 bits a block: 10 words
  EXPECT_THROW(tile_threads(1024, 17, 1 << 20), std::invalid_argument);
}

}  // namespace
}  // namespace gputlm::vgiw
