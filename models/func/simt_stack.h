// Stack-based SIMT divergence and reconvergence (Narasiman dissertation section 2.2; the papers'
// baseline): each entry holds a PC, a reconvergence PC and an active mask; the top entry is what
// the warp executes. A divergent branch turns the top entry into the reconvergence entry (PC =
// the branch's immediate post-dominator) and pushes the not-taken then the taken path, so the
// taken path runs first (dissertation section 4.1). An entry is popped when its PC reaches its
// reconvergence PC or all its threads have exited. Templated on the mask type so large warps can
// use wider masks.
//
// Calls (as in GPGPU-Sim): a call turns the top entry into the return entry (PC = the instruction
// after the call, all its lanes) and pushes a call entry for the calling lanes at the callee's
// first instruction, marked with rpc = kCallRpc. Divergence inside the callee pushes entries
// above it as usual (reconvergence at the callee's post-dominators, or at its exit). A ret
// removes its lanes from every entry down to and including the nearest call entry; when the
// call entry empties it is popped and the return entry (the caller) continues with every lane
// that was there at the call. Recursion is a deeper stack; the per-thread frames are the
// functional engine's (call_ops.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/isa/cfg.h"

namespace gputlm::func {

// The reconvergence PC of a call entry: no instruction has it.
constexpr uint32_t kCallRpc = 0xFFFFFFFEu;

template <class Mask>
class SimtStack {
 public:
  struct Entry {
    uint32_t pc;
    uint32_t rpc;  // reconvergence pc, isa::kExitPc for the bottom entry
    Mask mask;
  };

  void reset(uint32_t pc, Mask mask) {
    m_entries.clear();
    if (static_cast<bool>(mask)) m_entries.push_back({pc, isa::kExitPc, mask});
  }
  bool done() const { return m_entries.empty(); }
  uint32_t pc() const { return m_entries.back().pc; }
  Mask mask() const { return m_entries.back().mask; }
  size_t depth() const { return m_entries.size(); }
  const std::vector<Entry>& entries() const { return m_entries; }

  // The top entry moves on to `next_pc` (after any non-branch instruction or a uniform branch).
  void advance(uint32_t next_pc) {
    m_entries.back().pc = next_pc;
    pop_finished();
  }

  // A branch at the top entry: `taken` lanes go to `target`, the others to `fallthrough`; the
  // two paths meet again at `rpc` (isa::kExitPc if only at exit).
  void branch(uint32_t target, uint32_t fallthrough, Mask taken, uint32_t rpc) {
    Entry& top = m_entries.back();
    const Mask not_taken = top.mask & ~taken;
    taken &= top.mask;
    if (!taken || target == fallthrough) return advance(fallthrough);
    if (!not_taken) return advance(target);
    top.pc = rpc;
    m_entries.push_back({fallthrough, rpc, not_taken});
    m_entries.push_back({target, rpc, taken});
    pop_finished();
  }

  // A multi-way branch at the top entry (brx.idx): groups[i].second lanes go to groups[i].first
  // (the groups split the top entry's lanes); all paths meet again at `rpc`. As for two paths, the
  // top entry becomes the reconvergence entry and one entry per group is pushed; the groups run in
  // the order given.
  void branch_each(uint32_t rpc, const std::pair<uint32_t, Mask>* groups, size_t n) {
    if (n == 1) return advance(groups[0].first);
    m_entries.back().pc = rpc;
    for (size_t i = n; i-- > 0;) m_entries.push_back({groups[i].first, rpc, groups[i].second});
    pop_finished();
  }

  // `lanes` of the top entry call the function at `target`; they come back to `return_pc`.
  void call(uint32_t target, uint32_t return_pc, Mask lanes) {
    const std::pair<uint32_t, Mask> group{target, lanes};
    call_each(return_pc, &group, 1);
  }
  // A call through pointers: groups[i].second lanes call the function at groups[i].first; the
  // last group runs first.
  void call_each(uint32_t return_pc, const std::pair<uint32_t, Mask>* groups, size_t n) {
    const Mask top = m_entries.back().mask;
    m_entries.back().pc = return_pc;
    for (size_t i = 0; i < n; ++i)
      if (static_cast<bool>(groups[i].second & top))
        m_entries.push_back({groups[i].first, kCallRpc, groups[i].second & top});
    pop_finished();
  }
  // `lanes` of the top entry return from the function they are in; the top entry's other lanes
  // (a guarded ret) move on to `next_pc`.
  void ret(Mask lanes, uint32_t next_pc) {
    const bool top_continues = static_cast<bool>(m_entries.back().mask & ~lanes);
    if (top_continues) m_entries.back().pc = next_pc;
    for (size_t i = m_entries.size(); i-- > 0;) {
      m_entries[i].mask &= ~lanes;
      if (m_entries[i].rpc == kCallRpc) break;
    }
    pop_finished();
  }

  // `lanes` finished: they leave every entry, which stay where they are (thread block compaction
  // moves its warps itself).
  void remove(Mask lanes) {
    for (Entry& e : m_entries) e.mask &= ~lanes;
  }
  // `lanes` of the top entry finished (ret/exit): they leave every entry; the top entry's
  // remaining lanes (a guarded exit) move on to `next_pc`.
  void exit(Mask lanes, uint32_t next_pc) {
    const bool top_continues = static_cast<bool>(m_entries.back().mask & ~lanes);
    for (Entry& e : m_entries) e.mask &= ~lanes;
    if (top_continues) m_entries.back().pc = next_pc;
    pop_finished();
  }

 private:
  void pop_finished() {
    while (!m_entries.empty() &&
           (!m_entries.back().mask || m_entries.back().pc == m_entries.back().rpc))
      m_entries.pop_back();
  }

  std::vector<Entry> m_entries;
};

}  // namespace gputlm::func
