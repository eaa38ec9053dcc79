#include "models/vgiw/mapper/sgmf_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm::vgiw {

namespace {

// "compute 40 (grid 32), split/join 20 (grid 16), ...": what the graph needs against the grid.
std::string needs_text(const UnitCounts& need, const UnitCounts& grid) {
  std::string s;
  uint32_t total = 0;
  for (size_t t = 0; t < kUnitTypes; ++t) {
    total += need[t];
    if (!need[t]) continue;
    s += (s.empty() ? "" : ", ") + std::string(unit_type_name(static_cast<UnitType>(t))) + " " +
         std::to_string(need[t]) + " (grid " + std::to_string(grid[t]) + ")";
  }
  return std::to_string(total) + " units: " + s;
}

// Appends segment `seg`'s graph to `out`: live-value loads become its entry, live-value stores its
// steering node (sgmf_map.h).
void append_block(const BlockGraph& g, uint32_t seg, SgmfMap& out) {
  const uint32_t base = static_cast<uint32_t>(out.graph.nodes.size());
  std::vector<uint32_t> node(g.nodes.size());
  std::vector<GraphNode>& nodes = out.graph.nodes;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    GraphNode n = g.nodes[i];
    if (n.role == GraphNode::Role::LiveLoad) {
      node[i] = base;
      continue;
    }
    if (n.role == GraphNode::Role::LiveStore) {
      node[i] = base + 1;
      continue;
    }
    if (n.role == GraphNode::Role::Initiator && seg != 0)
      n = {GraphNode::Role::Join, UnitType::SplitJoin};
    node[i] = static_cast<uint32_t>(nodes.size());
    nodes.push_back(n);
    out.segment_of.push_back(seg);
  }
  out.entry.push_back(node[0]);
  out.steer.push_back(node[1]);
  for (const auto& [a, b] : g.edges)
    if (node[a] != node[b]) out.graph.edges.emplace_back(node[a], node[b]);
}

}  // namespace

SgmfMap map_kernel_sgmf(const isa::Kernel& k, const UnitCounts& grid,
                        const StaticOptions& options) {
  for (uint32_t pc = 0; pc < k.code.size(); ++pc)
    if (k.code[pc].is_barrier())
      throw std::invalid_argument(
          k.name +
          ": SGMF maps the kernel as one graph, which a barrier cannot cut: " + k.where(pc));
  UnitCounts unlimited;
  unlimited.fill(1u << 30);
  SgmfMap m;
  m.blocks = map_kernel(k, unlimited, options);  // whole blocks: nothing is cut to fit
  for (uint32_t s = 0; s < m.blocks.segments.size(); ++s) append_block(m.blocks.graphs[s], s, m);
  m.blocks.live = {};
  m.blocks.replicas.assign(m.blocks.segments.size(), 1);
  std::sort(m.graph.edges.begin(), m.graph.edges.end());
  m.graph.edges.erase(std::unique(m.graph.edges.begin(), m.graph.edges.end()), m.graph.edges.end());
  for (const GraphNode& n : m.graph.nodes) ++m.graph.need[static_cast<size_t>(n.unit)];
  m.replicas = replicas(m.graph.need, grid);
  if (m.replicas == 0)
    throw std::invalid_argument(k.name + ": its whole graph (" +
                                std::to_string(m.blocks.segments.size()) + " blocks) needs " +
                                needs_text(m.graph.need, grid) +
                                "; SGMF maps only kernels that fit the grid");
  return m;
}

}  // namespace gputlm::vgiw
