#include "models/vgiw/mapper/block_order.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <stdexcept>
#include <string>

namespace gputlm::vgiw {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

// Immediate dominators of the CFG from block 0 (Boost.Graph's Lengauer-Tarjan).
std::vector<int64_t> dominators(const isa::Cfg& cfg) {
  const size_t n = cfg.blocks.size();
  Graph g(n);
  for (const isa::BasicBlock& b : cfg.blocks)
    for (uint32_t s : b.succs) boost::add_edge(b.id, s, g);
  std::vector<Vertex> idom(n, boost::graph_traits<Graph>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(
      g, 0, boost::make_iterator_property_map(idom.begin(), boost::get(boost::vertex_index, g)));
  std::vector<int64_t> out(n, -1);
  for (size_t i = 0; i < n; ++i)
    if (idom[i] != boost::graph_traits<Graph>::null_vertex())
      out[i] = static_cast<int64_t>(idom[i]);
  return out;
}

bool dominates(const std::vector<int64_t>& idom, uint32_t a, uint32_t b) {
  for (int64_t x = b; x >= 0; x = idom[static_cast<size_t>(x)]) {
    if (static_cast<uint32_t>(x) == a) return true;
    if (x == 0) break;
  }
  return false;
}

}  // namespace

BlockSchedule schedule_blocks(const isa::Cfg& cfg) {
  const size_t n = cfg.blocks.size();
  if (n == 0) throw std::invalid_argument("a kernel without basic blocks");
  for (const isa::BasicBlock& b : cfg.blocks)
    if (b.succs.size() > 2)
      throw std::invalid_argument("basic block " + std::to_string(b.id) +
                                  " has more than two successors");
  const std::vector<int64_t> idom = dominators(cfg);

  // Natural loops: for each back edge t -> h (h dominates t), h and every block reaching t
  // without passing h. loops[b] lists the headers of the loops containing b.
  std::vector<std::vector<uint32_t>> loops(n);
  for (const isa::BasicBlock& b : cfg.blocks) {
    for (uint32_t h : b.succs) {
      if (!dominates(idom, h, b.id)) continue;
      std::vector<bool> in(n, false);
      in[h] = true;
      std::vector<uint32_t> work{b.id};
      while (!work.empty()) {
        const uint32_t x = work.back();
        work.pop_back();
        if (in[x]) continue;
        in[x] = true;
        for (uint32_t p : cfg.blocks[x].preds) work.push_back(p);
      }
      for (size_t x = 0; x < n; ++x)
        if (in[x] && std::find(loops[x].begin(), loops[x].end(), h) == loops[x].end())
          loops[x].push_back(h);
    }
  }
  auto leaves = [&](uint32_t from, uint32_t to) {  // loops of `from` that `to` is outside of
    size_t k = 0;
    for (uint32_t h : loops[from])
      if (std::find(loops[to].begin(), loops[to].end(), h) == loops[to].end()) ++k;
    return k;
  };
  // A retreating edge to a block that does not dominate its source enters a cycle twice.
  // Depth-first search; at each block the successors that leave the most loops are explored
  // first, so they finish first and come last in reverse postorder: a loop's blocks stay together.
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<uint32_t> post;
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  std::vector<std::vector<uint32_t>> order(n);
  for (const isa::BasicBlock& b : cfg.blocks) {
    order[b.id] = b.succs;
    std::stable_sort(order[b.id].begin(), order[b.id].end(), [&](uint32_t x, uint32_t y) {
      const size_t lx = leaves(b.id, x), ly = leaves(b.id, y);
      return lx != ly ? lx > ly : x > y;  // then the later block first: pc order where it is free
    });
  }
  state[0] = 1;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < order[b].size()) {
      const uint32_t s = order[b][next++];
      if (state[s] == 1 && !dominates(idom, s, b))
        throw std::invalid_argument("an irreducible loop: block " + std::to_string(b) +
                                    " jumps back to block " + std::to_string(s) +
                                    ", which does not dominate it");
      if (state[s] == 0) {
        state[s] = 1;
        stack.emplace_back(s, 0);
      }
      continue;
    }
    state[b] = 2;
    post.push_back(b);
    stack.pop_back();
  }
  std::reverse(post.begin(), post.end());  // reverse postorder; unreachable blocks are left out

  BlockSchedule s;
  const bool synthetic = !cfg.blocks[0].preds.empty();  // the first block is a loop header
  s.id_of.assign(n, ~0u);
  if (synthetic) s.blocks.push_back(ScheduledBlock{});
  for (uint32_t b : post) {
    s.id_of[b] = static_cast<uint32_t>(s.blocks.size());
    ScheduledBlock sb;
    sb.cfg_block = static_cast<int32_t>(b);
    sb.exits = cfg.blocks[b].exits;
    sb.loop_depth = static_cast<uint32_t>(loops[b].size());
    s.blocks.push_back(sb);
  }
  if (synthetic) s.blocks[0].succs = {s.id_of[0]};
  for (uint32_t b : post)
    for (uint32_t succ : cfg.blocks[b].succs) s.blocks[s.id_of[b]].succs.push_back(s.id_of[succ]);
  return s;
}

}  // namespace gputlm::vgiw
