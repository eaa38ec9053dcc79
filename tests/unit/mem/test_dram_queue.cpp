// DramQueue: an erase keeps the others in arrival order whichever side of it moves (the front's
// place dropped, or the tail moved forward), and the indices, serials, per-bank and per-row counts
// and the policy's vectors agree afterwards.
#include <gtest/gtest.h>

#include <vector>

#include "models/mem/dram/dram_queue.h"

namespace gputlm::mem {
namespace {

std::vector<uint64_t> serials(const DramQueue& q) {
  std::vector<uint64_t> s;
  for (size_t i = 0; i < q.size(); ++i) s.push_back(q.request(i).serial);
  return s;
}

TEST(DramQueue, AnEraseOnEitherSideKeepsArrivalOrderIndicesAndCounts) {
  DramQueue q(4);
  for (uint32_t i = 0; i < 8; ++i) {
    DramQueueEntry e;
    e.bank = i % 4;
    e.row = i < 4 ? 7 : 9;
    e.arrival = 100 + i;
    q.push(e, nullptr);
  }
  q.erase(1);  // near the front: the one before it moves back
  q.erase(5);  // near the back (serial 6): those after it move forward
  EXPECT_EQ(serials(q), (std::vector<uint64_t>{0, 2, 3, 4, 5, 7}));
  EXPECT_EQ(q.size(), 6u);
  EXPECT_EQ(q.entry(1).arrival, 102u);
  EXPECT_EQ(q.index_of(4), 3u);
  EXPECT_EQ(q.queued(1), 1u);            // serials 1 (erased) and 5 were bank 1's
  EXPECT_EQ(q.queued_for(2, 9), 0u);     // serial 6 was bank 2's row 9
  EXPECT_FALSE(q.wanted_by_another(0));  // serial 0 (bank 0, row 7): serial 4 wants row 9
  DramQueueEntry same;                   // another request for bank 0's row 7 (serial 8)
  same.row = 7;
  q.push(same, nullptr);
  EXPECT_TRUE(q.wanted_by_another(0));
  q.erase(q.size() - 1);
  q.erase(0);
  q.erase(0);
  EXPECT_EQ(serials(q), (std::vector<uint64_t>{3, 4, 5, 7}));
  // The policy's view is the queue itself, from its oldest.
  const std::vector<DramQueueEntry>& view = q.entries();
  ASSERT_EQ(view.size(), 4u);
  EXPECT_EQ(view[0].arrival, 103u);
  EXPECT_EQ(q.requests()[3].serial, 7u);
  while (!q.empty()) q.erase(q.size() - 1);
  EXPECT_EQ(q.queued(3), 0u);
}

}  // namespace
}  // namespace gputlm::mem
