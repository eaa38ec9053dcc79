#include "models/isa/cfg.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>

#include "models/isa/kernel.h"
#include "models/isa/reg_set.h"
#include "models/isa/register_slots.h"

namespace gputlm::isa {
namespace {

void build_blocks(const Kernel& k, Cfg& cfg) {
  const uint32_t n = static_cast<uint32_t>(k.code.size());
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const Instruction& in = k.code[pc];
    if (in.is_branch()) leader[static_cast<uint32_t>(in.ops[0].imm)] = true;
    if (in.is_indexed_branch())
      for (uint32_t target : k.branch_targets[static_cast<size_t>(in.ops[1].imm)])
        leader[target] = true;
    if (in.ends_block()) leader[pc + 1] = true;
  }
  for (const auto& [name, pc] : k.labels) leader[pc] = true;
  cfg.block_of.assign(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (leader[pc]) {
      BasicBlock b;
      b.id = static_cast<uint32_t>(cfg.blocks.size());
      b.begin = pc;
      cfg.blocks.push_back(b);
    }
    cfg.blocks.back().end = pc + 1;
    cfg.block_of[pc] = cfg.blocks.back().id;
  }
  auto add_edge = [&](BasicBlock& from, uint32_t to_pc) {
    if (to_pc >= n) {
      from.exits = true;
      return;
    }  // falls off the end: treated as exit
    uint32_t to = cfg.block_of[to_pc];
    if (std::find(from.succs.begin(), from.succs.end(), to) == from.succs.end()) {
      from.succs.push_back(to);
      cfg.blocks[to].preds.push_back(from.id);
    }
  };
  for (BasicBlock& b : cfg.blocks) {
    const Instruction& last = k.code[b.end - 1];
    const bool guarded = last.guard >= 0;
    if (last.is_branch()) {
      add_edge(b, static_cast<uint32_t>(last.ops[0].imm));
      if (guarded) add_edge(b, b.end);
    } else if (last.is_indexed_branch()) {  // an edge to every target of its list
      for (uint32_t target : k.branch_targets[static_cast<size_t>(last.ops[1].imm)])
        add_edge(b, target);
      if (guarded) add_edge(b, b.end);
    } else if (last.is_exit() || last.is_return() || last.op == Opcode::Trap) {
      b.exits = true;
      if (guarded) add_edge(b, b.end);
    } else {
      add_edge(b, b.end);
    }
  }
}

// Immediate post-dominators: dominators of the reversed CFG rooted at a virtual exit vertex.
void post_dominators(Cfg& cfg) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  const size_t n = cfg.blocks.size();
  Graph reversed(n + 1);
  const Vertex exit = n;
  for (const BasicBlock& b : cfg.blocks) {
    for (uint32_t s : b.succs) boost::add_edge(s, b.id, reversed);
    if (b.exits) boost::add_edge(exit, b.id, reversed);
  }
  std::vector<Vertex> idom(n + 1, boost::graph_traits<Graph>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(
      reversed, exit,
      boost::make_iterator_property_map(idom.begin(), boost::get(boost::vertex_index, reversed)));
  for (BasicBlock& b : cfg.blocks) {
    Vertex d = idom[b.id];
    b.ipdom = (d == boost::graph_traits<Graph>::null_vertex() || d == exit)
                  ? kExitPc
                  : static_cast<uint32_t>(d);
  }
}

void liveness(const Kernel& k, Cfg& cfg) {
  const size_t words = (k.regs.size() + 63) / 64 + 1;
  const size_t n = cfg.blocks.size();
  std::vector<RegSet> use(n, RegSet(words)), def(n, RegSet(words)), in(n, RegSet(words)),
      out(n, RegSet(words));
  std::vector<int32_t> uses, defs;
  for (const BasicBlock& b : cfg.blocks) {
    for (uint32_t pc = b.begin; pc < b.end; ++pc) {
      instruction_registers(k.code[pc], uses, defs);
      for (int32_t r : uses)
        if (!test_bit(def[b.id], r)) set_bit(use[b.id], r);
      if (k.code[pc].guard < 0)
        for (int32_t r : defs) set_bit(def[b.id], r);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      RegSet new_out(words);
      for (uint32_t s : cfg.blocks[i].succs)
        for (size_t w = 0; w < words; ++w) new_out[w] |= in[s][w];
      RegSet new_in(words);
      for (size_t w = 0; w < words; ++w) new_in[w] = use[i][w] | (new_out[w] & ~def[i][w]);
      if (new_in != in[i] || new_out != out[i]) {
        in[i] = std::move(new_in);
        out[i] = std::move(new_out);
        changed = true;
      }
    }
  }
  for (BasicBlock& b : cfg.blocks) {
    b.live_in = to_list(in[b.id]);
    b.live_out = to_list(out[b.id]);
  }
}

void dataflow(const Kernel& k, BasicBlock& b) {
  DataflowGraph& g = b.dfg;
  std::vector<int32_t> uses, defs;
  std::vector<std::pair<int32_t, uint32_t>> last_def;  // reg -> pc
  auto find_def = [&](int32_t r) -> const uint32_t* {
    for (auto it = last_def.rbegin(); it != last_def.rend(); ++it)
      if (it->first == r) return &it->second;
    return nullptr;
  };
  std::vector<uint32_t> loads_since_store;
  int64_t last_store = -1;
  for (uint32_t pc = b.begin; pc < b.end; ++pc) {
    const Instruction& in = k.code[pc];
    instruction_registers(in, uses, defs);
    for (int32_t r : uses) {
      if (const uint32_t* d = find_def(r))
        g.edges.push_back({*d, pc, r});
      else if (std::find(g.inputs.begin(), g.inputs.end(), r) == g.inputs.end())
        g.inputs.push_back(r);
    }
    for (int32_t r : defs) last_def.emplace_back(r, pc);
    const bool writes = in.is_store() || in.is_atomic() || in.is_barrier();
    if (in.is_load() || writes) {
      if (last_store >= 0) g.mem_order.emplace_back(static_cast<uint32_t>(last_store), pc);
      if (writes) {
        for (uint32_t l : loads_since_store) g.mem_order.emplace_back(l, pc);
        loads_since_store.clear();
        last_store = pc;
      } else {
        loads_since_store.push_back(pc);
      }
    }
  }
  for (int32_t r : b.live_out)
    if (find_def(r)) g.outputs.push_back(r);
  std::sort(g.inputs.begin(), g.inputs.end());
}

}  // namespace

void analyze_kernel(Kernel& k) {
  Cfg& cfg = k.cfg;
  cfg = Cfg{};
  if (k.code.empty()) return;
  build_blocks(k, cfg);
  post_dominators(cfg);
  liveness(k, cfg);
  for (BasicBlock& b : cfg.blocks) dataflow(k, b);
  cfg.reconv_pc.assign(k.code.size(), kExitPc);
  for (const BasicBlock& b : cfg.blocks)
    if (b.ipdom != kExitPc) cfg.reconv_pc[b.end - 1] = cfg.blocks[b.ipdom].begin;
  assign_register_slots(k);
}

}  // namespace gputlm::isa
