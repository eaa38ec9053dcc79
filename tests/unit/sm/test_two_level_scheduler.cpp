// Two-level round-robin warp scheduling ("2lev", Narasiman MICRO 2011 Sec. 4): round-robin inside
// the prioritised fetch group, lower groups only when it has no eligible warp, and a fetch-group
// switch exactly when every live warp of the prioritised group waits on a long-latency operation.
#include <gtest/gtest.h>

#include "models/sm/scheduler/warp_scheduler.h"

namespace gputlm::sm {
namespace {

std::unique_ptr<IWarpScheduler> two_level(uint32_t slots, uint32_t group, uint64_t timeout = 0) {
  SchedulerParams p;
  p.slots = slots;
  p.fetch_group_size = group;
  p.group_timeout = timeout;
  p.long_latency_cycles = 2;
  return make_warp_scheduler("2lev", p);
}

std::vector<WarpSlot> ready(size_t n) {
  std::vector<WarpSlot> v(n);
  for (auto& w : v) w.status = WarpSlot::Status::Ready;
  return v;
}

void wait_memory(WarpSlot& w, Cycle since) {
  w.waiting_memory = true;
  w.waiting_since = since;
}

TEST(TwoLevelScheduler, RoundRobinInsideThePrioritisedGroupOnly) {
  auto s = two_level(16, 4);
  const auto v = ready(16);
  const SlotSet all = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(s->pick(all, v, 0), 0u);
  EXPECT_EQ(s->pick(all, v, 1), 1u);
  EXPECT_EQ(s->pick(all, v, 2), 2u);
  EXPECT_EQ(s->pick(all, v, 3), 3u);
  EXPECT_EQ(s->pick(all, v, 4), 0u);  // wraps inside group 0; groups 1-3 wait
  EXPECT_EQ(s->pick({1, 3, 5}, v, 5), 1u);
  EXPECT_EQ(s->pick({1, 3, 5}, v, 6), 3u);
  EXPECT_EQ(s->prioritized_group(), 0u);
  EXPECT_EQ(s->group_switches(), 0u);
}

TEST(TwoLevelScheduler, ALowerGroupIssuesWhenThePrioritisedOneHasNoEligibleWarp) {
  auto s = two_level(16, 4);
  const auto v = ready(16);  // group 0's warps are in the pipeline (not eligible), not stalled
  EXPECT_EQ(s->pick({6, 9}, v, 0), 6u);
  EXPECT_EQ(s->pick({9, 13}, v, 1), 9u);
  EXPECT_EQ(s->prioritized_group(), 0u);  // no switch: group 0 is not stalled on memory
  EXPECT_EQ(s->group_switches(), 0u);
}

TEST(TwoLevelScheduler, SwitchesExactlyWhenEveryLiveWarpOfTheGroupWaitsOnALongLatencyOperation) {
  auto s = two_level(16, 4);
  auto v = ready(16);
  const SlotSet rest = {4, 5, 6, 7, 8, 12};
  // Three of group 0's four warps wait on misses: no switch, group 0 keeps priority.
  for (uint32_t w : {0u, 1u, 2u}) wait_memory(v[w], 0);
  EXPECT_EQ(s->pick(rest, v, 10), 4u);
  EXPECT_EQ(s->prioritized_group(), 0u);
  // The fourth waits too, but only for an L1 hit's time so far: still no switch.
  wait_memory(v[3], 9);
  EXPECT_EQ(s->pick(rest, v, 10), 5u);
  EXPECT_EQ(s->prioritized_group(), 0u);
  EXPECT_EQ(s->group_switches(), 0u);
  // Once its wait is long-latency too, the whole group is stalled: group 1 becomes first and is
  // scheduled round-robin from its own pointer (after 5, picked last); group 0 becomes last.
  EXPECT_EQ(s->pick(rest, v, 12), 6u);
  EXPECT_EQ(s->prioritized_group(), 1u);
  EXPECT_EQ(s->group_switches(), 1u);
  // Group 0's warps come back while group 1 still has warps to run: group 1 keeps priority.
  for (uint32_t w : {0u, 1u, 2u, 3u}) v[w].waiting_memory = false;
  EXPECT_EQ(s->pick({0, 1, 5}, v, 13), 5u);
  EXPECT_EQ(s->prioritized_group(), 1u);
  // Group 1 stalls in turn: the priority rotates on to group 2 (not back to group 0).
  for (uint32_t w : {4u, 5u, 6u, 7u}) wait_memory(v[w], 13);
  EXPECT_EQ(s->pick({0, 8, 12}, v, 20), 8u);
  EXPECT_EQ(s->prioritized_group(), 2u);
  EXPECT_EQ(s->group_switches(), 2u);
}

TEST(TwoLevelScheduler, AWarpThatCanBeFetchedAgainIsNotStalledWhileItsSubWarpsWaitForMemory) {
  // LWM256+2Lev1: a large warp per group. Its first sub-warp has completed, so it may be fetched
  // again (it is a candidate, waiting a cycle for writeback), while later sub-warps of the same
  // instruction wait on misses: it can still be scheduled, so its group keeps priority.
  auto s = two_level(4, 1);
  auto v = ready(4);
  wait_memory(v[0], 0);
  const SlotSet fetchable = {0, 1, 2, 3};
  EXPECT_EQ(s->pick({1, 2, 3}, fetchable, v, 100), 1u);  // slot 0 waits for time: group 1 issues
  EXPECT_EQ(s->prioritized_group(), 0u);
  EXPECT_EQ(s->group_switches(), 0u);
  // Once it cannot be fetched (its next instruction's threads all wait), it is stalled.
  EXPECT_EQ(s->pick({1, 2, 3}, SlotSet{1, 2, 3}, v, 101), 1u);
  EXPECT_EQ(s->prioritized_group(), 1u);
  EXPECT_EQ(s->group_switches(), 1u);
}

TEST(TwoLevelScheduler, AGroupWithoutLiveWarpsGivesUpItsPriority) {
  auto s = two_level(16, 4);
  auto v = ready(16);
  for (uint32_t w : {0u, 1u, 2u, 3u}) v[w].status = WarpSlot::Status::Done;
  for (uint32_t w : {4u, 5u}) v[w].status = WarpSlot::Status::Free;
  for (uint32_t w : {6u, 7u}) wait_memory(v[w], 0);
  EXPECT_EQ(s->pick({9, 14}, v, 10), 9u);  // group 0 is finished, group 1 stalled: group 2 first
  EXPECT_EQ(s->prioritized_group(), 2u);
}

// The dissertation's timeout counts instructions (Sec. 4.4): a pick is one instruction fetched,
// however many sub-warps a large warp then forms from it (those are formed without a pick).
TEST(TwoLevelScheduler, TimeoutForcesASwitchAfterThatManyFetchesFromOneGroup) {
  auto s = two_level(8, 4, 3);
  const auto v = ready(8);
  const SlotSet all = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(s->pick(all, v, 0), 0u);
  EXPECT_EQ(s->pick(all, v, 1), 1u);
  EXPECT_EQ(s->pick(all, v, 2), 2u);
  EXPECT_EQ(s->pick(all, v, 3), 4u);  // three fetches from group 0: group 1 gets priority
  EXPECT_EQ(s->prioritized_group(), 1u);
  EXPECT_EQ(s->group_switches(), 1u);
}

TEST(TwoLevelScheduler, OneGroupOfAllWarpsIsPlainRoundRobin) {
  auto two = two_level(8, 8), rr = make_warp_scheduler("rr", 8);
  auto v = ready(8);
  for (const SlotSet& e :
       std::vector<SlotSet>{{1, 3, 6}, {1, 3, 6}, {0, 7}, {2, 5}, {0, 1, 2}, {7}})
    EXPECT_EQ(two->pick(e, v, 0), rr->pick(e, v, 0));
}

}  // namespace
}  // namespace gputlm::sm
