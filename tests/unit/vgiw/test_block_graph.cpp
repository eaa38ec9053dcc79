// Block dataflow graphs as VGIW fabric nodes (Sec. 3.5): unit types per instruction class, live
// values in and out, joins for memory order, initiator and terminator; every graph of every
// mappable kernel under traces/ is acyclic, starts at the initiator and ends at the terminator.
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>

#include "models/vgiw/mapper/kernel_map.h"
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
    if (v != 1 && out[v].empty())
      return "node " + std::to_string(v) + " is a sink other than the terminator";
  UnitCounts count{};
  for (const GraphNode& x : g.nodes) ++count[static_cast<size_t>(x.unit)];
  if (count != g.need) return "unit counts disagree";
  return "";
}

TEST(BlockGraph, InstructionsTakeTheirUnitsAndMemoryKeepsItsOrder) {
  // One block: a load, a division, a square root, a store after the load (a join), and %r1
  // entering from the previous block, %r5 leaving for the next.
  const auto m = test::parse(
      test::snippet_kernel("mov.u32 %r1, 3;\n setp.eq.u32 %q1, %ra, 0;\n @%q1 bra $B;\n$B:\n"
                           " ld.global.u32 %r2, [%in];\n div.u32 %r3, %r2, %r1;\n cvt.rn.f32.u32 "
                           "%f1, %r3;\n sqrt.rn.f32 %f2, %f1;\n"
                           " st.global.f32 [%in], %f2;\n add.u32 %r5, %r3, %r1;\n setp.eq.u32 %q2, "
                           "%rb, 0;\n @%q2 bra $C;\n$C:\n"
                           " cvt.u64.u32 %o, %r5;"));
  const isa::Kernel& k = *m->kernels[0];
  const KernelMap km = map_kernel(k);
  int seg = -1;  // the segment holding the division
  for (uint32_t i = 0; i < km.segments.size(); ++i)
    for (uint32_t pc = km.segments[i].begin; pc < km.segments[i].end; ++pc)
      if (k.code[pc].op == isa::Opcode::Div) seg = static_cast<int>(i);
  ASSERT_GE(seg, 0);
  const BlockGraph& g = km.graphs[static_cast<size_t>(seg)];
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

// In every reading of kernel parameters and coordinates (static_operands.h); the counts are the
// default's.
TEST(BlockGraph, EveryMappableKernelUnderTracesGivesWellFormedGraphs) {
  size_t mapped = 0, refused = 0, segments = 0, cut = 0;
  const StaticOptions readings[] = {
      {}, {false}, {true, StaticFolding::None}, {true, StaticFolding::Coordinates}};
  test::for_each_trace_kernel([&](const std::string& path, const isa::Kernel& k) {
    for (const StaticOptions& reading : readings) {
      const bool counted = &reading == &readings[0];
      KernelMap km;
      try {
        km = map_kernel(k, kTable1Units, reading);
      } catch (const std::invalid_argument& e) {  // the constructs VGIW refuses by name
        const std::string why = e.what();
        EXPECT_TRUE(why.find("warp collective") != std::string::npos ||
                    why.find("asynchronous copies") != std::string::npos)
            << why;
        refused += counted;
        return;
      }
      mapped += counted;
      for (size_t i = 0; i < km.segments.size(); ++i) {
        EXPECT_EQ(check(km.graphs[i]), "") << path << " " << k.name << " segment " << i
                                           << " (reading " << &reading - readings << ")";
        EXPECT_GE(km.replicas[i], 1u) << "every segment fits the grid";
        EXPECT_LE(km.segments[i].succs.size(), 2u);
        segments += counted;
        cut += counted && !km.segments[i].ends_block;
      }
    }
  });
  EXPECT_GT(mapped, 35u);
  EXPECT_GT(cut, 10u) << "blocks larger than the grid, and barriers, cut blocks";
  std::cout << mapped << " kernels mapped (" << segments << " segments, " << cut
            << " cuts inside blocks), " << refused
            << " use warp collectives or asynchronous copies\n";
}

TEST(BlockGraph, ABarrierEndsASegmentAndTheNextStartsAfterIt) {
  const auto m = test::parse(test::snippet_kernel(
      "add.u32 %r1, %ra, 1;\n bar.sync 0;\n add.u32 %r2, %r1, 2;\n cvt.u64.u32 %o, %r2;"));
  const isa::Kernel& k = *m->kernels[0];
  const KernelMap km = map_kernel(k);
  // (The harness's own loads and stores outnumber the 16 load/store units: its block is cut too.)
  size_t at = km.segments.size();
  for (size_t i = 0; i + 1 < km.segments.size(); ++i)
    if (km.segments[i].end < k.code.size() && k.code[km.segments[i].end].is_barrier()) at = i;
  ASSERT_LT(at, km.segments.size()) << "a segment ends at the barrier";
  EXPECT_FALSE(km.segments[at].ends_block);
  EXPECT_EQ(km.segments[at].succs, (std::vector<uint32_t>{static_cast<uint32_t>(at + 1)}));
  EXPECT_EQ(km.segments[at + 1].begin, km.segments[at].end + 1) << "the barrier itself is dropped";
  // %r1 crosses the barrier through the live value cache.
  const auto& in = km.segments[at + 1].live_in;
  EXPECT_NE(std::find(in.begin(), in.end(), k.code[km.segments[at + 1].begin].ops[1].reg),
            in.end());
}

}  // namespace
}  // namespace gputlm::vgiw
