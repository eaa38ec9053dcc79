// A warp's cp.async groups in the timing model (PTX ISA 9.7.9.25.4-5): each cp.async joins the
// warp's open group; cp.async.commit_group closes it (wait_all commits too); wait_group N may issue
// once every committed group but the N most recent is complete, wait_all once all are. A copy is
// complete when its instruction has sent all its source lines and every line has returned; until
// then the warp runs on (the copy needs no register). Groups count from 0 in the warp's order;
// the fetch stage adds copies and commits in program order, the memory stage sends and completes.
//
// The ISA's groups are per thread; the model keeps them per warp (a warp's threads commit and wait
// together in the code nvcc emits: __pipeline_commit, cuda::pipeline,
// cooperative_groups::memcpy_async).
#pragma once

#include <cstdint>
#include <deque>

namespace gputlm::sm {

class CopyGroups {
 public:
  // A cp.async fetched: it counts as one unit of the open group until its lines are all sent.
  uint64_t add_copy() {
    open_count()++;
    return m_open;
  }
  // cp.async.commit_group (and wait_all): later copies join a new group.
  void commit() {
    open_count();
    ++m_open;
  }
  void line_sent(uint64_t group) { ++count(group); }
  // The copy's instruction has sent all its lines (or had none): its own unit is done.
  bool copy_sent(uint64_t group) { return done(group); }
  // A line returned. Both return whether a group became complete (a waiting warp may go on).
  bool line_returned(uint64_t group) { return done(group); }

  // wait_group n: at most the n most recent committed groups incomplete (groups before m_open).
  bool may_wait_group(uint64_t n) const {
    for (uint64_t g = m_first; g < m_open; ++g)
      if (m_pending[g - m_first] > 0 && m_open - g > n) return false;
    return true;
  }
  // wait_all: every group, the open one too, complete.
  bool all_complete() const {
    for (uint32_t c : m_pending)
      if (c > 0) return false;
    return true;
  }
  bool any_pending() const { return !all_complete(); }
  // The group cp.async joins now, and whether every group up to `group` is complete.
  uint64_t open_group() const { return m_open; }
  bool complete_through(uint64_t group) const {
    for (uint64_t g = m_first; g <= group && g - m_first < m_pending.size(); ++g)
      if (m_pending[g - m_first] > 0) return false;
    return true;
  }

 private:
  uint32_t& open_count() { return count(m_open); }
  uint32_t& count(uint64_t group) {
    while (m_first + m_pending.size() <= group) m_pending.push_back(0);
    return m_pending[group - m_first];
  }
  bool done(uint64_t group) {
    if (group < m_first) return false;
    uint32_t& c = count(group);
    if (c == 0 || --c > 0) return false;
    while (!m_pending.empty() && m_pending.front() == 0 &&
           m_first < m_open) {  // complete committed groups leave
      m_pending.pop_front();
      ++m_first;
    }
    return true;
  }

  std::deque<uint32_t> m_pending;  // units (copies not yet sent, lines not yet returned) of groups
                                   // m_first.., oldest first
  uint64_t m_first = 0;            // the oldest group still kept
  uint64_t m_open = 0;             // the group cp.async joins
};

}  // namespace gputlm::sm
