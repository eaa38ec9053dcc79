#include "runtime/graph.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace gputlm::runtime {

KernelCall& KernelCall::operator=(const KernelCall& o) {
  func = o.func;
  kernel = o.kernel;
  grid = o.grid;
  block = o.block;
  shared = o.shared;
  extras = o.extras;
  params = o.params;
  args.clear();
  for (void* a : o.args)
    args.push_back(params.data() + (static_cast<uint8_t*>(a) - o.params.data()));
  return *this;
}

std::unique_ptr<GraphNode> clone_node(const GraphNode& node) {
  auto copy = std::make_unique<GraphNode>();
  copy->id = node.id;
  copy->type = node.type;
  copy_params(node, *copy);
  return copy;
}

void copy_params(const GraphNode& from, GraphNode& to) {
  to.kernel = from.kernel;
  to.copy = from.copy;
  to.memset = from.memset;
  to.host = from.host;
  to.child = from.child ? from.child->clone() : nullptr;
  to.event = from.event;
  to.alloc = from.alloc;
  to.free_address = from.free_address;
  to.condition = from.condition;
  to.condition_type = from.condition_type;
  to.bodies.clear();
  to.body_handles.clear();
  for (const auto& b : from.bodies) {
    to.bodies.push_back(b->clone());
    to.body_handles.push_back(to.bodies.back().get());
  }
}

bool Graph::owns(const GraphNode* node) const { return node && node->owner == this; }

CudaError Graph::add(std::unique_ptr<GraphNode> node, const std::vector<GraphNode*>& deps,
                     GraphNode** out) {
  for (GraphNode* d : deps)
    if (!owns(d)) return kErrorInvalidValue;
  node->owner = this;
  node->id = m_next_id++;
  for (GraphNode* d : deps)
    if (std::find(node->deps.begin(), node->deps.end(), d) == node->deps.end())
      node->deps.push_back(d);
  m_nodes.push_back(std::move(node));
  if (out) *out = m_nodes.back().get();
  return kSuccess;
}

void Graph::remove(GraphNode* node) {
  for (auto& n : m_nodes)
    n->deps.erase(std::remove(n->deps.begin(), n->deps.end(), node), n->deps.end());
  m_nodes.erase(std::remove_if(m_nodes.begin(), m_nodes.end(),
                               [&](const auto& n) { return n.get() == node; }),
                m_nodes.end());
}

CudaError Graph::add_edge(GraphNode* from, GraphNode* to) {
  if (!owns(from) || !owns(to) || from == to) return kErrorInvalidValue;
  if (std::find(to->deps.begin(), to->deps.end(), from) != to->deps.end())
    return kErrorInvalidValue;  // CUDA: duplicate edge
  to->deps.push_back(from);
  return kSuccess;
}

CudaError Graph::remove_edge(GraphNode* from, GraphNode* to) {
  if (!owns(from) || !owns(to)) return kErrorInvalidValue;
  auto it = std::find(to->deps.begin(), to->deps.end(), from);
  if (it == to->deps.end()) return kErrorInvalidValue;
  to->deps.erase(it);
  return kSuccess;
}

GraphNode* Graph::find(uint64_t id) const {
  for (const auto& n : m_nodes)
    if (n->id == id) return n.get();
  return nullptr;
}

std::vector<GraphNode*> Graph::roots() const {
  std::vector<GraphNode*> out;
  for (const auto& n : m_nodes)
    if (n->deps.empty()) out.push_back(n.get());
  return out;
}

std::vector<GraphNode*> Graph::dependents(const GraphNode* node) const {
  std::vector<GraphNode*> out;
  for (const auto& n : m_nodes)
    if (std::find(n->deps.begin(), n->deps.end(), node) != n->deps.end()) out.push_back(n.get());
  return out;
}

bool Graph::topological_order(std::vector<GraphNode*>& order) const {
  order.clear();
  std::map<const GraphNode*, size_t> index;
  for (size_t i = 0; i < m_nodes.size(); ++i) index[m_nodes[i].get()] = i;
  std::vector<size_t> waiting(m_nodes.size());
  std::vector<std::vector<size_t>> dependents(m_nodes.size());
  std::set<size_t> ready;
  for (size_t i = 0; i < m_nodes.size(); ++i) {
    waiting[i] = m_nodes[i]->deps.size();
    for (const GraphNode* d : m_nodes[i]->deps) dependents[index.at(d)].push_back(i);
    if (!waiting[i]) ready.insert(i);
  }
  // Repeatedly take the first node (in the order added) whose dependencies have all run.
  while (!ready.empty()) {
    const size_t next = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(m_nodes[next].get());
    for (size_t d : dependents[next])
      if (--waiting[d] == 0) ready.insert(d);
  }
  return order.size() == m_nodes.size();  // else a cycle
}

std::unique_ptr<Graph> Graph::clone() const {
  auto copy = std::make_unique<Graph>();
  std::map<const GraphNode*, GraphNode*> mapped;
  for (const auto& n : m_nodes) {
    copy->m_nodes.push_back(clone_node(*n));
    copy->m_nodes.back()->owner = copy.get();
    mapped[n.get()] = copy->m_nodes.back().get();
  }
  for (const auto& n : m_nodes)
    for (GraphNode* d : n->deps) mapped[n.get()]->deps.push_back(mapped[d]);
  copy->m_next_id = m_next_id;
  copy->m_handles = m_handles;
  return copy;
}

namespace {
size_t position(const Graph& g, const GraphNode* node) {
  for (size_t i = 0; i < g.nodes().size(); ++i)
    if (g.nodes()[i].get() == node) return i;
  return SIZE_MAX;
}
}  // namespace

bool Graph::same_topology(const Graph& other, GraphExecUpdateResult& why,
                          const GraphNode*& where) const {
  where = nullptr;
  why = kUpdateTopologyChanged;
  if (m_nodes.size() != other.m_nodes.size()) return false;
  for (size_t i = 0; i < m_nodes.size(); ++i) {
    const GraphNode &a = *m_nodes[i], &b = *other.m_nodes[i];
    where = &a;
    if (a.type != b.type) return (why = kUpdateNodeTypeChanged), false;
    if (a.deps.size() != b.deps.size()) return false;
    for (size_t d = 0; d < a.deps.size(); ++d)
      if (position(*this, a.deps[d]) != position(other, b.deps[d])) return false;
    if (a.type == NodeType::kGraph && !a.child->same_topology(*b.child, why, where)) return false;
    if (a.type == NodeType::kConditional) {
      if (a.condition_type != b.condition_type || a.bodies.size() != b.bodies.size())
        return (why = kUpdateParametersChanged), false;
      for (size_t k = 0; k < a.bodies.size(); ++k)
        if (!a.bodies[k]->same_topology(*b.bodies[k], why, where)) return false;
    }
    // Allocations cannot move (CUDA: memory nodes' parameters may not change in an update).
    if ((a.type == NodeType::kMemAlloc && a.alloc->bytes != b.alloc->bytes) ||
        (a.type == NodeType::kMemFree && a.free_address != b.free_address))
      return (why = kUpdateParametersChanged), false;
  }
  where = nullptr;
  why = kUpdateSuccess;
  return true;
}

}  // namespace gputlm::runtime
