// A segment's (a basic block's, or part of one: segments.h) dataflow graph as VGIW fabric nodes
// (Voitsechov & Etsion, Sec. 3.5): each node needs one unit of one of the six types. The control
// vector initiator starts a thread and feeds its coordinates; kernel parameters are constants in
// the configuration of the nodes that use them (static_operands.h); live-value loads bring the
// registers that enter the block from the live value cache and live-value stores keep those that
// leave it; instructions map to compute units (pipelined FPU-ALU), special compute units
// (division, square root, transcendentals) or load/store units; joins keep a thread's memory
// operations in program order (a store after the loads before it); the terminator resolves the
// block's branch and, once every sink of the thread has fired, hands the thread to its next
// block. Splits (fan-out beyond the interconnect) are added at placement. Warp-collective
// instructions have no VGIW mapping (there are no warps).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/isa/kernel.h"
#include "models/vgiw/mapper/live_values.h"
#include "models/vgiw/mapper/segments.h"
#include "models/vgiw/mapper/static_operands.h"

namespace gputlm::vgiw {

enum class UnitType : uint8_t { Compute, Special, LoadStore, LiveValue, SplitJoin, ControlVector };
constexpr size_t kUnitTypes = 6;
using UnitCounts = std::array<uint32_t, kUnitTypes>;
// Table 1's grid: 32 FPU-ALU, 12 special compute, 16 load/store, 16 live value, 16 split/join,
// 16 control vector units (108).
constexpr UnitCounts kTable1Units = {32, 12, 16, 16, 16, 16};
const char* unit_type_name(UnitType t);

struct GraphNode {
  enum class Role : uint8_t { Initiator, Terminator, Instruction, LiveLoad, LiveStore, Join };
  Role role = Role::Instruction;
  UnitType unit = UnitType::Compute;
  int32_t pc = -1;       // Instruction: the kernel pc
  int32_t reg = -1;      // LiveLoad/LiveStore: the register slot
  uint32_t live_id = 0;  // LiveLoad/LiveStore: its live-value ID (set by assign_live_ids)
};

struct BlockGraph {
  std::vector<GraphNode> nodes;                      // node 0 the initiator, node 1 the terminator
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // token from -> to
  UnitCounts need{};                                 // units of each type one replica takes
};

// Instructions whose values are static (`statics`) take no node: their users read a constant
// from their configuration or take the thread's coordinates from the initiator. Throws
// std::invalid_argument naming the instruction for what VGIW cannot map (warp collectives).
BlockGraph build_segment_graph(const isa::Kernel& kernel, const Segment& segment,
                               const StaticOperands& statics = {});
// Fills the live-value IDs of the graph's live-value loads and stores.
void assign_live_ids(BlockGraph& graph, const LiveValues& live);

// Replicas of a block that fit a grid of `grid` units per type (Sec. 2: small blocks are
// replicated to fill the grid); 0 when even one does not fit (the block must be split).
uint32_t replicas(const UnitCounts& need, const UnitCounts& grid = kTable1Units);
// The unit type that bounds those replicas (the first that runs out); -1 when the block needs no
// units.
int scarcest_unit(const UnitCounts& need, const UnitCounts& grid = kTable1Units);

}  // namespace gputlm::vgiw
