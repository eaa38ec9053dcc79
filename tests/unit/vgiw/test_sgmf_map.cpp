// The SGMF mapping (mapper/sgmf_map.h): the whole kernel as one graph on the grid, with no live
// values, an entry and a steering node per block, and one clear refusal, naming the units, for a
// kernel that does not fit (or a barrier).
#include <gtest/gtest.h>

#include "models/vgiw/cgrf/block_config.h"
#include "models/vgiw/mapper/sgmf_map.h"
#include "support/ptx_harness.h"
#include "support/trace_kernels.h"

namespace gputlm::vgiw {
namespace {

// A kernel of three blocks: a load, then (if the loaded value is zero) an addition, then a store;
// %r2 and %r3 cross the blocks. `body` replaces the whole middle when given.
std::string kernel_text(const std::string& body = "") {
  return std::string(R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry t(.param .u64 pin)
{
  .reg .b64 %in, %off;
  .reg .b32 %r<5>;
  .reg .pred %q<2>;
  ld.param.u64 %in, [pin];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %off, %r1, 4;
  add.s64 %in, %in, %off;
)") +
         (body.empty() ? R"(  ld.global.u32 %r2, [%in];
  mov.u32 %r3, 1;
  setp.eq.u32 %q1, %r2, 0;
  @%q1 bra $B;
  add.u32 %r3, %r2, 7;
$B:
  add.u32 %r4, %r3, %r2;
  st.global.u32 [%in], %r4;
)"
                       : body) +
         "  ret;\n}\n";
}

size_t count(const BlockGraph& g, UnitType t) { return g.need[static_cast<size_t>(t)]; }

TEST(SgmfMap, EveryBlockIsOnTheGridAtOnceWithNoLiveValues) {
  const auto m = test::parse(kernel_text());
  const isa::Kernel& k = *m->kernels[0];
  const SgmfMap s = map_kernel_sgmf(k);
  const size_t blocks = s.blocks.segments.size();
  ASSERT_GE(blocks, 3u);
  EXPECT_EQ(count(s.graph, UnitType::LiveValue), 0u)
      << "values cross blocks as tokens, not through the live value cache";
  EXPECT_EQ(s.blocks.live.count, 0u);
  EXPECT_EQ(count(s.graph, UnitType::ControlVector), blocks + 1)
      << "a steering node per block and the initiator";
  EXPECT_EQ(count(s.graph, UnitType::SplitJoin), blocks - 1)
      << "an entry merge per block but the first (the store follows its load across blocks: no "
         "join)";
  ASSERT_EQ(s.entry.size(), blocks);
  ASSERT_EQ(s.steer.size(), blocks);
  EXPECT_EQ(s.graph.nodes[s.entry[0]].role, GraphNode::Role::Initiator);
  for (size_t b = 1; b < blocks; ++b)
    EXPECT_EQ(s.graph.nodes[s.entry[b]].unit, UnitType::SplitJoin);
  for (size_t b = 0; b < blocks; ++b)
    EXPECT_EQ(s.graph.nodes[s.steer[b]].role, GraphNode::Role::Terminator);
  // Each block's instructions are in the graph once, in their block.
  size_t instructions = 0;
  for (size_t v = 0; v < s.graph.nodes.size(); ++v)
    if (s.graph.nodes[v].role == GraphNode::Role::Instruction) {
      ++instructions;
      const Segment& seg = s.blocks.segments[s.segment_of[v]];
      EXPECT_GE(static_cast<uint32_t>(s.graph.nodes[v].pc), seg.begin);
      EXPECT_LT(static_cast<uint32_t>(s.graph.nodes[v].pc), seg.end);
    }
  size_t per_block = 0;
  for (const BlockGraph& g : s.blocks.graphs)
    for (const GraphNode& n : g.nodes) per_block += n.role == GraphNode::Role::Instruction;
  EXPECT_EQ(instructions, per_block);
  // No edge crosses blocks: the thread's control token does, at run time.
  for (const auto& [a, b] : s.graph.edges) EXPECT_EQ(s.segment_of[a], s.segment_of[b]);
  EXPECT_EQ(s.replicas, replicas(s.graph.need));
}

TEST(SgmfMap, TheOneConfigurationEntersEveryBlockAtItsEntryNode) {
  const auto m = test::parse(kernel_text());
  const isa::Kernel& k = *m->kernels[0];
  const SgmfMap s = map_kernel_sgmf(k);
  const VgiwSpec spec;
  const BlockConfig c = configure_sgmf(k, s, Fabric::table1(), spec);
  EXPECT_EQ(c.replicas, s.replicas);
  EXPECT_TRUE(c.destinations.empty())
      << "threads leave the fabric, they never return to the scheduler";
  ASSERT_EQ(c.entry_of.size(), s.blocks.segments.size());
  EXPECT_EQ(c.nodes[c.entry_of[0]].inputs, 0u) << "the initiator starts threads";
  for (size_t b = 1; b < c.entry_of.size(); ++b)
    EXPECT_EQ(c.nodes[c.entry_of[b]].inputs, 1u) << "block " << b;
  // Every replica's nodes are on distinct units of their type.
  std::vector<int> used(Fabric::table1().units(), 0);
  for (size_t i = 0; i < c.unit.size(); ++i) ++used[c.unit[i]];
  for (int u : used) EXPECT_LE(u, 1);
}

TEST(SgmfMap, AKernelLargerThanTheGridIsRefusedNamingTheUnitsItNeeds) {
  std::string body = "  ld.global.u32 %r2, [%in];\n";
  for (int i = 0; i < 40; ++i) body += "  add.u32 %r2, %r2, " + std::to_string(i + 1) + ";\n";
  body += "  st.global.u32 [%in], %r2;\n";
  const auto m = test::parse(kernel_text(body));
  try {
    map_kernel_sgmf(*m->kernels[0]);
    FAIL() << "40 additions need more than 32 compute units";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("compute 4"), std::string::npos) << what;
    EXPECT_NE(what.find("(grid 32)"), std::string::npos) << what;
    EXPECT_NE(what.find("fit the grid"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(map_kernel(*m->kernels[0])) << "VGIW cuts the block instead";
}

TEST(SgmfMap, ABarrierIsRefusedWithItsLine) {
  const auto m = test::parse(
      kernel_text("  ld.global.u32 %r2, [%in];\n  bar.sync 0;\n  st.global.u32 [%in], %r2;\n"));
  try {
    map_kernel_sgmf(*m->kernels[0]);
    FAIL() << "a barrier";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bar.sync"), std::string::npos) << e.what();
  }
}

// Every kernel under traces/ that SGMF maps gives a graph whose blocks are each acyclic and
// whose configuration places.
TEST(SgmfMap, EveryTraceKernelThatFitsPlaces) {
  size_t mapped = 0;
  test::for_each_trace_kernel([&](const std::string& where, const isa::Kernel& k) {
    SgmfMap s;
    try {
      s = map_kernel_sgmf(k);
    } catch (const std::invalid_argument&) {
      return;
    }
    ++mapped;
    EXPECT_NO_THROW(configure_sgmf(k, s, Fabric::table1(), VgiwSpec())) << where;
  });
  EXPECT_GE(mapped, 9u) << "Table 2's bfs, kmeans, cfd, gaussian and nn kernels fit";
}

}  // namespace
}  // namespace gputlm::vgiw
