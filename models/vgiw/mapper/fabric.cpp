#include "models/vgiw/mapper/fabric.h"

#include <algorithm>
#include <deque>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gputlm::vgiw {
namespace {

// Spreads `counts` over `places` positions so each type is evenly distributed (largest
// remainder along the sequence).
std::vector<UnitType> spread(const std::vector<std::pair<UnitType, uint32_t>>& counts,
                             size_t places) {
  std::vector<UnitType> out;
  std::vector<double> credit(counts.size(), 0.0);
  std::vector<uint32_t> left;
  for (const auto& c : counts) left.push_back(c.second);
  for (size_t p = 0; p < places; ++p) {
    size_t best = counts.size();
    for (size_t i = 0; i < counts.size(); ++i) {
      if (!left[i]) continue;
      credit[i] += static_cast<double>(counts[i].second) / static_cast<double>(places);
      if (best == counts.size() || credit[i] > credit[best]) best = i;
    }
    if (best == counts.size()) break;
    credit[best] -= 1.0;
    --left[best];
    out.push_back(counts[best].first);
  }
  return out;
}

}  // namespace

Fabric::Fabric(uint32_t width, uint32_t height, const UnitCounts& counts)
    : m_width(width), m_height(height) {
  if (std::accumulate(counts.begin(), counts.end(), 0u) != width * height)
    throw std::invalid_argument("fabric: the unit counts do not fill a " + std::to_string(width) +
                                " x " + std::to_string(height) + " grid");
  m_type.assign(units(), UnitType::Compute);
  std::vector<uint32_t> ring, inner;
  for (uint32_t x = 0; x < width; ++x) ring.push_back(x);  // top, left to right
  for (uint32_t y = 1; y < height; ++y) ring.push_back(y * width + width - 1);  // right, downwards
  for (uint32_t x = width - 1; x-- > 0;)
    ring.push_back((height - 1) * width + x);                         // bottom, right to left
  for (uint32_t y = height - 1; y-- > 1;) ring.push_back(y * width);  // left, upwards
  for (uint32_t y = 1; y + 1 < height; ++y)
    for (uint32_t x = 1; x + 1 < width; ++x) inner.push_back(y * width + x);
  auto n = [&](UnitType t) { return counts[static_cast<size_t>(t)]; };
  const uint32_t memory = n(UnitType::LoadStore) + n(UnitType::LiveValue);
  if (memory > ring.size())
    throw std::invalid_argument(
        "fabric: more load/store and live-value units than perimeter places");
  // The perimeter: the memory-side units, topped up with control vector units, then whatever is
  // left.
  std::vector<std::pair<UnitType, uint32_t>> outer{{UnitType::LoadStore, n(UnitType::LoadStore)},
                                                   {UnitType::LiveValue, n(UnitType::LiveValue)}};
  uint32_t free = static_cast<uint32_t>(ring.size()) - memory;
  UnitCounts rest = counts;
  rest[static_cast<size_t>(UnitType::LoadStore)] = rest[static_cast<size_t>(UnitType::LiveValue)] =
      0;
  for (UnitType t :
       {UnitType::ControlVector, UnitType::SplitJoin, UnitType::Special, UnitType::Compute}) {
    const uint32_t k = std::min(free, rest[static_cast<size_t>(t)]);
    if (k) outer.emplace_back(t, k);
    rest[static_cast<size_t>(t)] -= k;
    free -= k;
  }
  const std::vector<UnitType> o = spread(outer, ring.size());
  for (size_t i = 0; i < ring.size(); ++i) m_type[ring[i]] = o[i];
  std::vector<std::pair<UnitType, uint32_t>> in;
  for (UnitType t :
       {UnitType::Compute, UnitType::Special, UnitType::SplitJoin, UnitType::ControlVector})
    if (rest[static_cast<size_t>(t)]) in.emplace_back(t, rest[static_cast<size_t>(t)]);
  const std::vector<UnitType> i2 = spread(in, inner.size());
  for (size_t i = 0; i < inner.size(); ++i) m_type[inner[i]] = i2[i];

  m_links.assign(units() + (width + 1) * (height + 1), {});
  auto link = [&](uint32_t a, uint32_t b) {
    m_links[a].push_back(b);
    m_links[b].push_back(a);
  };
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const uint32_t u = y * width + x;
      if (x + 1 < width) link(u, u + 1);
      if (y + 1 < height) link(u, u + width);
      for (uint32_t dy = 0; dy < 2; ++dy)
        for (uint32_t dx = 0; dx < 2; ++dx) link(u, switch_at(x + dx, y + dy));
    }
  for (uint32_t j = 0; j <= height; ++j)
    for (uint32_t i = 0; i <= width; ++i) {
      if (i + 2 <= width) link(switch_at(i, j), switch_at(i + 2, j));
      if (j + 2 <= height) link(switch_at(i, j), switch_at(i, j + 2));
    }
  m_hops.assign(units(), {});
  for (uint32_t u = 0; u < units(); ++u) {
    const std::vector<uint32_t> d = bfs(u, nullptr);
    m_hops[u].assign(d.begin(), d.begin() + units());
  }
}

Fabric Fabric::table1() { return Fabric(12, 9, kTable1Units); }

bool Fabric::on_perimeter(uint32_t unit) const {
  const uint32_t x = unit % m_width, y = unit / m_width;
  return x == 0 || y == 0 || x + 1 == m_width || y + 1 == m_height;
}

std::vector<uint32_t> Fabric::bfs(uint32_t from, std::vector<uint32_t>* parent) const {
  std::vector<uint32_t> dist(resources(), ~0u);
  if (parent) parent->assign(resources(), ~0u);
  std::deque<uint32_t> q{from};
  dist[from] = 0;
  while (!q.empty()) {
    const uint32_t r = q.front();
    q.pop_front();
    for (uint32_t s : m_links[r]) {
      if (dist[s] != ~0u) continue;
      dist[s] = dist[r] + 1;
      if (parent) (*parent)[s] = r;
      q.push_back(s);
    }
  }
  return dist;
}

std::vector<uint32_t> Fabric::route(uint32_t from_unit, uint32_t to_unit) const {
  std::vector<uint32_t> parent;
  bfs(from_unit, &parent);
  std::vector<uint32_t> path{to_unit};
  while (path.back() != from_unit) path.push_back(parent[path.back()]);
  std::reverse(path.begin(), path.end());
  return path;
}

Placement place(const BlockGraph& g, uint32_t replicas, const Fabric& f) {
  const size_t n = g.nodes.size();
  std::vector<std::vector<uint32_t>> preds(n);
  std::vector<uint32_t> indeg(n, 0);
  for (const auto& [a, b] : g.edges) {
    preds[b].push_back(a);
    ++indeg[b];
  }
  std::vector<uint32_t> order;  // dataflow (topological) order
  std::deque<uint32_t> ready;
  for (uint32_t v = 0; v < n; ++v)
    if (!indeg[v]) ready.push_back(v);
  std::vector<std::vector<uint32_t>> succs(n);
  for (const auto& [a, b] : g.edges) succs[a].push_back(b);
  while (!ready.empty()) {
    const uint32_t v = ready.front();
    ready.pop_front();
    order.push_back(v);
    for (uint32_t s : succs[v])
      if (--indeg[s] == 0) ready.push_back(s);
  }
  if (order.size() != n) throw std::invalid_argument("place: the block graph has a cycle");

  Placement p;
  std::vector<bool> used(f.units(), false);
  p.unit_of.assign(replicas, std::vector<uint32_t>(n, ~0u));
  for (uint32_t r = 0; r < replicas; ++r) {
    for (uint32_t v : order) {
      uint32_t best = ~0u;
      uint64_t best_cost = ~0ull;
      for (uint32_t u = 0; u < f.units(); ++u) {
        if (used[u] || f.type(u) != g.nodes[v].unit) continue;
        uint64_t cost = 0;
        for (uint32_t a : preds[v]) cost += f.hops(p.unit_of[r][a], u);
        if (cost < best_cost) best_cost = cost, best = u;
      }
      if (best == ~0u)
        throw std::invalid_argument(std::string("place: no free ") +
                                    unit_type_name(g.nodes[v].unit) + " unit for replica " +
                                    std::to_string(r));
      used[best] = true;
      p.unit_of[r][v] = best;
    }
    for (const auto& [a, b] : g.edges)
      p.edge_hops.push_back(f.hops(p.unit_of[r][a], p.unit_of[r][b]));
  }
  return p;
}

}  // namespace gputlm::vgiw
