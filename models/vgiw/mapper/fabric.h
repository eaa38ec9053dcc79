// The MT-CGRF grid as a graph for placement and routing (Voitsechov & Etsion, Sec. 3.5 and
// Table 1): 108 units, each linked to its four nearest units and the four switches at its
// corners; each switch linked to the four switches at Manhattan distance two (the folded
// hypercube); one cycle a hop. Load/store and live-value units sit on the perimeter (as the paper
// says); where the paper gives no layout (the grid's shape, where the other types sit) we choose:
// a 12 x 9 grid, the 38 perimeter places taking the 32 memory-side units and 6 control vector
// units, the 70 inner places the rest, each type spread evenly along the rows.
#pragma once

#include <cstdint>
#include <vector>

#include "models/vgiw/mapper/block_graph.h"

namespace gputlm::vgiw {

class Fabric {
 public:
  // A grid of `width` x `height` units with `counts` units of each type (their sum must fill it);
  // the perimeter takes the load/store and live-value units first.
  Fabric(uint32_t width, uint32_t height, const UnitCounts& counts);
  static Fabric table1();

  uint32_t width() const { return m_width; }
  uint32_t height() const { return m_height; }
  uint32_t units() const { return m_width * m_height; }
  // Resources: units 0 .. units()-1 (row-major), then switches at the (width+1) x (height+1)
  // corners.
  uint32_t resources() const { return static_cast<uint32_t>(m_links.size()); }
  bool is_unit(uint32_t r) const { return r < units(); }
  UnitType type(uint32_t unit) const { return m_type[unit]; }
  const std::vector<uint32_t>& links(uint32_t r) const { return m_links[r]; }
  bool on_perimeter(uint32_t unit) const;
  // Hops on the shortest path between two units.
  uint32_t hops(uint32_t from_unit, uint32_t to_unit) const { return m_hops[from_unit][to_unit]; }
  // A shortest path between two units (both ends included).
  std::vector<uint32_t> route(uint32_t from_unit, uint32_t to_unit) const;

 private:
  uint32_t switch_at(uint32_t i, uint32_t j) const { return units() + j * (m_width + 1) + i; }
  std::vector<uint32_t> bfs(uint32_t from, std::vector<uint32_t>* parent) const;

  uint32_t m_width, m_height;
  std::vector<UnitType> m_type;
  std::vector<std::vector<uint32_t>> m_links;
  std::vector<std::vector<uint32_t>> m_hops;  // unit x unit
};

struct Placement {
  std::vector<std::vector<uint32_t>> unit_of;  // replica -> node -> unit
  std::vector<uint32_t> edge_hops;             // per replica-major edge: hops on its route
};

// Places `replicas` copies of the graph, node by node in dataflow order, each on the free unit of
// its type nearest (in hops) to its placed predecessors, and routes every edge on a shortest
// path. Throws std::invalid_argument if a type runs out of units.
Placement place(const BlockGraph& graph, uint32_t replicas, const Fabric& fabric);

}  // namespace gputlm::vgiw
