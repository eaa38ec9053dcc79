// The MT-CGRF grid (Sec. 3.5, Table 1) and placement on it: unit counts and perimeter, the
// folded-hypercube links, and every mappable block of the kernels under traces/ placed (each
// node on its own unit of its type) with each edge routed over linked resources.
#include <gtest/gtest.h>

#include <set>

#include "models/vgiw/mapper/fabric.h"
#include "models/vgiw/mapper/kernel_map.h"
#include "support/trace_kernels.h"

namespace gputlm::vgiw {
namespace {

TEST(Fabric, Table1GridHasItsUnitsAndTheMemorySideOnThePerimeter) {
  const Fabric f = Fabric::table1();
  EXPECT_EQ(f.units(), 108u);
  UnitCounts count{};
  for (uint32_t u = 0; u < f.units(); ++u) {
    ++count[static_cast<size_t>(f.type(u))];
    if (f.type(u) == UnitType::LoadStore || f.type(u) == UnitType::LiveValue) {
      EXPECT_TRUE(f.on_perimeter(u)) << u;
    }
  }
  EXPECT_EQ(count, kTable1Units);
}

TEST(Fabric, UnitsLinkToFourNeighboursAndFourSwitchesAndSwitchesSkipOne) {
  const Fabric f = Fabric::table1();
  const uint32_t inner = 4 * 12 + 5;  // (5, 4)
  uint32_t units = 0, switches = 0;
  for (uint32_t r : f.links(inner)) (f.is_unit(r) ? units : switches)++;
  EXPECT_EQ(units, 4u);
  EXPECT_EQ(switches, 4u);
  for (uint32_t r = 0; r < f.resources(); ++r)
    for (uint32_t s : f.links(r)) {
      const auto& back = f.links(s);
      EXPECT_NE(std::find(back.begin(), back.end(), r), back.end()) << "links are both ways";
    }
  EXPECT_EQ(f.hops(inner, inner + 1), 1u);
  // Across the top row: to switch (1,0), five switch hops of two columns to (11,0), to unit 11;
  // not 11.
  EXPECT_EQ(f.hops(0, 11), 7u);
  const std::vector<uint32_t> path = f.route(0, 107);
  EXPECT_EQ(path.size(), f.hops(0, 107) + 1);
}

TEST(Fabric, EverySegmentOfTheMappableKernelsUnderTracesPlacesAndRoutes) {
  const Fabric f = Fabric::table1();
  size_t placed = 0, replicated = 0;
  uint64_t hops = 0, edges = 0;
  test::for_each_trace_kernel([&](const std::string& path, const isa::Kernel& k) {
    KernelMap km;
    try {
      km = map_kernel(k);
    } catch (const std::invalid_argument&) {
      return;  // a kernel with warp collectives
    }
    for (size_t i = 0; i < km.segments.size(); ++i) {
      const BlockGraph& g = km.graphs[i];
      const uint32_t copies = km.replicas[i];
      const Placement p = place(g, copies, f);
      std::set<uint32_t> units;
      for (uint32_t r = 0; r < copies; ++r)
        for (uint32_t v = 0; v < g.nodes.size(); ++v) {
          const uint32_t u = p.unit_of[r][v];
          ASSERT_LT(u, f.units());
          EXPECT_EQ(f.type(u), g.nodes[v].unit) << path << " segment " << i;
          EXPECT_TRUE(units.insert(u).second) << "unit " << u << " used twice";
        }
      ASSERT_EQ(p.edge_hops.size(), g.edges.size() * copies);
      for (const uint32_t h : p.edge_hops) EXPECT_GE(h, 1u);
      const auto& [a, c] = g.edges.front();
      const std::vector<uint32_t> route = f.route(p.unit_of[0][a], p.unit_of[0][c]);
      for (size_t step = 1; step < route.size(); ++step) {
        const auto& l = f.links(route[step - 1]);
        EXPECT_NE(std::find(l.begin(), l.end(), route[step]), l.end())
            << "a route step over no link";
      }
      for (const uint32_t h : p.edge_hops) hops += h;
      edges += p.edge_hops.size();
      ++placed;
      replicated += copies > 1;
    }
  });
  EXPECT_GT(placed, 300u);
  EXPECT_GT(replicated, 100u);
  std::cout << placed << " segments placed (" << replicated << " replicated), mean "
            << static_cast<double>(hops) / edges << " hops an edge\n";
}

}  // namespace
}  // namespace gputlm::vgiw
