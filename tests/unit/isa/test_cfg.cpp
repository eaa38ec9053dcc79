// Control flow graph, immediate post-dominators (reconvergence points), liveness and per-block
// dataflow graphs on small kernels whose answers are known by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/isa/ptx_parser.h"
#include "support/ptx_harness.h"

namespace gputlm::isa {
namespace {

std::unique_ptr<Module> kernel(const std::string& text) {
  return test::parse_kernel(" .reg .pred %p<4>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<4>;\n", text);
}
int32_t reg(const Kernel& k, const std::string& name) { return test::reg_index(k, name); }
bool has(const std::vector<int32_t>& v, int32_t r) {
  return std::find(v.begin(), v.end(), r) != v.end();
}
bool has_succ(const BasicBlock& b, uint32_t s) {
  return std::find(b.succs.begin(), b.succs.end(), s) != b.succs.end();
}

const char* kDiamond = R"(
  setp.lt.s32 %p1, %r1, 10;
  @%p1 bra $A;
  add.s32 %r2, %r1, 1;
  bra $J;
$A:
  add.s32 %r2, %r1, 2;
$J:
  add.s32 %r3, %r2, %r2;
  ret;)";

TEST(Cfg, DiamondHasFourBlocksAndReconvergesAtTheJoin) {
  auto m = kernel(kDiamond);
  const Cfg& cfg = m->kernels[0]->cfg;
  ASSERT_EQ(cfg.blocks.size(), 4u);
  EXPECT_EQ(cfg.blocks[0].begin, 0u);
  EXPECT_EQ(cfg.blocks[0].end, 2u);
  EXPECT_TRUE(has_succ(cfg.blocks[0], 1));
  EXPECT_TRUE(has_succ(cfg.blocks[0], 2));
  EXPECT_TRUE(has_succ(cfg.blocks[1], 3));
  EXPECT_TRUE(has_succ(cfg.blocks[2], 3));
  EXPECT_EQ(cfg.blocks[3].preds.size(), 2u);
  EXPECT_EQ(cfg.blocks[0].ipdom, 3u);
  EXPECT_EQ(cfg.blocks[1].ipdom, 3u);
  EXPECT_EQ(cfg.blocks[3].ipdom, kExitPc);
  EXPECT_TRUE(cfg.blocks[3].exits);
  EXPECT_EQ(cfg.reconv_pc[1], 5u);  // the branch reconverges at "add.s32 %r3"
}

TEST(Cfg, IndexedBranchHasAnEdgeToEveryTargetAndReconvergesWhereTheyMeet) {
  auto m = kernel(R"(
  $T: .branchtargets $A, $B, $A, $C;
  @%p1 brx.idx %r1, $T;
  add.s32 %r2, %r1, 9;
  bra $J;
$A:
  add.s32 %r2, %r1, 1;
  bra.uni $J;
$B:
  add.s32 %r2, %r1, 2;
  bra $J;
$C:
  ret;
$J:
  ret;)");
  const Kernel& k = *m->kernels[0];
  ASSERT_EQ(k.branch_targets.size(), 1u);
  EXPECT_EQ(k.branch_targets[0], (std::vector<uint32_t>{3, 5, 3, 7}));
  const Cfg& cfg = k.cfg;
  ASSERT_EQ(cfg.blocks.size(), 6u);
  EXPECT_EQ(
      cfg.blocks[0].succs,
      (std::vector<uint32_t>{2, 3, 4, 1}));  // the list's blocks, then the guard's fall-through
  EXPECT_EQ(cfg.blocks[0].ipdom, kExitPc);   // $C leaves: the paths only meet at exit
  EXPECT_EQ(cfg.reconv_pc[0], kExitPc);
  auto m2 = kernel(R"(
  $T: .branchtargets $A, $B;
  brx.idx.uni 1, $T;
$A:
  bra $J;
$B:
  mov.u32 %r2, 1;
$J:
  ret;)");
  EXPECT_EQ(m2->kernels[0]->cfg.reconv_pc[0], 3u);  // $J
}

TEST(Cfg, LoopBranchReconvergesAfterTheLoop) {
  auto m = kernel(R"(
  mov.u32 %r1, 0;
$L:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, %r2;
  @%p1 bra $L;
  ret;)");
  const Kernel& k = *m->kernels[0];
  ASSERT_EQ(k.cfg.blocks.size(), 3u);
  EXPECT_TRUE(has_succ(k.cfg.blocks[1], 1));  // back edge
  EXPECT_EQ(k.cfg.blocks[1].ipdom, 2u);
  EXPECT_EQ(k.cfg.reconv_pc[3], 4u);
}

TEST(Cfg, BranchWhosePathsOnlyMeetAtExitHasNoReconvergencePc) {
  auto m = kernel(R"(
  setp.ge.s32 %p1, %r1, 5;
  @%p1 bra $X;
  add.s32 %r2, %r1, 1;
  ret;
$X:
  sub.s32 %r2, %r1, 1;
  ret;)");
  const Kernel& k = *m->kernels[0];
  EXPECT_EQ(k.cfg.blocks[0].ipdom, kExitPc);
  EXPECT_EQ(k.cfg.reconv_pc[1], kExitPc);
}

TEST(Cfg, GuardedReturnSplitsTheBlockAndStillFallsThrough) {
  auto m = kernel(R"(
  setp.ge.s32 %p1, %r1, 5;
  @%p1 ret;
  add.s32 %r2, %r1, 1;
  ret;)");
  const Cfg& cfg = m->kernels[0]->cfg;
  ASSERT_EQ(cfg.blocks.size(), 2u);
  EXPECT_TRUE(cfg.blocks[0].exits);
  EXPECT_TRUE(has_succ(cfg.blocks[0], 1));
}

TEST(Cfg, NestedIfInsideLoopReconvergesInnermostFirst) {
  auto m = kernel(R"(
  mov.u32 %r1, 0;
$L:
  setp.eq.s32 %p1, %r1, 3;
  @%p1 bra $SKIP;
  add.s32 %r2, %r2, %r1;
$SKIP:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p2, %r1, 8;
  @%p2 bra $L;
  ret;)");
  const Kernel& k = *m->kernels[0];
  // pc 2 = inner branch, reconverging at $SKIP (pc 4); pc 6 = loop branch, reconverging at ret.
  EXPECT_EQ(k.cfg.reconv_pc[2], 4u);
  EXPECT_EQ(k.cfg.reconv_pc[6], 7u);
}

TEST(Liveness, LoopCarriedRegistersAreLiveAroundTheLoop) {
  auto m = kernel(R"(
  mov.u32 %r1, 0;
$L:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, %r2;
  @%p1 bra $L;
  st.global.u32 [%rd1], %r1;
  ret;)");
  const Kernel& k = *m->kernels[0];
  const BasicBlock& loop = k.cfg.blocks[1];
  EXPECT_TRUE(has(loop.live_in, reg(k, "%r1")));
  EXPECT_TRUE(has(loop.live_in, reg(k, "%r2")));
  EXPECT_TRUE(has(loop.live_out, reg(k, "%r1")));
  EXPECT_FALSE(has(loop.live_out, reg(k, "%p1")));
  EXPECT_FALSE(has(k.cfg.blocks[0].live_in, reg(k, "%r1")));  // defined before use
  EXPECT_TRUE(has(k.cfg.blocks[0].live_in, reg(k, "%rd1")));
}

TEST(Liveness, GuardedWriteDoesNotKillTheOldValue) {
  auto m = kernel(R"(
  setp.lt.s32 %p1, %r1, 0;
  @%p1 mov.u32 %r2, 7;
  st.global.u32 [%rd1], %r2;
  ret;)");
  const Kernel& k = *m->kernels[0];
  EXPECT_TRUE(has(k.cfg.blocks[0].live_in, reg(k, "%r2")));
}

TEST(Dataflow, EdgesFollowDefinitionsAndMemoryStaysOrdered) {
  auto m = kernel(R"(
  add.s32 %r2, %r1, 1;
  mul.lo.s32 %r3, %r2, %r2;
  st.global.u32 [%rd1], %r3;
  ld.global.u32 %r4, [%rd2];
  add.s32 %r5, %r4, %r3;
  bra $N;
$N:
  st.global.u32 [%rd1], %r5;
  ret;)");
  const Kernel& k = *m->kernels[0];
  const DataflowGraph& g = k.cfg.blocks[0].dfg;
  auto edge = [&](uint32_t from, uint32_t to, const char* r) {
    for (const auto& e : g.edges)
      if (e.from == from && e.to == to && e.reg == reg(k, r)) return true;
    return false;
  };
  EXPECT_TRUE(edge(0, 1, "%r2"));
  EXPECT_TRUE(edge(1, 2, "%r3"));
  EXPECT_TRUE(edge(3, 4, "%r4"));
  EXPECT_TRUE(edge(1, 4, "%r3"));
  EXPECT_FALSE(edge(0, 4, "%r2"));
  EXPECT_EQ(g.mem_order.size(), 1u);  // the load after the store
  EXPECT_EQ(g.mem_order[0], std::make_pair(2u, 3u));
  EXPECT_TRUE(has(g.inputs, reg(k, "%r1")));
  EXPECT_TRUE(has(g.inputs, reg(k, "%rd1")));
  EXPECT_FALSE(has(g.inputs, reg(k, "%r2")));
  EXPECT_EQ(g.outputs, std::vector<int32_t>{reg(k, "%r5")});  // only %r5 crosses into $N
}

}  // namespace
}  // namespace gputlm::isa
