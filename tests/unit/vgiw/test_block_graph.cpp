// Block dataflow graphs as VGIW fabric nodes (Sec. 3.5): unit types per instruction class, live
// values in and out, joins for memory order, initiator and terminator; every graph of every
// mappable kernel under traces/ is acyclic, starts at the initiator and ends at the terminator.
#include <gtest/gtest.h>

#include <queue>

#include "models/vgiw/mapper/block_graph.h"
#include "models/vgiw/mapper/block_order.h"
#include "support/ptx_harness.h"
#include "support/trace_kernels.h"

namespace gputlm::vgiw {
namespace {

// "" or what is wrong with the graph's shape.
std::string check(const BlockGraph& g) {
  const size_t n = g.nodes.size();
  std::vector<std::vector<uint32_t>> out(n), in(n);
  std::vector<uint32_t> indeg(n, 0);
  for (const auto& [a, b] : g.edges) {
    out[a].push_back(b);
    in[b].push_back(a);
    ++indeg[b];
  }
  std::queue<uint32_t> ready;
  for (uint32_t v = 0; v < n; ++v)
    if (!indeg[v]) ready.push(v);
  if (ready.size() != 1 || ready.front() != 0) return "the initiator is not the only source";
  size_t seen = 0;
  for (; !ready.empty(); ready.pop(), ++seen)
    for (uint32_t s : out[ready.front()])
      if (--indeg[s] == 0) ready.push(s);
  if (seen != n) return "a cycle";
  for (uint32_t v = 0; v < n; ++v)
    if (v != 1 && out[v].empty()) return "node " + std::to_string(v) + " is a sink other than the terminator";
  UnitCounts count{};
  for (const GraphNode& x : g.nodes) ++count[static_cast<size_t>(x.unit)];
  if (count != g.need) return "unit counts disagree";
  return "";
}

TEST(BlockGraph, InstructionsTakeTheirUnitsAndMemoryKeepsItsOrder) {
  // One block: a load, a division, a square root, a store after the load (a join), and %r1
  // entering from the previous block, %r5 leaving for the next.
  const auto m = test::parse(test::snippet_kernel(
      "mov.u32 %r1, 3;\n setp.eq.u32 %q1, %ra, 0;\n @%q1 bra $B;\n$B:\n"
      " ld.global.u32 %r2, [%in];\n div.u32 %r3, %r2, %r1;\n cvt.rn.f32.u32 %f1, %r3;\n sqrt.rn.f32 %f2, %f1;\n"
      " st.global.f32 [%in], %f2;\n add.u32 %r5, %r3, %r1;\n setp.eq.u32 %q2, %rb, 0;\n @%q2 bra $C;\n$C:\n"
      " cvt.u64.u32 %o, %r5;"));
  const isa::Kernel& k = *m->kernels[0];
  const BlockSchedule s = schedule_blocks(k.cfg);
  const LiveValues lv = allocate_live_values(k.cfg, s);
  uint32_t block = ~0u;  // the block holding the division
  for (uint32_t pc = 0; pc < k.code.size(); ++pc)
    if (k.code[pc].op == isa::Opcode::Div) block = k.cfg.block_of[pc];
  ASSERT_NE(block, ~0u);
  const BlockGraph g = build_block_graph(k, block, lv);
  EXPECT_EQ(check(g), "");
  EXPECT_EQ(g.need[static_cast<size_t>(UnitType::LoadStore)], 2u);
  EXPECT_EQ(g.need[static_cast<size_t>(UnitType::Special)], 2u) << "div.u32 and sqrt";
  EXPECT_EQ(g.need[static_cast<size_t>(UnitType::SplitJoin)], 1u) << "the store waits for the load";
  EXPECT_EQ(g.need[static_cast<size_t>(UnitType::ControlVector)], 2u);
  EXPECT_GE(g.need[static_cast<size_t>(UnitType::LiveValue)], 2u) << "%r1 in, %r5 out";
  EXPECT_GE(replicas(g.need), 1u);
}

TEST(BlockGraph, ReplicasFillTheGridByTheScarcestUnit) {
  EXPECT_EQ(replicas({3, 1, 2, 2, 0, 2}), 8u);   // 16 load/store units / 2 and 16 / 2 control units
  EXPECT_EQ(replicas({40, 0, 0, 0, 0, 2}), 0u);  // more compute than 32 units: must be split
}

TEST(BlockGraph, EveryMappableKernelUnderTracesGivesWellFormedGraphs) {
  size_t mapped = 0, refused = 0, blocks = 0, split = 0;
  test::for_each_trace_kernel([&](const std::string& path, const isa::Kernel& k) {
    const BlockSchedule s = schedule_blocks(k.cfg);
    const LiveValues lv = allocate_live_values(k.cfg, s);
    try {
      for (const isa::BasicBlock& b : k.cfg.blocks) {
        const BlockGraph g = build_block_graph(k, b.id, lv);
        EXPECT_EQ(check(g), "") << path << " " << k.name << " block " << b.id;
        ++blocks;
        split += replicas(g.need) == 0;
      }
      ++mapped;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("no mapping"), std::string::npos) << e.what();
      ++refused;
    }
  });
  EXPECT_GT(mapped, 20u);
  EXPECT_GT(blocks, 100u);
  std::cout << mapped << " kernels mapped (" << blocks << " blocks, " << split << " larger than the grid), " << refused
            << " use warp collectives or barriers\n";
}

}  // namespace
}  // namespace gputlm::vgiw
