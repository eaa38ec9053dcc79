// The command model's queue by kind (mem/dram/dram_kind_index.h): the oldest request of each
// kind, as requests are queued, have their rows opened and leave.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "models/mem/dram/dram_kind_index.h"

namespace gputlm::mem {
namespace {

using Kind = std::tuple<DramCmd, bool, bool, uint64_t>;  // command, opened, write, oldest serial

std::vector<Kind> kinds(const DramKindIndex& k, uint32_t bank, std::optional<uint64_t> open) {
  std::vector<Kind> out;
  k.for_each_kind(bank, open, [&](DramCmd c, bool opened, const DramKindIndex::Request& r) {
    out.emplace_back(c, opened, r.entry.write, r.serial);
  });
  return out;
}

// A queued request of `bank` for `row`, a write or a read.
DramQueueEntry entry(uint32_t bank, uint64_t row, bool write) { return {bank, row, write}; }

TEST(DramKindIndex, TheOldestOfEachKindFollowsTheOpenRowAndTheRequestsComingAndGoing) {
  DramKindIndex k(2);
  k.add(entry(0, 7, false), 1);
  k.add(entry(0, 5, false), 2);
  k.add(entry(0, 5, true), 3);
  k.add(entry(1, 5, false), 4);
  k.add(entry(0, 7, false), 5);
  using C = DramCmd;
  // Closed: every direction's oldest needs ACT.
  EXPECT_EQ(kinds(k, 0, std::nullopt),
            (std::vector<Kind>{{C::Act, false, false, 1}, {C::Act, false, true, 3}}));
  // Row 5 open: reads of row 5 hit (oldest 2), of row 7 need PRE (oldest 1); the write hits.
  EXPECT_EQ(kinds(k, 0, 5), (std::vector<Kind>{{C::Pre, false, false, 1},
                                               {C::Read, false, false, 2},
                                               {C::Write, false, true, 3}}));
  // Request 1's ACT opened row 7 for it: it is the opened read; request 5 is then a waiting hit.
  k.activate(0, false, 1);
  EXPECT_EQ(kinds(k, 0, 7), (std::vector<Kind>{{C::Read, true, false, 1},
                                               {C::Pre, false, false, 2},
                                               {C::Read, false, false, 5},
                                               {C::Pre, false, true, 3}}));
  k.remove(0, false, 1, true);
  k.remove(0, false, 2, false);
  EXPECT_EQ(kinds(k, 0, 7),
            (std::vector<Kind>{{C::Read, false, false, 5}, {C::Pre, false, true, 3}}));
  EXPECT_EQ(kinds(k, 1, 5), (std::vector<Kind>{{C::Read, false, false, 4}}));
  k.remove(1, false, 4, false);
  EXPECT_TRUE(kinds(k, 1, 5).empty());
}

}  // namespace
}  // namespace gputlm::mem
