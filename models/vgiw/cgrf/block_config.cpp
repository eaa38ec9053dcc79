#include "models/vgiw/cgrf/block_config.h"

#include <algorithm>

#include "models/vgiw/tile.h"

namespace gputlm::vgiw {

namespace {

uint32_t instruction_latency(const isa::Instruction& in, const VgiwSpec& spec) {
  switch (isa::instruction_class(in)) {
    case isa::InstrClass::IntDiv:
      return spec.int_div_latency;
    case isa::InstrClass::FloatDiv:
      return spec.float_div_latency;
    case isa::InstrClass::Sfu:
      return spec.sfu_latency;
    case isa::InstrClass::Control:
      return spec.join_latency;
    default:
      return spec.compute_latency;
  }
}

// A node of segment `seg` as the fabric's runtime reads it.
ConfiguredNode configure_node(const isa::Kernel& k, const GraphNode& gn, const Segment& seg,
                              const VgiwSpec& spec) {
  ConfiguredNode cn;
  cn.role = gn.role;
  cn.unit = gn.unit;
  cn.live_id = gn.live_id;
  switch (gn.role) {
    case GraphNode::Role::Initiator:
    case GraphNode::Role::Terminator:
      cn.latency = spec.control_latency;
      break;
    case GraphNode::Role::Join:
      cn.latency = spec.join_latency;
      break;
    case GraphNode::Role::LiveLoad:
    case GraphNode::Role::LiveStore:
      cn.latency = 0;
      break;
    case GraphNode::Role::Instruction: {
      cn.pc = static_cast<uint32_t>(gn.pc);
      const isa::Instruction& in = k.code[cn.pc];
      cn.latency = in.is_memory() ? 0 : instruction_latency(in, spec);
      if (in.is_memory()) cn.memory_ordinal = Tile::memory_ordinal(k, seg, cn.pc);
      break;
    }
  }
  return cn;
}

// The graph's token inputs per node, placed `c.replicas` times: units and routed successors.
void place_graph(BlockConfig& c, const BlockGraph& g, const Fabric& fabric) {
  const uint32_t n = static_cast<uint32_t>(g.nodes.size());
  for (const auto& [from, to] : g.edges) ++c.nodes[to].inputs;
  const Placement pl = place(g, c.replicas, fabric);
  c.unit.resize(size_t{c.replicas} * n);
  c.succs.resize(size_t{c.replicas} * n);
  for (uint32_t r = 0; r < c.replicas; ++r) {
    for (uint32_t i = 0; i < n; ++i) c.unit[c.index(r, i)] = pl.unit_of[r][i];
    for (size_t e = 0; e < g.edges.size(); ++e) {
      const auto& [from, to] = g.edges[e];
      c.succs[c.index(r, from)].push_back({to, pl.edge_hops[r * g.edges.size() + e]});
    }
  }
}

uint32_t memory_instructions(const isa::Kernel& k, const Segment& seg) {
  uint32_t n = 0;
  for (uint32_t p = seg.begin; p < seg.end; ++p) n += k.code[p].is_memory();
  return n;
}

}  // namespace

BlockConfig configure_block(const isa::Kernel& k, const KernelMap& map, uint32_t segment,
                            const Fabric& fabric, const VgiwSpec& spec) {
  const BlockGraph& g = map.graphs[segment];
  const Segment& seg = map.segments[segment];
  BlockConfig c;
  c.segment = segment;
  c.replicas = map.replicas[segment];
  c.destinations = seg.succs;
  for (const GraphNode& gn : g.nodes) c.nodes.push_back(configure_node(k, gn, seg, spec));
  c.memory_instructions = memory_instructions(k, seg);
  place_graph(c, g, fabric);
  return c;
}

BlockConfig configure_sgmf(const isa::Kernel& k, const SgmfMap& map, const Fabric& fabric,
                           const VgiwSpec& spec) {
  BlockConfig c;
  c.replicas = map.replicas;
  c.entry_of = map.entry;
  for (size_t i = 0; i < map.graph.nodes.size(); ++i)
    c.nodes.push_back(
        configure_node(k, map.graph.nodes[i], map.blocks.segments[map.segment_of[i]], spec));
  for (uint32_t s = 1; s < map.entry.size(); ++s)
    c.nodes[map.entry[s]].inputs = 1;  // the steering node's control token
  for (const Segment& seg : map.blocks.segments)
    c.memory_instructions = std::max(c.memory_instructions, memory_instructions(k, seg));
  place_graph(c, map.graph, fabric);
  return c;
}

}  // namespace gputlm::vgiw
