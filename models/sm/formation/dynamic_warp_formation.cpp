// "dwf": dynamic warp formation (Fung, Sham, Yuan, Aamodt, MICRO 2007), as the large-warps paper
// describes and evaluates it (Narasiman et al., MICRO 2011, Sec. 6 "Comparison with DWF"). There is
// no divergence stack: every thread has its own PC, and after each instruction a warp's threads
// go back to the warp pool grouped by their next PC. "DWF only permits a retiring warp to be merged
// with the youngest matching warp in the list of warps waiting to be scheduled" (incremental
// merging): the threads whose home lanes are free in the youngest warp waiting at that PC join it,
// the others form a new warp (lane-aware: a thread keeps its lane). Threads are never put back
// into their original warps, so memory divergence can grow.
// Issue priority within the pool (config core.dwf.policy; the paper runs both and keeps the better
// one per benchmark):
// - "majority": the PC most waiting threads are at (ties: the oldest warp);
// - "pdom": "prioritizes warps that have passed the least number of post-dominators (i.e., CFM
//   points)": a thread passes one each time it reaches the reconvergence PC of a conditional
//   branch; a warp counts its least-advanced thread (ties: the oldest warp).
// Chosen where the paper is silent: the pool is a block of `block_threads` threads of one CTA
// (DWF pools a whole core, but threads of different CTAs have different shared memory here).
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "models/common/registry.h"
#include "models/sm/formation/block_formation.h"

namespace gputlm::sm {
namespace {

using S = BlockWarp::State;

class DynamicWarpFormation : public BlockFormation {
 public:
  using BlockFormation::BlockFormation;

 private:
  void begin(Block& b) override {
    b.passed.assign(b.rows * kWarpSize, 0);
    b.warps = compact(b.live, b.rows, 0);  // the warps of 32 consecutive threads
    for (BlockWarp& w : b.warps) {
      w.born = b.next_born++;
      w.state = state_at(b, 0);
    }
  }

  uint32_t choose(const Block& b) const override {
    uint32_t best = ~0u;
    uint64_t best_key = ~0ull;
    for (uint32_t i = 0; i < b.warps.size(); ++i) {
      const BlockWarp& w = b.warps[i];
      if (w.state != S::Ready) continue;
      const uint64_t key =
          m_p.pdom_priority ? least_passed(b, w) : ~0u - waiting_at(b, w.pc);  // lower goes first
      if (best == ~0u || key < best_key || (key == best_key && w.born < b.warps[best].born)) {
        best = i;
        best_key = key;
      }
    }
    if (best == ~0u) throw std::logic_error("dwf: no ready warp in a pool that may be fetched");
    return best;
  }

  void retired(Block& b, uint32_t i, const isa::Instruction& in, uint32_t pc,
               const func::ExecResult&, RowMask moved) override {
    const BlockWarp w = b.warps[i];
    b.warps[i].state = S::Gone;
    b.warps[i].lanes = 0;
    if (!w.lanes) return;
    RowMask to_target;
    if (in.is_branch()) to_target = in.guard < 0 ? w.threads() : moved;
    const RowMask fall = w.threads() & ~to_target;
    if (to_target) merge(b, static_cast<uint32_t>(in.ops[0].imm), to_target);
    if (fall) merge(b, pc + 1, fall);
  }

  // The threads `m` (of one warp: one per lane) go to `pc`: into the youngest warp waiting there
  // where their lanes are free, the rest into a new warp.
  void merge(Block& b, uint32_t pc, RowMask m) {
    if (reconvergence_pcs(*b.kernel)[pc])
      for (uint32_t r = 0; r < b.rows; ++r)
        for_each_lane(m.row[r], [&](unsigned c) { ++b.passed[r * kWarpSize + c]; });
    int youngest = -1;
    for (uint32_t j = 0; j < b.warps.size(); ++j) {
      const BlockWarp& x = b.warps[j];
      if (x.pc == pc && (x.state == S::Ready || x.state == S::Parked) &&
          (youngest < 0 || x.born > b.warps[youngest].born))
        youngest = static_cast<int>(j);
    }
    if (youngest >= 0) {
      BlockWarp& y = b.warps[static_cast<uint32_t>(youngest)];
      for (uint32_t r = 0; r < b.rows; ++r) {
        const LaneMask fit = m.row[r] & ~y.lanes;
        for_each_lane(fit, [&](unsigned c) { y.add(r * kWarpSize + c); });
        m.row[r] &= ~fit;
      }
    }
    for (BlockWarp& w : compact(m, b.rows, pc)) {
      w.born = b.next_born++;
      w.state = state_at(b, pc);
      b.warps.push_back(w);
    }
  }

  static uint32_t waiting_at(const Block& b, uint32_t pc) {
    uint32_t n = 0;
    for (const BlockWarp& w : b.warps)
      if (w.state == S::Ready && w.pc == pc) n += popcount(w.lanes);
    return n;
  }
  static uint32_t least_passed(const Block& b, const BlockWarp& w) {
    uint32_t n = ~0u;
    for_each_lane(w.lanes, [&](unsigned lane) { n = std::min(n, b.passed[w.thread[lane]]); });
    return n;
  }

  // PCs that are the reconvergence point of a conditional branch of `k`.
  const std::vector<bool>& reconvergence_pcs(const isa::Kernel& k) {
    std::vector<bool>& v = m_reconv[&k];
    if (v.size() == k.code.size() + 1) return v;
    v.assign(k.code.size() + 1, false);
    for (uint32_t pc = 0; pc < k.code.size(); ++pc) {
      const uint32_t r = k.cfg.reconv_pc[pc];
      if (k.code[pc].is_branch() && k.code[pc].guard >= 0 && r < k.code.size()) v[r] = true;
    }
    return v;
  }

  std::unordered_map<const isa::Kernel*, std::vector<bool>> m_reconv;
};

const WarpFormationRegistration kDwf("dwf", [](const FormationParams& p) {
  return std::make_unique<DynamicWarpFormation>(p);
});

}  // namespace
}  // namespace gputlm::sm
