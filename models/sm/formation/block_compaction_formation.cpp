// "tbc": thread block compaction (Fung & Aamodt, HPCA 2011), the comparison point of the Narasiman
// dissertation (Sec. 5.1, digest section 4: "TBC groups multiple regular-sized warps into a block
// and synchronizes them at every branch instruction. Special hardware is used to dynamically create
// new warps (i.e., compact into fewer warps) based on the active mask of all warps in the block
// after the divergent branch"; 256-thread blocks, sticky round-robin scheduling, "srr").
// A block of `block_threads` threads shares one divergence stack of two-dimensional masks. The
// threads of its top entry are compacted lane by lane into as few warps as the fullest column
// allows (the warps of consecutive threads when every thread is there), and those warps run on
// their own, round-robin within the block:
// - a conditional branch (diverging or not: that is known only for the whole block) is executed
//   by each warp, which then waits; once every warp of the entry has, the block's taken threads
//   update the stack (divergence, or the next PC) and the new top entry is compacted;
// - a warp reaching the entry's reconvergence PC is finished; once all are, the entry is popped and
//   the next one compacted (the other path, or the reconverged threads in their original warps);
// - a jump is taken by each warp alone ("TBC treats warps individually after compaction", so it
//   has no unconditional-branch optimisation to gain from), as is a guarded exit.
#include <stdexcept>

#include "models/common/registry.h"
#include "models/func/simt_control.h"
#include "models/sm/formation/block_formation.h"

namespace gputlm::sm {
namespace {

using S = BlockWarp::State;

class BlockCompaction : public BlockFormation {
 public:
  using BlockFormation::BlockFormation;

 private:
  void begin(Block& b) override {
    b.stack.reset(0, b.live);
    recompact(b);
  }

  uint32_t choose(const Block& b) const override {  // round-robin among the block's ready warps
    const uint32_t n = static_cast<uint32_t>(b.warps.size());
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t i = (b.rr + k) % n;
      if (b.warps[i].state == S::Ready) return i;
    }
    throw std::logic_error("tbc: no ready warp in a block that may be fetched");
  }

  void retired(Block& b, uint32_t i, const isa::Instruction& in, uint32_t pc,
               const func::ExecResult&, RowMask moved) override {
    BlockWarp& w = b.warps[i];
    if (in.is_exit()) b.stack.remove(moved);
    if (!w.lanes) {
      w.state = S::Gone;
      return;
    }
    if (in.is_branch() && in.guard >= 0) {  // wait for the block at the branch
      b.taken |= moved;
      w.pc = pc;
      w.state = S::Waiting;
      return;
    }
    w.pc = in.is_branch() ? static_cast<uint32_t>(in.ops[0].imm) : pc + 1;
    w.state = w.pc == b.stack.entries().back().rpc ? S::Finished : state_at(b, w.pc);
  }

  // Once no warp of the top entry can go on alone, the block moves its stack on and compacts again.
  void settle(Block& b) override {
    while (b.issuing.empty() && !b.stack.done()) {
      bool waiting = false, finished = false;
      uint32_t branch_pc = 0;
      for (const BlockWarp& w : b.warps) {
        if (w.state == S::Ready || w.state == S::InFlight || w.state == S::Parked) return gather(b);
        if (w.state == S::Waiting) branch_pc = w.pc;
        waiting |= w.state == S::Waiting;
        finished |= w.state == S::Finished;
      }
      if (waiting && finished)
        throw std::logic_error(
            "tbc: warps of one entry both at a branch and at its reconvergence point");
      if (waiting) {
        b.stack.advance(branch_pc);
        func::apply_control<RowMask>(b.stack, *b.kernel, branch_pc, b.taken,
                                     b.kernel->code[branch_pc]);
        b.taken = RowMask{};
      } else {  // every warp reached the reconvergence PC, or every thread of the entry exited
        b.stack.advance(finished ? b.stack.entries().back().rpc : b.stack.pc());
      }
      recompact(b);
    }
  }

  RowMask shown(const Block& b) const override {
    return b.stack.done() ? RowMask{} : b.stack.mask();
  }

  void recompact(Block& b) const {
    b.warps.clear();
    b.rr = 0;
    if (b.stack.done()) return;
    b.warps = compact(b.stack.mask(), b.rows, b.stack.pc());
    for (BlockWarp& w : b.warps) {
      w.born = b.next_born++;
      w.state = state_at(b, w.pc);
    }
  }
};

const WarpFormationRegistration kTbc("tbc", [](const FormationParams& p) {
  return std::make_unique<BlockCompaction>(p);
});

}  // namespace
}  // namespace gputlm::sm
