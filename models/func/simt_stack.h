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
//
// Reconvergence policies (core.reconvergence): "stack" is the above alone. "its" models
// independent thread scheduling (NVIDIA Tesla V100 whitepaper, "Independent Thread Scheduling":
// the diverged paths of a warp are scheduled so that each makes progress, a thread may wait on
// another of its warp, and __syncwarp reconverges the named threads). gputlm keeps the stack and
// adds two rules, both decided where the stack changes (apply_control), so the functional engine
// and the timing model follow the same order:
// - yield on a back edge: when the top path takes a backward branch (target <= pc) and another
//   path with the same reconvergence PC waits below it, the top path moves under its siblings
//   (round robin among them); when no sibling is left but lanes wait at the top path's
//   reconvergence PC in the entry below, those lanes go on past it as a sibling path, and both
//   paths now meet at that entry's own reconvergence PC. So a spinning path never starves the
//   path it waits for (the whitepaper's "starvation-free"). Without a back edge the order is the
//   stack's.
// - join at bar.warp.sync and CTA barriers: a path at one waits (moves under its siblings) until
//   every named lane that has not exited is there, then the lanes go on as one path
//   (join(), simt_control.h's settle()). If the missing lanes can never come, it goes on with the
//   lanes there (as "stack" does).
// The whitepaper leaves open when paths reconverge besides __syncwarp; here it is at the immediate
// post-dominator as with "stack", unless a yield let one path past it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/isa/cfg.h"

namespace gputlm::func {

// The reconvergence PC of a call entry: no instruction has it.
constexpr uint32_t kCallRpc = 0xFFFFFFFEu;

// How diverged paths of a warp are scheduled (see above).
enum class Reconvergence : uint8_t { Stack, Its };

template <class Mask>
class SimtStack {
 public:
  struct Entry {
    uint32_t pc;
    uint32_t rpc;  // reconvergence pc, isa::kExitPc for the bottom entry
    Mask mask;
  };

  // The policy outlives reset() (a warp slot or runner sets it once).
  void set_policy(Reconvergence p) { m_policy = p; }
  bool its() const { return m_policy == Reconvergence::Its; }

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

  // "its": the top path took a back edge; it gives way to a sibling path or to lanes waiting at
  // its reconvergence PC (see above). Returns whether the top changed.
  bool yield() {
    const size_t j = sibling_group();
    const size_t i = m_entries.size() - 1;
    if (j < i) {
      const Entry top = m_entries.back();
      m_entries.pop_back();
      m_entries.insert(m_entries.begin() + static_cast<std::ptrdiff_t>(j), top);
      return true;
    }
    return split_waiting();
  }

  // "its": the top path is at a join point at `pc` (bar.warp.sync, a CTA barrier) that names
  // `lanes`. Returns false when it may execute it: its lanes, merged with the sibling paths
  // waiting at the same PC, hold every named lane still alive, or no other path can bring more;
  // true when the top changed (another path runs first) and the caller asks again.
  bool join(uint32_t pc, Mask lanes) {
    Mask alive{};
    for (const Entry& e : m_entries) alive |= e.mask;
    lanes &= alive;
    const size_t j = sibling_group();
    // The group's paths at `pc` merge into the top; the others stay, above it if it must wait.
    Entry top = m_entries.back();
    m_entries.pop_back();
    size_t out = j;
    for (size_t k = j; k < m_entries.size(); ++k) {
      if (m_entries[k].pc == pc)
        top.mask |= m_entries[k].mask;
      else
        m_entries[out++] = m_entries[k];
    }
    m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(out), m_entries.end());
    const bool complete = !(lanes & ~top.mask);
    if (complete || out == j) {
      m_entries.push_back(top);
      return !complete && split_waiting();
    }
    m_entries.insert(m_entries.begin() + static_cast<std::ptrdiff_t>(j), top);
    return true;
  }

 private:
  // The first index of the top entry's siblings (entries right below it with its reconvergence
  // PC, not call entries); siblings already at that PC (finished paths not yet popped: their
  // lanes wait in the entry below the group) are removed.
  size_t sibling_group() {
    const uint32_t r = m_entries.back().rpc;
    size_t j = m_entries.size() - 1;
    if (r == kCallRpc) return j;
    while (j > 0 && m_entries[j - 1].rpc == r) --j;
    size_t out = j;
    for (size_t k = j; k + 1 < m_entries.size(); ++k)
      if (m_entries[k].pc != r && m_entries[k].mask) m_entries[out++] = m_entries[k];
    m_entries[out++] = m_entries.back();
    m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(out), m_entries.end());
    return j;
  }
  // The top path is alone at its level and lanes wait at its reconvergence PC in the entry below:
  // they go on from there as a sibling path (on top), both now meeting at that entry's
  // reconvergence PC.
  bool split_waiting() {
    const size_t i = m_entries.size() - 1;
    if (i == 0) return false;
    Entry& below = m_entries[i - 1];
    const Entry top = m_entries[i];
    if (top.rpc == kCallRpc || below.pc != top.rpc) return false;
    const Mask waiting = below.mask & ~top.mask;
    if (!waiting) return false;
    const Entry ahead{below.pc, below.rpc, waiting};
    below = Entry{top.pc, ahead.rpc, top.mask};
    m_entries[i] = ahead;
    return true;
  }

  void pop_finished() {
    while (!m_entries.empty() &&
           (!m_entries.back().mask || m_entries.back().pc == m_entries.back().rpc))
      m_entries.pop_back();
  }

  std::vector<Entry> m_entries;
  Reconvergence m_policy = Reconvergence::Stack;
};

}  // namespace gputlm::func
