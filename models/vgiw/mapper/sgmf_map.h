// The SGMF mapping of a kernel (Voitsechov & Etsion, ISCA 2014, as the VGIW paper, MICRO 2015,
// compares against it: Sec. 1 and 5): the whole kernel's control and dataflow graph mapped
// statically onto the MT-CGRF at once. Every basic block's graph is on the grid at the same time
// and every thread flows through the one graph: control is dataflow steering (a branch sends the
// thread's control token to one successor block), and values crossing blocks travel as tokens
// inside the fabric, with no live value cache, no control vector table and no reconfiguration
// between blocks. SGMF "can only execute small to medium kernels with simple control flows"
// (Sec. 5): a kernel whose graph needs more units of a type than the grid has is refused, naming
// what it needs.
//
// How the one graph is built from the per-block graphs (block_graph.h), chosen where the papers
// give no detail:
//  - a block's live-value loads are dropped: the values reach its nodes from the block's entry
//    node, which fires when the thread's control token arrives (a value made in an earlier block
//    has then long been sent, since that block's steering node waited for it);
//  - a block's live-value stores are dropped: the value's producer feeds the block's steering node,
//    which therefore waits for it before passing the thread on;
//  - the entry of the kernel's first block is the thread initiator (a control vector unit, which
//    streams thread IDs and coordinates as in VGIW); every other block's entry is a control merge
//    on a split/join unit; every block ends in a steering node on a control vector unit (VGIW's
//    terminator, which "executes the basic block's terminating branch instruction", Sec. 3.5). A
//    thread leaves the fabric at the steering node of the block it exits from;
//  - barriers are refused: a barrier would hold every thread of a CTA in the fabric, more than a
//    replica's virtual channels (the VGIW paper cuts blocks at barriers; SGMF's graph cannot be
//    cut).
#pragma once

#include <cstdint>
#include <vector>

#include "models/vgiw/mapper/kernel_map.h"

namespace gputlm::vgiw {

struct SgmfMap {
  KernelMap
      blocks;  // the per-block segments the functional run steps through (no cuts, no live values)
  BlockGraph graph;                  // every block's graph at once
  std::vector<uint32_t> entry;       // per segment: its entry node in `graph`
  std::vector<uint32_t> steer;       // per segment: its steering node in `graph`
  std::vector<uint32_t> segment_of;  // per node of `graph`: the segment it belongs to
  uint32_t replicas = 1;
};

// Throws std::invalid_argument for a kernel SGMF cannot map: what VGIW cannot map, a barrier, or
// a graph that needs more units than `grid` has (the message names the units it needs).
SgmfMap map_kernel_sgmf(const isa::Kernel& kernel, const UnitCounts& grid = kTable1Units,
                        const StaticOptions& options = {});

}  // namespace gputlm::vgiw
