#include "models/vgiw/mapper/block_graph.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace gputlm::vgiw {

const char* unit_type_name(UnitType t) {
  static const char* const kNames[] = {"compute",    "special",    "load_store",
                                       "live_value", "split_join", "control_vector"};
  return kNames[static_cast<size_t>(t)];
}

namespace {

constexpr uint32_t kConfiguration = ~0u;  // a value's "node" when it is a configuration constant

UnitType unit_of(const isa::Kernel& k, uint32_t pc) {
  const isa::Instruction& in = k.code[pc];
  // cp.async and mbarrier (PTX ISA 9.7.9.25, 9.7.13.15): the load/store units model loads, stores
  // and atomics of one thread; copies completing in groups and barrier phases polled by other
  // threads are neither.
  if (in.op == isa::Opcode::CpAsync || in.op == isa::Opcode::CpReduce ||
      in.op == isa::Opcode::Mbarrier)
    throw std::invalid_argument(
        k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " + std::to_string(pc) +
        "): asynchronous copies and mbarrier objects are not modelled by its load/store units");
  // Thread block clusters (barrier.cluster, mapa, getctarank; sm_90): CTAs that wait for and
  // reach into each other, which the fabric's CTA tiles do not model.
  if (in.op == isa::Opcode::Mapa || in.op == isa::Opcode::Getctarank ||
      (in.op == isa::Opcode::Barrier && in.has(isa::kCluster)))
    throw std::invalid_argument(k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " +
                                std::to_string(pc) +
                                "): thread block clusters are not modelled by its CTA tiles");
  // alloca, stacksave, stackrestore (PTX ISA 9.7.16): a stack pointer per thread, state its
  // dataflow graph does not carry between nodes.
  if (in.op == isa::Opcode::Alloca || in.op == isa::Opcode::Stacksave ||
      in.op == isa::Opcode::Stackrestore)
    throw std::invalid_argument(k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " +
                                std::to_string(pc) +
                                "): a dynamic stack (alloca) is not modelled by its fabric");
  // Warp collectives (tensor-core products and fragment loads included): the whole warp's
  // registers at once.
  if (isa::is_warp_collective(in))
    throw std::invalid_argument(k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " +
                                std::to_string(pc) + "): a warp collective, and VGIW has no warps");
  // tex, tld4, txq, suld, sust, suq, sured (PTX ISA 9.7.10, 9.7.11): the load/store units have no
  // texture path (object lookup, sampling, filtering).
  if (in.is_texture())
    throw std::invalid_argument(
        k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " + std::to_string(pc) +
        "): texture and surface instructions are not modelled by its load/store units");
  switch (isa::instruction_class(in)) {
    case isa::InstrClass::IntDiv:
    case isa::InstrClass::FloatDiv:
    case isa::InstrClass::Sfu:
      return UnitType::Special;
    case isa::InstrClass::Memory:
    case isa::InstrClass::Atomic:
      return UnitType::LoadStore;
    case isa::InstrClass::Control:
      return UnitType::SplitJoin;  // membar, fence, nanosleep, trap: ordering points of the thread
    case isa::InstrClass::Barrier:
      throw std::invalid_argument(k.name + ": a barrier inside a segment (pc " +
                                  std::to_string(pc) + "): segments end at barriers");
    default:
      return UnitType::Compute;
  }
}

}  // namespace

BlockGraph build_segment_graph(const isa::Kernel& k, const Segment& seg,
                               const StaticOperands& statics) {
  BlockGraph g;
  auto add = [&](GraphNode n) {
    g.nodes.push_back(n);
    ++g.need[static_cast<size_t>(n.unit)];
    return static_cast<uint32_t>(g.nodes.size() - 1);
  };
  const uint32_t initiator = add({GraphNode::Role::Initiator, UnitType::ControlVector});
  const uint32_t terminator = add({GraphNode::Role::Terminator, UnitType::ControlVector});
  if (seg.begin == seg.end) {  // an empty segment still passes its threads on
    g.edges.emplace_back(initiator, terminator);
    return g;
  }
  // A static value's source (static_operands.h): a constant in the using node's configuration
  // (no token), or the initiator's token (a thread coordinate).
  auto static_node = [&](ValueSource s) {
    return s == ValueSource::Coordinate ? initiator : kConfiguration;
  };
  std::map<int32_t, uint32_t> def;  // register -> node holding its latest value in the segment
  auto value_of = [&](int32_t r) {  // a register entering the segment: loaded from the cache once
    if (auto it = def.find(r); it != def.end()) return it->second;
    if (const ValueSource s = statics.of_reg(r); s != ValueSource::Token) return static_node(s);
    const uint32_t n = add({GraphNode::Role::LiveLoad, UnitType::LiveValue, -1, r});
    g.edges.emplace_back(initiator, n);  // the thread ID indexes the cache
    return def[r] = n;
  };
  auto feed = [&](uint32_t from, uint32_t to) {  // false: a configuration constant, no token
    if (from != kConfiguration) g.edges.emplace_back(from, to);
    return from != kConfiguration;
  };
  std::map<uint32_t, uint32_t> node_of;  // pc -> node
  std::vector<int32_t> uses, defs;
  const uint32_t last = seg.end - 1;
  const isa::Instruction& tail = k.code[last];
  const bool branch_here = seg.ends_block && (tail.is_branch() || tail.is_exit());
  for (uint32_t pc = seg.begin; pc < seg.end; ++pc) {
    const isa::Instruction& in = k.code[pc];
    isa::instruction_registers(in, uses, defs);
    if (pc == last && branch_here) {  // the terminator resolves the branch: it reads the guard
      if (in.guard >= 0) feed(value_of(in.guard), terminator);
      continue;
    }
    if (const ValueSource s = statics.at_pc(pc);
        s != ValueSource::Token) {  // no unit: a static value
      for (int32_t r : defs) def[r] = static_node(s);
      continue;
    }
    const uint32_t n =
        add({GraphNode::Role::Instruction, unit_of(k, pc), static_cast<int32_t>(pc)});
    node_of[pc] = n;
    bool fed = false;
    for (int32_t r : uses) fed |= feed(value_of(r), n);
    if (!fed)
      g.edges.emplace_back(initiator, n);  // constants and coordinates only: the initiator fires it
    for (int32_t r : defs) def[r] = n;
  }
  // Joins: a memory operation waits for the earlier ones of its thread it must follow (pairs
  // across a segment boundary are ordered by the segments' sequence).
  std::map<uint32_t, std::vector<uint32_t>> before;
  for (const auto& [earlier, later] :
       k.cfg.blocks.at(static_cast<size_t>(seg.cfg_block)).dfg.mem_order)
    if (node_of.count(earlier) && node_of.count(later)) before[later].push_back(earlier);
  for (const auto& [later, earlier] : before) {
    const uint32_t j = add({GraphNode::Role::Join, UnitType::SplitJoin});
    for (uint32_t e : earlier) g.edges.emplace_back(node_of.at(e), j);
    g.edges.emplace_back(j, node_of.at(later));
  }
  for (int32_t r : seg.live_out) {  // values made here that later segments read
    auto it = def.find(r);
    if (it == def.end() ||
        (it->second != kConfiguration && g.nodes[it->second].role == GraphNode::Role::LiveLoad))
      continue;
    const uint32_t s = add({GraphNode::Role::LiveStore, UnitType::LiveValue, -1, r});
    if (!feed(it->second, s))
      g.edges.emplace_back(initiator, s);  // a constant: stored on the thread's token
  }
  // The terminator hands the thread on once every sink has fired.
  std::vector<bool> has_out(g.nodes.size(), false);
  for (const auto& [from, to] : g.edges) has_out[from] = true;
  for (uint32_t n = 2; n < g.nodes.size(); ++n)
    if (!has_out[n]) g.edges.emplace_back(n, terminator);
  if (!has_out[initiator]) g.edges.emplace_back(initiator, terminator);
  std::sort(g.edges.begin(), g.edges.end());
  g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());
  return g;
}

void assign_live_ids(BlockGraph& g, const LiveValues& live) {
  for (GraphNode& n : g.nodes)
    if (n.role == GraphNode::Role::LiveLoad || n.role == GraphNode::Role::LiveStore)
      n.live_id = live.id_of.at(n.reg);
}

int scarcest_unit(const UnitCounts& need, const UnitCounts& grid) {
  int scarcest = -1;
  for (size_t t = 0; t < kUnitTypes; ++t)
    if (need[t] &&
        (scarcest < 0 || grid[t] / need[t] < grid[size_t(scarcest)] / need[size_t(scarcest)]))
      scarcest = static_cast<int>(t);
  return scarcest;
}

uint32_t replicas(const UnitCounts& need, const UnitCounts& grid) {
  const int t = scarcest_unit(need, grid);
  return t < 0 ? 0 : grid[size_t(t)] / need[size_t(t)];
}

}  // namespace gputlm::vgiw
