// Control flow and dataflow analysis of a kernel: basic blocks, the control flow graph, immediate
// post-dominators (the reconvergence points of stack-based SIMT divergence, computed with
// Boost.Graph's Lengauer-Tarjan on the reversed CFG), register liveness, and per basic block its
// dataflow graph with live-in and live-out registers (what VGIW maps onto its fabric).
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::isa {

struct Kernel;

// Marks "no such block/pc": a branch whose paths only meet at kernel exit.
constexpr uint32_t kExitPc = 0xFFFFFFFFu;

// Register dataflow inside one basic block. Instruction indices are kernel pcs.
struct DataflowGraph {
  struct Edge {
    uint32_t from;  // defining instruction
    uint32_t to;    // using instruction
    int32_t reg;    // register carried
  };
  std::vector<Edge> edges;
  // Pairs (earlier, later) of memory instructions of the block that must stay ordered because
  // at least one of them writes memory.
  std::vector<std::pair<uint32_t, uint32_t>> mem_order;
  std::vector<int32_t> inputs;  // registers read in the block before any write in it (live-in used)
  std::vector<int32_t> outputs;  // registers written in the block and live at its exit
};

struct BasicBlock {
  uint32_t id = 0;
  uint32_t begin = 0;           // first pc
  uint32_t end = 0;             // one past the last pc
  std::vector<uint32_t> succs;  // block ids (exit is not a block)
  std::vector<uint32_t> preds;
  bool exits = false;             // control may leave the kernel from this block
  uint32_t ipdom = kExitPc;       // immediate post-dominator block id, kExitPc = the kernel exit
  std::vector<int32_t> live_in;   // sorted register slots
  std::vector<int32_t> live_out;  // sorted register slots
  DataflowGraph dfg;
};

struct Cfg {
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> block_of;   // pc -> block id
  std::vector<uint32_t> reconv_pc;  // pc -> reconvergence pc of a branch at pc (kExitPc if none)
};

// Fills kernel.cfg. Requires kernel.code with resolved labels.
void analyze_kernel(Kernel& kernel);

}  // namespace gputlm::isa
