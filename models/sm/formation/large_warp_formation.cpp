// "lwm": the Large Warp Microarchitecture (Narasiman et al., MICRO 2011, Sec. 3; Narasiman
// dissertation Sec. 4.2; digest sections 2.1-2.10). A CTA's threads form large warps of
// `large_warp_size` consecutive threads (the last one partial), each with a two-dimensional active
// mask (rows of 32; a column is a SIMD lane) and one divergence stack. A fetched instruction is
// broken into SIMD-width sub-warps, one a cycle, while fetch waits (Sec. 4.2.1):
// - "pick one active thread from each column": per column the lowest active row first (the
//   order of the Fig. 4.5 example), because the register file has one bank per lane; with the
//   perfect register file ("LWM perfRF", Sec. 5.3.1) lanes left empty are filled with any further
//   threads (chosen: lowest thread first, lowest free lane first);
// - memory divergence optimisation (Sec. 4.2.5): a global-memory instruction forms one sub-warp
//   per row, so coalescing sees the baseline's warps; warp-collective instructions (vote, shfl)
//   always do, with the whole row at once, so they act on the logical warps of 32 threads;
// - unconditional branch optimisation (Sec. 4.2.4): a jump forms a single sub-warp;
// - predicated instructions (Sec. 4.2.3) pack only the threads whose guard holds (option);
// - the dependency bit (Sec. 4.2.2): a thread in a sub-warp that has not completed is not packed
//   for the next instruction until it has.
// A former that finds only busy threads (say, waiting for a cache miss) either waits, fetch
// stalled with it, or (chosen default; the papers are silent) suspends the instruction, keeping
// its mask copy, lets fetch go on with other warps, and resumes once one of the threads is free.
// Re-fetch (Sec. 4.2.2): the large warp may be fetched again once the first sub-warp of its
// instruction has completed, but after all of them for a conditional branch (whether it diverged
// is known only then); likewise, chosen, for exits and barriers. Branch outcomes gather in the
// temporary mask buffers and update the stack once all sub-warps are done (Sec. 4.2.3).
#include <deque>

#include "models/common/registry.h"
#include "models/common/row_mask.h"
#include "models/func/simt_control.h"
#include "models/sm/formation/subwarp_former.h"
#include "models/sm/formation/warp_formation.h"

namespace gputlm::sm {
namespace {

enum class Mode : uint8_t { Columns, RowFree, RowWhole, Single };

class LargeWarpFormation : public IWarpFormation {
 public:
  explicit LargeWarpFormation(const FormationParams& p) : m_p(p) {}

  std::vector<WarpLayout> layout(uint32_t threads) override {
    return block_layout(threads, m_p.large_warp_size);
  }

  void start(uint32_t slot, WarpSlot& w, const WarpLayout& l, const isa::Kernel&) override {
    if (slot >= m_warps.size()) m_warps.resize(slot + 1);
    LargeWarp& lw = m_warps[slot];
    lw = LargeWarp{};
    lw.base_tid = l.base_tid;
    lw.rows = (l.threads + kWarpSize - 1) / kWarpSize;
    lw.stack.reset(0, RowMask::first(l.threads));
    sync(w, lw);
  }

  std::optional<IssueUnit> next(uint32_t slot, const WarpSlot&, const FormationInput& in) override {
    LargeWarp& lw = m_warps[slot];
    Peek& pk = lw.peek;
    if (lw.forming) {
      pk.f = lw.cur;
    } else {
      if (lw.stack.done()) return std::nullopt;
      const isa::Instruction& ins = in.kernel.code[lw.stack.pc()];
      pk.f =
          Forming{lw.stack.pc(), mode_of(ins), lw.stack.mask(), lw.next_tag, ins.decides_control()};
    }
    form(lw, in, pk);
    return pk.unit;
  }

  void issued(uint32_t slot, WarpSlot&, const IssueUnit& u) override {
    LargeWarp& lw = m_warps[slot];
    Peek& pk = lw.peek;
    if (!lw.forming) {  // the instruction begins
      Inst i;
      i.tag = pk.f.tag;
      i.pc = pk.f.pc;
      i.waits_all = pk.f.decides || m_p.refetch_after_all;
      i.single = pk.f.mode == Mode::Single;
      lw.insts.push_back(i);
      ++lw.next_tag;
      lw.open = false;
    }
    lw.cur = pk.f;
    if (pk.f.mode != Mode::Single) lw.busy |= pk.pick;
    Inst& i = lw.insts.back();
    if (!u.bubble) ++i.formed;
    lw.forming = static_cast<bool>(lw.cur.left);
    lw.suspended = u.bubble && m_p.suspend_on_busy;
    if (lw.forming) return;
    i.formed_all = true;
    if (i.retired == i.formed)
      lw.insts.pop_back();  // the last threads' guards failed: nothing left to wait for
  }

  bool forming(uint32_t slot) const override {
    return m_warps[slot].forming && !m_warps[slot].suspended;
  }
  bool unformed(uint32_t slot) const override { return m_warps[slot].forming; }
  bool may_fetch(uint32_t slot, const WarpSlot&) const override {
    const LargeWarp& lw = m_warps[slot];
    if (lw.forming)
      return lw.suspended &&
             static_cast<bool>(lw.cur.left & ~lw.busy);  // resume once a thread is free
    return lw.open;
  }

  void retire(uint32_t slot, WarpSlot& w, const IssueUnit& u, const isa::Kernel& k,
              const func::ExecResult& r) override {
    LargeWarp& lw = m_warps[slot];
    auto it = lw.insts.begin();
    while (it->tag != u.tag) ++it;
    Inst& i = *it;
    const isa::Instruction& in = k.code[i.pc];
    if (!i.single)
      for_each_lane(u.lanes,
                    [&](unsigned lane) { lw.busy.reset(u.group.tid(lane) - lw.base_tid); });
    // The temporary mask buffers: taken threads of a branch, finished threads of an exit.
    const LaneMask gathered = in.is_branch() ? r.taken : in.is_exit() ? r.active : 0;
    for_each_lane(gathered, [&](unsigned lane) { i.mask.set(u.group.tid(lane) - lw.base_tid); });
    ++i.retired;
    if (!i.waits_all && !i.advanced) {  // the first sub-warp completed: the large warp moves on
      lw.stack.advance(i.pc + 1);
      i.advanced = true;
      lw.open = true;
    }
    if (i.formed_all && i.retired == i.formed) {
      if (i.waits_all) {
        const RowMask m = i.single ? lw.stack.mask() : i.mask;  // a jump takes every thread
        func::apply_control<RowMask>(lw.stack, k, i.pc, m, in);
        lw.open = true;
      }
      lw.insts.erase(it);
    }
    sync(w, lw);
  }

  uint32_t rows() const override { return m_p.large_warp_size / kWarpSize; }
  LaneMask row_mask(uint32_t slot, const WarpSlot&, uint32_t row) const override {
    if (slot >= m_warps.size() || m_warps[slot].stack.done()) return 0;
    return m_warps[slot].stack.mask().row[row];
  }
  uint32_t slot_threads() const override { return m_p.large_warp_size; }

 private:
  // The instruction being broken into sub-warps: the threads not yet in one (the mask copy).
  struct Forming {
    uint32_t pc = 0;
    Mode mode = Mode::Columns;
    RowMask left;
    uint32_t tag = 0;
    bool decides =
        false;  // the instruction decides the next PC: the large warp waits for all sub-warps
  };
  // A fetched instruction with sub-warps in flight.
  struct Inst {
    uint32_t tag = 0, pc = 0;
    bool waits_all = false, single = false;
    uint32_t formed = 0, retired = 0;
    bool formed_all = false, advanced = false;
    RowMask mask;  // temporary mask buffer
  };
  // What next() worked out, for issued() to commit.
  struct Peek {
    Forming f;
    RowMask pick;
    IssueUnit unit;
    std::array<uint32_t, kWarpSize> tids{};
  };
  struct LargeWarp {
    func::SimtStack<RowMask> stack;
    uint32_t base_tid = 0, rows = 0;
    RowMask busy;  // dependency bits
    bool forming = false;
    bool suspended =
        false;         // forming, but only busy threads were left: fetch went on with other warps
    bool open = true;  // may be fetched again
    Forming cur;
    uint32_t next_tag = 0;
    std::deque<Inst> insts;
    Peek peek;
  };

  Mode mode_of(const isa::Instruction& in) const {
    if (in.is_branch() && in.guard < 0 && m_p.single_jump) return Mode::Single;
    if (isa::is_warp_collective(in)) return Mode::RowWhole;
    const bool global = in.space == isa::Space::Global || in.space == isa::Space::Generic;
    if (in.is_memory() && global && m_p.memory_rows) return Mode::RowFree;
    return Mode::Columns;
  }

  // Forms the next sub-warp of pk.f into pk.unit / pk.pick, updating pk.f.left.
  void form(LargeWarp& lw, const FormationInput& in, Peek& pk) const {
    Forming& f = pk.f;
    const isa::Instruction& ins = in.kernel.code[f.pc];
    IssueUnit& u = pk.unit;
    u = IssueUnit{f.pc, func::ThreadGroup{0, pk.tids.data()}, 0, 0, f.tag, false};
    RowMask cand = f.mode == Mode::Single ? f.left : f.left & ~lw.busy;
    if (m_p.pack_predicated && ins.guard >= 0 &&
        !f.decides) {  // threads whose guard fails need no lane
      for (uint32_t r = 0; r < lw.rows; ++r) {
        for_each_lane(cand.row[r], [&](unsigned c) {
          const uint32_t tid = lw.base_tid + r * kWarpSize + c;
          if (!in.cta.guard_holds(ins, tid)) {
            cand.row[r] &= ~(1u << c);
            f.left.row[r] &= ~(1u << c);
            ++u.threads;
          }
        });
      }
    }
    SubWarp sw;
    switch (f.mode) {
      case Mode::Single:
      case Mode::Columns:
        sw = pick_per_column(cand, lw.rows, m_p.perfect_register_file && f.mode == Mode::Columns);
        break;
      case Mode::RowFree:  // the lowest row with a free thread
        for (uint32_t r = 0; r < lw.rows; ++r)
          if (cand.row[r]) {
            sw = pick_row(cand, r);
            break;
          }
        break;
      case Mode::RowWhole:  // the lowest row left, once all of its threads are free
        for (uint32_t r = 0; r < lw.rows; ++r)
          if (f.left.row[r]) {
            if (!(f.left.row[r] & lw.busy.row[r])) sw = pick_row(f.left, r);
            break;
          }
        break;
    }
    pk.pick = sw.pick;
    for_each_lane(sw.lanes, [&](unsigned lane) { pk.tids[lane] = lw.base_tid + sw.thread[lane]; });
    u.lanes = sw.lanes;
    if (f.mode == Mode::Single) {
      u.threads += f.left.count();
      f.left = RowMask{};
    } else {
      u.threads += popcount(u.lanes);
      f.left &= ~pk.pick;
    }
    // Nothing to pack: wait for busy threads (a bubble), unless no thread is left at all and the
    // instruction has no sub-warp yet (every guard failed): it then goes down with no lane.
    const bool begun = lw.forming;
    u.bubble = !u.lanes && (f.left || begun);
  }

  void sync(WarpSlot& w, const LargeWarp& lw) const {
    if (lw.stack.done())
      w.stack.reset(0, 0);
    else
      w.stack.reset(lw.stack.pc(), lw.stack.mask().columns());
  }

  FormationParams m_p;
  std::vector<LargeWarp> m_warps;  // per warp slot
};

const WarpFormationRegistration kLwm("lwm", [](const FormationParams& p) {
  return std::make_unique<LargeWarpFormation>(p);
});

}  // namespace
}  // namespace gputlm::sm
