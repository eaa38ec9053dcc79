// IndexSet: members visited in ascending order across words; the visited member may be erased
// during the visit (the crossbar erases a port once it has nothing left).
#include <gtest/gtest.h>

#include <vector>

#include "models/common/index_set.h"

namespace {

TEST(IndexSet, ForEachVisitsAscendingAndMayEraseTheMemberItVisits) {
  gputlm::IndexSet s(200);
  for (uint32_t i : {150u, 3u, 64u, 63u, 199u, 0u}) s.insert(i);
  std::vector<uint32_t> seen;
  s.for_each([&](uint32_t i) {
    seen.push_back(i);
    if (i % 2 == 1) s.erase(i);  // the odd ones leave
  });
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 3, 63, 64, 150, 199}));
  seen.clear();
  s.for_each([&](uint32_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 64, 150}));
  EXPECT_EQ(s.first_from(65, 0, 200), 150u);
  EXPECT_EQ(s.first_from(151, 0, 200), 0u);  // wraps around
}

}  // namespace
