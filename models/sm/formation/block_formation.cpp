#include "models/sm/formation/block_formation.h"

#include <algorithm>

#include "models/sm/formation/subwarp_former.h"

namespace gputlm::sm {

RowMask BlockWarp::threads() const {
  RowMask m;
  for_each_lane(lanes, [&](unsigned lane) { m.set(thread[lane]); });
  return m;
}

void BlockWarp::add(unsigned thread_index) {
  const unsigned lane = thread_index % kWarpSize;
  lanes |= 1u << lane;
  thread[lane] = static_cast<uint16_t>(thread_index);
}

std::vector<BlockWarp> compact(RowMask m, uint32_t rows, uint32_t pc) {
  std::vector<BlockWarp> out;
  while (m) {
    const SubWarp sw = pick_per_column(m, rows, false);
    BlockWarp w;
    w.pc = pc;
    w.lanes = sw.lanes;
    w.thread = sw.thread;
    out.push_back(w);
    m &= ~sw.pick;
  }
  return out;
}

std::vector<WarpLayout> BlockFormation::layout(uint32_t threads) {
  return block_layout(threads, m_p.block_threads);
}

void BlockFormation::start(uint32_t slot, WarpSlot& w, const WarpLayout& l, const isa::Kernel& k) {
  if (slot >= m_blocks.size()) m_blocks.resize(slot + 1);
  Block& b = m_blocks[slot];
  b = Block{};
  b.base_tid = l.base_tid;
  b.rows = (l.threads + kWarpSize - 1) / kWarpSize;
  b.kernel = &k;
  b.live = RowMask::first(l.threads);
  begin(b);
  settle(b);
  sync(w, b);
}

std::optional<IssueUnit> BlockFormation::next(uint32_t slot, const WarpSlot&,
                                              const FormationInput&) {
  Block& b = m_blocks[slot];
  if (!b.live) return std::nullopt;
  b.picked = b.issuing.empty() ? choose(b) : b.issuing.front();
  const BlockWarp& w = b.warps[b.picked];
  for_each_lane(w.lanes, [&](unsigned lane) { b.tids[lane] = b.base_tid + w.thread[lane]; });
  return IssueUnit{
      w.pc, func::ThreadGroup{0, b.tids.data()}, w.lanes, popcount(w.lanes), b.next_tag, false};
}

void BlockFormation::issued(uint32_t slot, WarpSlot&, const IssueUnit&) {
  Block& b = m_blocks[slot];
  BlockWarp& w = b.warps[b.picked];
  w.state = BlockWarp::State::InFlight;
  w.tag = b.next_tag++;
  if (!b.issuing.empty())
    b.issuing.pop_front();
  else
    b.rr = b.picked + 1;
}

bool BlockFormation::may_fetch(uint32_t slot, const WarpSlot&) const {
  const Block& b = m_blocks[slot];
  if (!b.issuing.empty()) return true;
  return std::any_of(b.warps.begin(), b.warps.end(),
                     [](const BlockWarp& w) { return w.state == BlockWarp::State::Ready; });
}

void BlockFormation::retire(uint32_t slot, WarpSlot& w, const IssueUnit& u, const isa::Kernel& k,
                            const func::ExecResult& r) {
  Block& b = m_blocks[slot];
  uint32_t i = 0;
  while (b.warps[i].tag != u.tag || b.warps[i].state != BlockWarp::State::InFlight) ++i;
  BlockWarp& bw = b.warps[i];
  const isa::Instruction& in = k.code[u.pc];
  // Taken threads of a branch, finished threads of an exit (which leave the warp and the block).
  RowMask moved;
  const LaneMask lanes = in.is_branch() ? r.taken : in.is_exit() ? r.active : 0;
  for_each_lane(lanes, [&](unsigned lane) { moved.set(bw.thread[lane]); });
  if (in.is_exit()) {
    bw.lanes &= ~r.active;
    b.live &= ~moved;
  }
  retired(b, i, in, u.pc, r, moved);
  if (b.issuing.empty())  // no gathered warp waits by index: drop the warps without threads
    b.warps.erase(
        std::remove_if(b.warps.begin(), b.warps.end(),
                       [](const BlockWarp& x) { return x.state == BlockWarp::State::Gone; }),
        b.warps.end());
  settle(b);
  sync(w, b);
}

LaneMask BlockFormation::row_mask(uint32_t slot, const WarpSlot&, uint32_t row) const {
  if (slot >= m_blocks.size() || !m_blocks[slot].live) return 0;
  return shown(m_blocks[slot]).row[row];
}

bool BlockFormation::gathers(const isa::Instruction& in) {
  return in.is_barrier() || isa::is_warp_collective(in);
}

BlockWarp::State BlockFormation::state_at(const Block& b, uint32_t pc) {
  return gathers(b.kernel->code[pc]) ? BlockWarp::State::Parked : BlockWarp::State::Ready;
}

void BlockFormation::gather(Block& b) const {
  using S = BlockWarp::State;
  if (!b.issuing.empty()) return;
  uint32_t pc = isa::kExitPc;
  for (const BlockWarp& w : b.warps) {
    if (w.state == S::Ready || w.state == S::InFlight || w.state == S::Waiting) return;
    if (w.state == S::Parked) pc = std::min(pc, w.pc);
  }
  if (pc == isa::kExitPc) return;
  if (b.kernel->code[pc].is_barrier()) {  // every warp arrives with its own threads
    for (uint32_t i = 0; i < b.warps.size(); ++i)
      if (b.warps[i].state == S::Parked && b.warps[i].pc == pc) b.issuing.push_back(i);
    return;
  }
  RowMask m;  // a collective: one warp per row of the parked threads
  for (BlockWarp& w : b.warps) {
    if (w.state != S::Parked || w.pc != pc) continue;
    m |= w.threads();
    w.lanes = 0;
    w.state = S::Gone;
  }
  for (uint32_t r = 0; r < b.rows; ++r) {
    if (!m.row[r]) continue;
    const SubWarp sw = pick_row(m, r);
    BlockWarp w;
    w.pc = pc;
    w.lanes = sw.lanes;
    w.thread = sw.thread;
    w.state = S::Parked;
    w.born = b.next_born++;
    b.issuing.push_back(static_cast<uint32_t>(b.warps.size()));
    b.warps.push_back(w);
  }
}

void BlockFormation::sync(WarpSlot& w, const Block& b) const {
  if (!b.live) return w.stack.reset(0, 0);
  uint32_t pc = 0;
  for (const BlockWarp& x : b.warps)
    if (x.state != BlockWarp::State::Gone) {
      pc = x.pc;
      break;
    }
  w.stack.reset(pc, b.live.columns());
}

}  // namespace gputlm::sm
