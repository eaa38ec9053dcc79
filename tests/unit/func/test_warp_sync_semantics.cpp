// redux.sync, match.sync, elect.sync, and the non-.sync vote and shfl forms (PTX ISA 9.7.13,
// Parallel Synchronization and Communication Instructions). Expected values follow the ISA
// definitions, worked out in the test from the inputs. A member mask here names the lanes a
// lane works with; lanes that do not execute the instruction never take part (warp_ops.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

constexpr unsigned kWarp = 32;

// 64 threads: a = f(tid), b = member mask of the thread.
std::vector<Inputs> inputs(uint64_t (*a)(unsigned), uint32_t mask = 0xFFFFFFFF) {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 64; ++t) in.push_back({a(t), mask, 0});
  return in;
}
std::vector<LaneOut> redux(const std::string& op, const std::vector<Inputs>& in) {
  return run_snippet("redux.sync." + op + " %r1, %ra, %rb;\n cvt.u64.u32 %o, %r1;", in);
}

TEST(WarpSyncSemantics, ReduxSyncAddSumsTheMemberLanes) {
  const auto in = inputs([](unsigned t) -> uint64_t { return t * 3 + 1; });
  const auto out = redux("add.u32", in);
  for (unsigned t = 0; t < 64; ++t) {
    uint32_t sum = 0;
    for (unsigned l = 0; l < kWarp; ++l) sum += (t / kWarp * kWarp + l) * 3 + 1;
    EXPECT_EQ(out[t].o, sum) << t;
  }
  EXPECT_EQ(out[0].o, 1520u);  // 3 * (0 + ... + 31) + 32
}

// a = tid - 16 in warp 0: signed -16..15, unsigned 0xFFFFFFF0.. 15.
TEST(WarpSyncSemantics, ReduxSyncMinMaxCompareByType) {
  const auto in = inputs([](unsigned t) -> uint64_t {
    return static_cast<uint32_t>(static_cast<int>(t % kWarp) - 16);
  });
  EXPECT_EQ(redux("min.s32", in)[3].o, 0xFFFFFFF0u);
  EXPECT_EQ(redux("max.s32", in)[3].o, 15u);
  EXPECT_EQ(redux("min.u32", in)[3].o, 0u);
  EXPECT_EQ(redux("max.u32", in)[3].o, 0xFFFFFFFFu);
}

// a = bit lane | bit 31: and keeps bit 31, or sets all, xor cancels bit 31 (32 times).
TEST(WarpSyncSemantics, ReduxSyncLogicOps) {
  const auto in = inputs([](unsigned t) -> uint64_t { return (1u << (t % kWarp)) | 0x80000000u; });
  EXPECT_EQ(redux("and.b32", in)[7].o, 0x80000000u);
  EXPECT_EQ(redux("or.b32", in)[7].o, 0xFFFFFFFFu);
  EXPECT_EQ(redux("xor.b32", in)[7].o, 0x7FFFFFFFu);
}

// Two groups of 16 lanes, each naming itself: each gets its own group's sum.
TEST(WarpSyncSemantics, ReduxSyncOverPartialMemberMasks) {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 32; ++t) in.push_back({t, t < 16 ? 0x0000FFFFu : 0xFFFF0000u, 0});
  const auto out = redux("add.u32", in);
  EXPECT_EQ(out[0].o, 120u);   // 0 + ... + 15
  EXPECT_EQ(out[31].o, 376u);  // 16 + ... + 31
}

// Only the odd lanes execute; the full member mask then means the executing lanes.
TEST(WarpSyncSemantics, ReduxSyncUnderDivergenceReducesTheExecutingLanes) {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 32; ++t) in.push_back({t, 0xFFFFFFFF, 0});
  const auto out = run_snippet(
      "and.b32 %r2, %tid, 1;\n setp.eq.u32 %q1, %r2, 0;\n @%q1 bra SKIP;\n"
      "redux.sync.add.u32 %r1, %ra, %rb;\n cvt.u64.u32 %o, %r1;\nSKIP:\n",
      in);
  EXPECT_EQ(out[1].o, 256u);  // 1 + 3 + ... + 31
  EXPECT_EQ(out[0].o, 0u);
}

TEST(WarpSyncSemantics, MatchAnyGivesTheLanesWithEqualValues) {
  const auto in = inputs([](unsigned t) -> uint64_t { return t % 3; });
  const auto out = run_snippet("match.any.sync.b32 %r1, %ra, %rb;\n cvt.u64.u32 %o, %r1;", in);
  for (unsigned t = 0; t < 64; ++t) {
    uint32_t want = 0;
    for (unsigned l = 0; l < kWarp; ++l)
      if ((t / kWarp * kWarp + l) % 3 == t % 3) want |= 1u << l;
    EXPECT_EQ(out[t].o, want) << t;
  }
}

// 64-bit values that differ only in their high halves are different.
TEST(WarpSyncSemantics, MatchAnyB64ComparesAll64Bits) {
  const auto in = inputs([](unsigned t) -> uint64_t { return uint64_t(t & 1) << 40; });
  const auto out = run_snippet("match.any.sync.b64 %r1, %a, %rb;\n cvt.u64.u32 %o, %r1;", in);
  EXPECT_EQ(out[0].o, 0x55555555u);
  EXPECT_EQ(out[1].o, 0xAAAAAAAAu);
}

TEST(WarpSyncSemantics, MatchAllSetsTheMaskAndPredicateOnlyWhenAllAgree) {
  const std::string snip = "match.all.sync.b32 %r1|%p, %ra, %rb;\n cvt.u64.u32 %o, %r1;";
  const auto same = run_snippet(snip, inputs([](unsigned) -> uint64_t { return 7; }));
  EXPECT_EQ(same[5].o, 0xFFFFFFFFu);
  EXPECT_TRUE(same[5].p);
  const auto differ =
      run_snippet(snip, inputs([](unsigned t) -> uint64_t { return t == 9 ? 8 : 7; }));
  EXPECT_EQ(differ[5].o, 0u);
  EXPECT_FALSE(differ[5].p);
  EXPECT_EQ(differ[40].o, 0xFFFFFFFFu);  // the second warp agrees
}

TEST(WarpSyncSemantics, ElectSyncPicksOneLeaderAndTellsEveryLaneItsNumber) {
  const auto out = run_snippet("elect.sync %r1|%p, 0xffffffff;\n cvt.u64.u32 %o, %r1;",
                               inputs([](unsigned) -> uint64_t { return 0; }));
  unsigned leaders = 0;
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(out[t].o, 0u) << t;
    leaders += out[t].p;
  }
  EXPECT_EQ(leaders, 1u);
  EXPECT_TRUE(out[0].p);
  EXPECT_TRUE(out[32].p);  // each warp elects its own
}

TEST(WarpSyncSemantics, ElectSyncAmongExecutingLanesWithASinkDestination) {
  const auto out =
      run_snippet("setp.lt.u32 %q1, %tid, 4;\n @%q1 bra SKIP;\n elect.sync _|%p, %rb;\nSKIP:\n",
                  inputs([](unsigned) -> uint64_t { return 0; }, 0xFFFFFFF0));
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(out[t].p, t == 4) << t;
}

// The non-.sync forms (PTX ISA: vote, shfl, deprecated for sm_70 but accepted).
TEST(WarpSyncSemantics, NonSyncVoteAndShflForms) {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 32; ++t) in.push_back({t < 3 ? 1u : 0u, 0, 0});
  const auto out = run_snippet(
      "setp.ne.u32 %q1, %ra, 0;\n vote.ballot.b32 %r1, %q1;\n vote.any.pred %q2, %q1;\n "
      "vote.all.pred %q3, %q1;\n"
      "selp.u32 %r2, 2, 0, %q2;\n selp.u32 %r3, 4, 0, %q3;\n or.b32 %r2, %r2, %r3;\n"
      "shfl.up.b32 %r4|%p, %tid, 1, 0;\n mov.b64 %o, {%r1, %r2};\n @!%p mov.b64 %o, 0;\n",
      in);
  EXPECT_EQ(uint32_t(out[5].o), 0x7u);
  EXPECT_EQ(out[5].o >> 32, 2u);  // any, not all
  EXPECT_TRUE(out[5].p);
  EXPECT_FALSE(out[0].p);  // shfl.up from lane -1: invalid
}

}  // namespace
}  // namespace gputlm::test
