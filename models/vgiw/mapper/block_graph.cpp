#include "models/vgiw/mapper/block_graph.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace gputlm::vgiw {

const char* unit_type_name(UnitType t) {
  static const char* const kNames[] = {"compute", "special", "load_store", "live_value", "split_join", "control_vector"};
  return kNames[static_cast<size_t>(t)];
}

namespace {

UnitType unit_of(const isa::Kernel& k, uint32_t pc) {
  const isa::Instruction& in = k.code[pc];
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
    case isa::InstrClass::Warp:
    case isa::InstrClass::Barrier:
    case isa::InstrClass::PrefixSum:
      throw std::invalid_argument(k.name + ": VGIW has no mapping for '" + k.text[pc] + "' (pc " + std::to_string(pc) +
                                  "): a warp collective or barrier");
    default:
      return UnitType::Compute;
  }
}

}  // namespace

BlockGraph build_block_graph(const isa::Kernel& k, uint32_t cfg_block, const LiveValues& live) {
  const isa::BasicBlock& b = k.cfg.blocks.at(cfg_block);
  BlockGraph g;
  g.cfg_block = cfg_block;
  auto add = [&](GraphNode n) {
    g.nodes.push_back(n);
    ++g.need[static_cast<size_t>(n.unit)];
    return static_cast<uint32_t>(g.nodes.size() - 1);
  };
  const uint32_t initiator = add({GraphNode::Role::Initiator, UnitType::ControlVector});
  const uint32_t terminator = add({GraphNode::Role::Terminator, UnitType::ControlVector});
  std::map<int32_t, uint32_t> def;  // register -> node holding its latest value in the block
  for (int32_t r : b.dfg.inputs)
    def[r] = add({GraphNode::Role::LiveLoad, UnitType::LiveValue, -1, r, live.id_of.at(r)});
  for (const auto& [r, n] : def) g.edges.emplace_back(initiator, n);  // the thread ID indexes the cache

  std::map<uint32_t, uint32_t> node_of;  // pc -> node
  std::vector<int32_t> uses, defs;
  const uint32_t last = b.end - 1;
  const isa::Instruction& tail = k.code[last];
  const bool ends_in_control = tail.is_branch() || tail.is_exit();
  for (uint32_t pc = b.begin; pc < b.end; ++pc) {
    const isa::Instruction& in = k.code[pc];
    isa::instruction_registers(in, uses, defs);
    if (pc == last && ends_in_control) {  // the terminator resolves the branch: it reads the guard
      if (in.guard >= 0 && def.count(in.guard)) g.edges.emplace_back(def[in.guard], terminator);
      continue;
    }
    const uint32_t n = add({GraphNode::Role::Instruction, unit_of(k, pc), static_cast<int32_t>(pc)});
    node_of[pc] = n;
    bool fed = false;
    for (int32_t r : uses)
      if (auto it = def.find(r); it != def.end() && it->second != n) {
        g.edges.emplace_back(it->second, n);
        fed = true;
      }
    if (!fed) g.edges.emplace_back(initiator, n);  // constants and %tid: one token a thread
    for (int32_t r : defs) def[r] = n;
  }
  // Joins: a memory operation waits for the earlier ones of its thread it must follow.
  std::map<uint32_t, std::vector<uint32_t>> before;
  for (const auto& [earlier, later] : b.dfg.mem_order) before[later].push_back(earlier);
  for (const auto& [later, earlier] : before) {
    const uint32_t j = add({GraphNode::Role::Join, UnitType::SplitJoin});
    for (uint32_t e : earlier) g.edges.emplace_back(node_of.at(e), j);
    g.edges.emplace_back(j, node_of.at(later));
  }
  for (int32_t r : b.dfg.outputs) {
    const uint32_t s = add({GraphNode::Role::LiveStore, UnitType::LiveValue, -1, r, live.id_of.at(r)});
    g.edges.emplace_back(def.count(r) ? def[r] : initiator, s);
  }
  // The terminator hands the thread on once every sink has fired.
  std::vector<bool> has_out(g.nodes.size(), false);
  for (const auto& [from, to] : g.edges) has_out[from] = true;
  for (uint32_t n = 2; n < g.nodes.size(); ++n)
    if (!has_out[n]) g.edges.emplace_back(n, terminator);
  if (g.nodes.size() == 2) g.edges.emplace_back(initiator, terminator);  // an empty block still passes its threads on
  std::sort(g.edges.begin(), g.edges.end());
  g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());
  return g;
}

uint32_t replicas(const UnitCounts& need, const UnitCounts& grid) {
  uint32_t r = ~0u;
  for (size_t t = 0; t < kUnitTypes; ++t)
    if (need[t]) r = std::min(r, grid[t] / need[t]);
  return r == ~0u ? 0 : r;
}

}  // namespace gputlm::vgiw
