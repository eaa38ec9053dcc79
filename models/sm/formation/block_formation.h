// Warps formed from a block of threads held by one warp slot: what thread block compaction ("tbc")
// and dynamic warp formation ("dwf") share. A block is `block_threads` consecutive threads of a CTA
// (the last block partial), seen as a two-dimensional mask as for large warps (rows of 32; a
// column is a SIMD lane). Its threads are grouped into warps of at most one thread per lane: a
// thread keeps its home lane, because the register file has one bank per lane (lane-aware
// formation, Fung et al.). The policy decides how warps form and which ready warp the slot issues
// next; the warp scheduler picks among slots. A warp is fetched again only once its instruction
// has left the pipeline (barrel processing per warp), and the slot may be fetched while any of its
// warps is ready.
//
// Barriers and warp-collective instructions (vote, shfl) act on all the threads that reach them
// together: a warp about to execute one parks, and once no warp of the block is ready or in flight
// the threads parked at the lowest such PC issue back to back, one unit per warp for a barrier and
// one per row (the logical 32-thread warp) for a collective, so vote and shfl give the results of
// the baseline's warps (chosen: the papers predate these instructions and are silent).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/common/row_mask.h"
#include "models/func/simt_stack.h"
#include "models/sm/formation/warp_formation.h"

namespace gputlm::sm {

struct BlockWarp {
  // Ready: may issue. InFlight: its instruction is in the pipeline. Parked: before a barrier or
  // collective. Waiting: executed a conditional branch, waits for the block (compaction).
  // Finished: reached its entry's reconvergence PC (compaction). Gone: no thread left.
  enum class State : uint8_t { Ready, InFlight, Parked, Waiting, Finished, Gone };
  uint32_t pc = 0;
  LaneMask lanes = 0;
  std::array<uint16_t, kWarpSize> thread{};  // per lane: the thread's index in the block
  State state = State::Ready;
  uint32_t tag = 0;   // of the instruction in flight
  uint64_t born = 0;  // creation order (dynamic warp formation merges into the youngest)

  RowMask threads() const;
  void add(unsigned thread_index);  // into its home lane, which must be free
};

// Lane-aware compaction (thread block compaction, Fung & Aamodt HPCA 2011): the threads of `m`
// (rows 0..rows-1) in as few warps of one thread per lane as the fullest column allows; per
// column the k-th thread from the lowest row goes into warp k.
std::vector<BlockWarp> compact(RowMask m, uint32_t rows, uint32_t pc);

class BlockFormation : public IWarpFormation {
 public:
  explicit BlockFormation(const FormationParams& p) : m_p(p) {}

  std::vector<WarpLayout> layout(uint32_t threads) override;
  void start(uint32_t slot, WarpSlot& w, const WarpLayout& l, const isa::Kernel& k) override;
  std::optional<IssueUnit> next(uint32_t slot, const WarpSlot& w,
                                const FormationInput& in) override;
  void issued(uint32_t slot, WarpSlot& w, const IssueUnit& u) override;
  bool forming(uint32_t slot) const override { return !m_blocks[slot].issuing.empty(); }
  bool may_fetch(uint32_t slot, const WarpSlot& w) const override;
  void retire(uint32_t slot, WarpSlot& w, const IssueUnit& u, const isa::Kernel& k,
              const func::ExecResult& r) override;
  uint32_t rows() const override { return m_p.block_threads / kWarpSize; }
  LaneMask row_mask(uint32_t slot, const WarpSlot& w, uint32_t row) const override;
  uint32_t slot_threads() const override { return m_p.block_threads; }

 protected:
  struct Block {
    uint32_t base_tid = 0, rows = 0;
    const isa::Kernel* kernel = nullptr;
    RowMask live;  // threads that have not exited
    std::vector<BlockWarp> warps;
    std::deque<uint32_t> issuing;  // gathered warps still to issue, in order
    uint32_t rr = 0;               // round-robin pointer over `warps`
    uint32_t picked = 0;           // the warp next() gave
    uint32_t next_tag = 0;
    uint64_t next_born = 0;
    std::array<uint32_t, kWarpSize> tids{};
    // Thread block compaction: the block-wide divergence stack, the taken threads of the branch
    // the block is synchronising at. Dynamic warp formation: post-dominators each thread passed.
    func::SimtStack<RowMask> stack;
    RowMask taken;
    std::vector<uint32_t> passed;
  };

  // The policy. `begin` forms the first warps (every thread at PC 0); `choose` gives a Ready warp
  // (one exists); `retired` moves warp `i`'s threads on after `in` at `pc` executed with `r`
  // (exited threads have already left the warp and `b.live`); `settle` then lets the block go on.
  virtual void begin(Block& b) = 0;
  virtual uint32_t choose(const Block& b) const = 0;
  virtual void retired(Block& b, uint32_t i, const isa::Instruction& in, uint32_t pc,
                       const func::ExecResult& r, RowMask taken) = 0;
  virtual void settle(Block& b) { gather(b); }
  // The mask the waves show.
  virtual RowMask shown(const Block& b) const { return b.live; }

  // Barriers and warp-collective instructions wait for the block (see above).
  static bool gathers(const isa::Instruction& in);
  // A new warp's state at `pc`: Parked before a barrier or collective, Ready otherwise.
  static BlockWarp::State state_at(const Block& b, uint32_t pc);
  // If no warp is ready or in flight, issues the threads parked at the lowest PC back to back.
  void gather(Block& b) const;

  const FormationParams m_p;

 private:
  void sync(WarpSlot& w, const Block& b) const;
  std::vector<Block> m_blocks;  // per warp slot
};

}  // namespace gputlm::sm
