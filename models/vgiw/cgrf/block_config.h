// One configuration of the MT-CGRF (Voitsechov & Etsion, Sec. 3.2 and 3.5): a segment's dataflow
// graph, replicated and placed on the grid, as the fabric's runtime reads it: per node its role,
// unit type and fixed latency; per replica and node the physical unit and the successors with
// the hops of each route (one cycle a hop). Built once per segment and kept (the scheduler's
// configuration FIFO holds prebuilt configurations; their loading time is the reconfiguration
// cost).
#pragma once

#include <cstdint>
#include <vector>

#include "models/vgiw/mapper/fabric.h"
#include "models/vgiw/mapper/kernel_map.h"
#include "models/vgiw/mapper/sgmf_map.h"
#include "models/vgiw/vgiw_spec.h"

namespace gputlm::vgiw {

struct ConfiguredNode {
  GraphNode::Role role = GraphNode::Role::Instruction;
  UnitType unit = UnitType::Compute;
  uint32_t latency =
      1;            // fixed latency (memory and live-value nodes: their cache's answer instead)
  uint32_t pc = 0;  // Instruction
  uint32_t memory_ordinal = 0;  // load/store instructions: index into the thread's MemAccess list
  uint32_t live_id = 0;         // LiveLoad / LiveStore
  uint32_t inputs = 0;          // tokens a thread brings to the node
};

struct Successor {
  uint32_t node;
  uint32_t hops;
};

struct BlockConfig {
  uint32_t segment = 0;
  uint32_t replicas = 1;
  std::vector<ConfiguredNode> nodes;          // per graph node (node 0 initiator, 1 terminator)
  std::vector<uint32_t> unit;                 // [replica * nodes + node] -> grid unit
  std::vector<std::vector<Successor>> succs;  // [replica * nodes + node]
  uint32_t memory_instructions = 0;
  std::vector<uint32_t> destinations;  // the segment's successor segments (at most two)
  // SGMF (the whole kernel in one configuration, sgmf_map.h): per segment, the node a thread's
  // control token enters it at. Empty for a VGIW block.
  std::vector<uint32_t> entry_of;

  uint32_t index(uint32_t replica, uint32_t node) const {
    return replica * static_cast<uint32_t>(nodes.size()) + node;
  }
};

// Throws std::invalid_argument if the graph does not place (the mapper guarantees it does).
BlockConfig configure_block(const isa::Kernel& kernel, const KernelMap& map, uint32_t segment,
                            const Fabric& fabric, const VgiwSpec& spec);
// SGMF: the kernel's one configuration (segment 0, no destinations: threads leave at the end).
BlockConfig configure_sgmf(const isa::Kernel& kernel, const SgmfMap& map, const Fabric& fabric,
                           const VgiwSpec& spec);

}  // namespace gputlm::vgiw
