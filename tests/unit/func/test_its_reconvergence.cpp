// The "its" reconvergence policy (simt_stack.h): on the stack alone, a path that takes a back edge
// gives way to its sibling paths in turn, or lets the lanes waiting at its reconvergence PC go on
// past it; paths without back edges reconverge at the post-dominator as under "stack"; a path at
// bar.warp.sync waits for the other named lanes, which then go on as one path. On the functional
// engine: an intra-warp spin lock completes under "its" and is named by the watchdog under
// "stack".
#include <gtest/gtest.h>

#include <algorithm>

#include "models/func/intra_warp_wait.h"
#include "models/func/reference_executor.h"
#include "models/func/simt_stack.h"
#include "support/ptx_harness.h"

namespace gputlm::func {
namespace {

using Stack = SimtStack<uint32_t>;

Stack its_stack(uint32_t mask) {
  Stack s;
  s.set_policy(Reconvergence::Its);
  s.reset(0, mask);
  return s;
}

TEST(ItsReconvergence, ABackEdgeRotatesThePathUnderItsSiblings) {
  Stack s = its_stack(0xFF);
  s.branch(/*target*/ 10, /*fallthrough*/ 2, /*taken*/ 0x0F, /*rpc*/ 20);
  s.advance(12);
  s.branch(10, 13, 0x0F, 14);  // the taken path loops: a uniform back edge
  ASSERT_EQ(s.pc(), 10u);
  EXPECT_TRUE(s.yield());
  EXPECT_EQ(s.depth(), 3u);
  EXPECT_EQ(s.pc(), 2u);  // the sibling runs
  EXPECT_EQ(s.mask(), 0xF0u);
  EXPECT_EQ(s.entries()[1].pc, 10u);  // the looping path waits under it
  EXPECT_EQ(s.entries()[1].mask, 0x0Fu);
  s.advance(5);
  EXPECT_TRUE(s.yield());  // the sibling loops too: the first path's turn again
  EXPECT_EQ(s.pc(), 10u);
  EXPECT_EQ(s.mask(), 0x0Fu);
  s.advance(20);  // each path reaches the reconvergence PC: one path again
  s.advance(20);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 20u);
  EXPECT_EQ(s.mask(), 0xFFu);
}

TEST(ItsReconvergence, ABackEdgeLetsTheLanesWaitingAtTheReconvergencePcGoOn) {
  Stack s = its_stack(0xFF);
  // A spin loop at pc 1: lane 0 leaves it (to pc 4, the post-dominator), lanes 1-7 loop.
  s.branch(/*target*/ 1, /*fallthrough*/ 4, /*taken*/ 0xFE, /*rpc*/ 4);
  ASSERT_EQ(s.depth(), 3u);  // the reconvergence entry, lane 0's finished path, the loop
  EXPECT_TRUE(s.yield());
  ASSERT_EQ(s.depth(), 2u);
  EXPECT_EQ(s.pc(), 4u);  // lane 0 goes on past the post-dominator
  EXPECT_EQ(s.mask(), 0x01u);
  EXPECT_EQ(s.entries().back().rpc, isa::kExitPc);
  EXPECT_EQ(s.entries()[0].pc, 1u);  // the loop waits below, meeting lane 0 at the exit
  EXPECT_EQ(s.entries()[0].mask, 0xFEu);
  EXPECT_EQ(s.entries()[0].rpc, isa::kExitPc);
  s.exit(0x01, 5);
  EXPECT_EQ(s.pc(), 1u);
  EXPECT_EQ(s.mask(), 0xFEu);
}

TEST(ItsReconvergence, WithoutBackEdgesPathsReconvergeAtThePostDominator) {
  Stack s = its_stack(0xFF);
  s.branch(10, 2, 0x0F, 20);
  s.advance(20);
  EXPECT_EQ(s.pc(), 2u);
  s.advance(20);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.mask(), 0xFFu);
  EXPECT_FALSE(s.yield());  // a lone path has no one to give way to
}

TEST(ItsReconvergence, BarWarpSyncJoinsThePathsItNames) {
  Stack s = its_stack(0xFF);
  s.branch(1, 4, 0xFE, 4);
  s.yield();                     // lane 0 ahead at 4, lanes 1-7 looping at 1
  s.advance(6);                  // lane 0 reaches bar.warp.sync at 6
  EXPECT_TRUE(s.join(6, 0xFF));  // it waits: lanes 1-7 run
  EXPECT_EQ(s.pc(), 1u);
  EXPECT_EQ(s.mask(), 0xFEu);
  s.advance(4);
  s.advance(6);
  EXPECT_FALSE(s.join(6, 0xFF));  // every named lane is here: one path
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 6u);
  EXPECT_EQ(s.mask(), 0xFFu);
}

TEST(ItsReconvergence, BarWarpSyncWaitsOnlyForNamedLanesStillAlive) {
  Stack s = its_stack(0xFF);
  s.branch(10, 2, 0x0F, 20);
  EXPECT_FALSE(s.join(10, 0x0F));  // names only its own lanes
  s.exit(0x0F, 11);                // lanes 0-3 exit
  s.advance(6);
  EXPECT_FALSE(s.join(6, 0xFF));  // lanes 4-7 need not wait for them
  EXPECT_EQ(s.mask(), 0xF0u);
}

TEST(ItsReconvergence, AnIntraWarpSpinLockCompletesUnderIts) {
  test::SnippetLaunch l(test::kIntraWarpSpinLock, std::vector<test::Inputs>(32));
  ReferenceOptions o;
  o.reconvergence = Reconvergence::Its;
  run_reference(*l.bound, l.launch, o);
  std::vector<uint64_t> seen;
  for (const test::LaneOut& out : l.outputs()) seen.push_back(out.o);
  std::sort(seen.begin(), seen.end());
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(seen[i], i);  // each critical section once
}

TEST(ItsReconvergence, AnIntraWarpSpinLockIsNamedByTheWatchdogUnderStack) {
  test::SnippetLaunch l(test::kIntraWarpSpinLock, std::vector<test::Inputs>(32));
  ReferenceOptions o;
  o.max_warp_instructions = 1000;
  const std::string fault = test::kernel_fault([&] { run_reference(*l.bound, l.launch, o); });
  EXPECT_NE(fault.find("kernel fault in 't': watchdog: more than 1000 warp instructions: warp 0 "
                       "of CTA (0,0,0): lanes 1-31 spin at PC "),
            std::string::npos)
      << fault;
  EXPECT_NE(fault.find("while lane 0 of the same warp waits below them in the SIMT stack at PC "),
            std::string::npos)
      << fault;
  EXPECT_NE(fault.find("needs independent thread scheduling (core.reconvergence \"its\")"),
            std::string::npos)
      << fault;
}

TEST(ItsReconvergence, LaneListsNameRuns) {
  EXPECT_EQ(lane_list(0xFFFFFFFEu), "lanes 1-31");
  EXPECT_EQ(lane_list(1u), "lane 0");
  EXPECT_EQ(lane_list(0x10Fu), "lanes 0-3, 8");
}

}  // namespace
}  // namespace gputlm::func
