// The VGIW block schedule (Sec. 3.1) on real kernels: entry 0, forward edges to larger IDs, back
// edges only to loop headers, each loop's blocks consecutive, at most two successors; a synthetic
// entry when the first block is a loop target; checked on every kernel under traces/.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "models/isa/kernel.h"
#include "models/isa/ptx_parser.h"
#include "models/vgiw/mapper/block_order.h"
#include "support/ptx_harness.h"
#include "support/trace_kernels.h"

namespace gputlm::vgiw {
namespace {

// Every property the scheduling rule relies on; returns "" or what is wrong.
std::string check(const isa::Cfg& cfg, const BlockSchedule& s) {
  std::ostringstream err;
  // Loop membership by header, from the schedule's own back edges (an edge to an ID not above).
  for (uint32_t id = 0; id < s.blocks.size(); ++id) {
    const ScheduledBlock& b = s.blocks[id];
    if (b.succs.size() > 2) err << "block " << id << " has " << b.succs.size() << " successors; ";
    for (uint32_t t : b.succs) {
      if (t > id) continue;
      // A back edge: t must be a loop header whose blocks are exactly the IDs t..id at least.
      if (s.blocks[t].loop_depth == 0)
        err << "back edge " << id << " -> " << t << " to a block in no loop; ";
      for (uint32_t x = t; x <= id; ++x)
        if (s.blocks[x].loop_depth < s.blocks[t].loop_depth)
          err << "loop " << t << ".." << id << " is not contiguous (block " << x
              << " is outside); ";
    }
  }
  if (s.blocks.empty() ||
      (s.blocks[0].cfg_block != 0 && s.blocks[0].cfg_block != ScheduledBlock::kSyntheticEntry))
    err << "block 0 is not the entry; ";
  for (const isa::BasicBlock& b : cfg.blocks)
    if (s.id_of[b.id] != ~0u && s.blocks[s.id_of[b.id]].succs.size() != b.succs.size())
      err << "block " << b.id << " lost a successor; ";
  return err.str();
}

TEST(BlockSchedule, ALoopIsContiguousAndItsBackEdgeGoesToItsHeader) {
  const auto m = test::parse(test::snippet_kernel(
      "mov.u32 %r1, 0;\n$L:\n add.u32 %r1, %r1, 1;\n setp.lt.u32 %q1, %r1, %ra;\n @%q1 bra $L;\n"
      "setp.eq.u32 %q2, %r1, 3;\n @%q2 bra $SKIP;\n add.u32 %r1, %r1, 7;\n$SKIP:\n cvt.u64.u32 %o, "
      "%r1;"));
  const isa::Cfg& cfg = m->kernels[0]->cfg;
  const BlockSchedule s = schedule_blocks(cfg);
  EXPECT_EQ(check(cfg, s), "");
  EXPECT_EQ(s.blocks[0].cfg_block, 0);
  uint32_t back = 0;
  for (uint32_t id = 0; id < s.blocks.size(); ++id)
    for (uint32_t t : s.blocks[id].succs) back += t <= id;
  EXPECT_EQ(back, 1u);
}

TEST(BlockSchedule, NestedLoopsWithABranchInsideStayTogetherAndTheExitComesLast) {
  const auto m = test::parse(test::snippet_kernel(
      "mov.u32 %r1, 0;\n$OUTER:\n mov.u32 %r2, 0;\n$INNER:\n and.b32 %r3, %r2, 1;\n setp.eq.u32 "
      "%q1, %r3, 0;\n"
      " @%q1 bra $EVEN;\n add.u32 %r4, %r4, %r2;\n bra.uni $NEXT;\n$EVEN:\n sub.u32 %r4, %r4, "
      "%r2;\n$NEXT:\n"
      " add.u32 %r2, %r2, 1;\n setp.lt.u32 %q2, %r2, 4;\n @%q2 bra $INNER;\n add.u32 %r1, %r1, 1;\n"
      " setp.lt.u32 %q3, %r1, %ra;\n @%q3 bra $OUTER;\n cvt.u64.u32 %o, %r4;"));
  const isa::Cfg& cfg = m->kernels[0]->cfg;
  const BlockSchedule s = schedule_blocks(cfg);
  EXPECT_EQ(check(cfg, s), "");
  uint32_t deepest = 0;
  for (const ScheduledBlock& b : s.blocks) deepest = std::max(deepest, b.loop_depth);
  EXPECT_EQ(deepest, 2u);
  EXPECT_TRUE(s.blocks.back().exits) << "the block after both loops is scheduled last";
  EXPECT_EQ(s.blocks.back().loop_depth, 0u);
}

TEST(BlockSchedule, AFirstBlockThatIsALoopTargetGetsASyntheticEntry) {
  const std::string ptx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u32 n)
{
  .reg .b32 %r<3>;
  .reg .pred %p;
$TOP:
  ld.param.u32 %r1, [n];
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p, %r2, %r1;
  @%p bra $TOP;
  ret;
}
)";
  const auto m = test::parse(ptx);
  const BlockSchedule s = schedule_blocks(m->kernels[0]->cfg);
  ASSERT_GE(s.blocks.size(), 2u);
  EXPECT_EQ(s.blocks[0].cfg_block, ScheduledBlock::kSyntheticEntry);
  EXPECT_EQ(s.blocks[0].succs, (std::vector<uint32_t>{1}));
  EXPECT_EQ(s.blocks[1].cfg_block, 0);
  EXPECT_EQ(check(m->kernels[0]->cfg, s), "");
}

TEST(BlockSchedule, EveryKernelUnderTracesSchedules) {
  const size_t kernels =
      test::for_each_trace_kernel([](const std::string& path, const isa::Kernel& k) {
        const BlockSchedule s = schedule_blocks(k.cfg);
        EXPECT_EQ(check(k.cfg, s), "") << path << " kernel " << k.name;
        EXPECT_LE(s.blocks.size(), k.cfg.blocks.size() + 1);
      });
  EXPECT_GT(kernels, 40u);
}

}  // namespace
}  // namespace gputlm::vgiw
