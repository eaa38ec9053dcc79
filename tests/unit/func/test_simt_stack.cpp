// The SIMT divergence stack on its own: divergence runs the taken path first, each path ends at
// the reconvergence PC, nested divergence unwinds innermost first, exits leave every entry;
// calls push a call entry that rets unwind to, returning to the instruction after the call.
#include <gtest/gtest.h>

#include "models/func/simt_stack.h"

namespace gputlm::func {
namespace {

using Stack = SimtStack<uint32_t>;

TEST(SimtStack, UniformBranchDoesNotPush) {
  Stack s;
  s.reset(0, 0xFF);
  s.branch(10, 1, 0xFF, 20);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 10u);
  s.branch(30, 11, 0x00, 20);
  EXPECT_EQ(s.pc(), 11u);
  EXPECT_EQ(s.mask(), 0xFFu);
}

TEST(SimtStack, DivergentBranchRunsTakenPathFirstThenNotTakenThenReconverges) {
  Stack s;
  s.reset(0, 0xFF);
  s.branch(/*target*/ 10, /*fallthrough*/ 2, /*taken*/ 0x0F, /*rpc*/ 20);
  EXPECT_EQ(s.depth(), 3u);
  EXPECT_EQ(s.pc(), 10u);
  EXPECT_EQ(s.mask(), 0x0Fu);
  s.advance(20);  // taken path reaches the reconvergence point
  EXPECT_EQ(s.pc(), 2u);
  EXPECT_EQ(s.mask(), 0xF0u);
  s.advance(20);  // not-taken path too
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 20u);
  EXPECT_EQ(s.mask(), 0xFFu);
}

TEST(SimtStack, MultiWayBranchRunsEachGroupInTurnThenReconverges) {
  Stack s;
  s.reset(0, 0xFF);
  const std::pair<uint32_t, uint32_t> groups[] = {
      {40, 0x11}, {10, 0x06}, {1, 0xE8}};  // brx.idx: three targets
  s.branch_each(/*rpc*/ 50, groups, 3);
  EXPECT_EQ(s.depth(), 4u);
  for (const auto& [pc, lanes] : groups) {
    EXPECT_EQ(s.pc(), pc);
    EXPECT_EQ(s.mask(), lanes);
    s.advance(50);
  }
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 50u);
  EXPECT_EQ(s.mask(), 0xFFu);
  const std::pair<uint32_t, uint32_t> one[] = {
      {7, 0xFF}};  // every lane to one target: no divergence
  s.branch_each(60, one, 1);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 7u);
}

TEST(SimtStack, NestedDivergenceUnwindsInnermostFirst) {
  Stack s;
  s.reset(0, 0xFF);
  s.branch(10, 1, 0x0F, 30);   // outer: taken lanes 0-3
  s.branch(20, 11, 0x03, 25);  // inner, inside the taken path
  EXPECT_EQ(s.mask(), 0x03u);
  s.advance(25);
  EXPECT_EQ(s.mask(), 0x0Cu);
  s.advance(25);
  EXPECT_EQ(s.pc(), 25u);
  EXPECT_EQ(s.mask(), 0x0Fu);  // inner paths rejoined
  s.advance(30);
  EXPECT_EQ(s.mask(), 0xF0u);  // outer not-taken path
  s.advance(30);
  EXPECT_EQ(s.mask(), 0xFFu);
  EXPECT_EQ(s.depth(), 1u);
}

TEST(SimtStack, BranchToTheReconvergencePointPopsAtOnce) {
  Stack s;
  s.reset(0, 0xFF);
  s.branch(20, 1, 0x0F, 20);  // taken lanes skip the if-body
  EXPECT_EQ(s.pc(), 1u);
  EXPECT_EQ(s.mask(), 0xF0u);
}

TEST(SimtStack, ExitedLanesLeaveEveryEntry) {
  Stack s;
  s.reset(0, 0xFF);
  s.branch(10, 1, 0x0F, 20);
  s.exit(0x0F, 11);  // the whole taken path returns
  EXPECT_EQ(s.pc(), 1u);
  EXPECT_EQ(s.mask(), 0xF0u);
  s.advance(20);
  EXPECT_EQ(s.mask(), 0xF0u);  // the reconvergence entry lost the exited lanes
  s.exit(0xF0, 21);
  EXPECT_TRUE(s.done());
}

TEST(SimtStack, GuardedExitLetsTheOtherLanesContinue) {
  Stack s;
  s.reset(5, 0xFF);
  s.exit(0x01, 6);
  EXPECT_EQ(s.pc(), 6u);
  EXPECT_EQ(s.mask(), 0xFEu);
}

TEST(SimtStack, PathsThatMeetOnlyAtExitNeverPopEarly) {
  Stack s;
  s.reset(0, 0x3);
  s.branch(10, 1, 0x1, isa::kExitPc);
  s.advance(2);
  s.advance(3);
  EXPECT_EQ(s.mask(), 0x1u);
  s.exit(0x1, 4);
  EXPECT_EQ(s.mask(), 0x2u);
  EXPECT_EQ(s.pc(), 1u);
  s.exit(0x2, 2);
  EXPECT_TRUE(s.done());
}

TEST(SimtStack, CallRunsTheCalleeThenReturnsEveryLaneToTheNextInstruction) {
  Stack s;
  s.reset(0, 0xFF);
  s.call(/*target*/ 100, /*return*/ 6, /*lanes*/ 0x0F);  // a guarded call: lanes 4-7 wait at 6
  EXPECT_EQ(s.pc(), 100u);
  EXPECT_EQ(s.mask(), 0x0Fu);
  s.advance(101);
  s.ret(0x0F, 102);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 6u);
  EXPECT_EQ(s.mask(), 0xFFu);
}

TEST(SimtStack, RetOfSomeLanesInsideDivergentCalleeWaitsForTheOthers) {
  Stack s;
  s.reset(0, 0xFF);
  s.call(100, 6, 0xFF);
  s.branch(/*target*/ 110, /*fallthrough*/ 101, /*taken*/ 0xF0,
           /*rpc*/ isa::kExitPc);  // paths meet only at ret
  EXPECT_EQ(s.mask(), 0xF0u);
  s.ret(0xF0, 111);  // the taken path returns first
  EXPECT_EQ(s.pc(), 101u);
  EXPECT_EQ(s.mask(), 0x0Fu);
  s.ret(0x0F, 102);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 6u);
  EXPECT_EQ(s.mask(), 0xFFu);
}

TEST(SimtStack, RecursiveCallsUnwindOneLevelPerRet) {
  Stack s;
  s.reset(0, 0x3);
  s.call(100, 1, 0x3);
  s.call(100, 103, 0x1);  // only lane 0 recurses; lane 1 waits at the return point
  EXPECT_EQ(s.depth(), 3u);
  s.ret(0x1, 101);
  EXPECT_EQ(s.pc(), 103u);
  EXPECT_EQ(s.mask(), 0x3u);
  s.ret(0x3, 104);
  EXPECT_EQ(s.pc(), 1u);
  EXPECT_EQ(s.depth(), 1u);
}

TEST(SimtStack, CallWithNoCallingLanesOnlyMovesOn) {
  Stack s;
  s.reset(0, 0xFF);
  s.call(100, 6, 0);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 6u);
}

}  // namespace
}  // namespace gputlm::func
