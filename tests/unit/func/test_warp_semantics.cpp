// Warp-collective semantics (PTX ISA 9.7.12): vote (ballot/all/any/uni) over full warps and
// under divergence, activemask, and shfl.sync up/down/bfly/idx with the clamp/segment operand
// and the validity predicate. Expected values come from the PTX definitions:
//   maxLane = (lane & segmask) | (c & ~segmask), minLane = lane & segmask, segmask = c[12:8].
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

constexpr unsigned kWarp = 32;

// Per warp: the mask of its lanes whose `bit(thread)` holds.
std::vector<uint32_t> warp_masks(const std::vector<Inputs>& in, bool (*bit)(const Inputs&)) {
  std::vector<uint32_t> m((in.size() + kWarp - 1) / kWarp, 0);
  for (size_t t = 0; t < in.size(); ++t)
    if (bit(in[t])) m[t / kWarp] |= 1u << (t % kWarp);
  return m;
}

// Three warps: mixed predicates, all true, all false.
std::vector<Inputs> vote_inputs() {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 96; ++t) {
    const unsigned w = t / kWarp, lane = t % kWarp;
    const bool pred = w == 0 ? ((lane * 5 + 3) % 7) < 3 : w == 1;
    in.push_back({pred ? 1u : 0u, 0, 0});
  }
  return in;
}

TEST(WarpSemantics, VoteOverFullWarps) {
  const auto in = vote_inputs();
  const std::string snip =
      "setp.ne.u32 %q1, %ra, 0;\n"
      "vote.sync.ballot.b32 %r1, %q1, 0xffffffff;\n vote.sync.all.pred %q2, %q1, 0xffffffff;\n"
      "vote.sync.any.pred %q3, %q1, 0xffffffff;\n vote.sync.uni.pred %p, %q1, 0xffffffff;\n"
      "vote.sync.ballot.b32 %r4, !%q1, 0xffffffff;\n"
      "selp.u32 %r2, 1, 0, %q2;\n selp.u32 %r3, 2, 0, %q3;\n or.b32 %r2, %r2, %r3;\n"
      "shl.b32 %r5, %r4, 0;\n xor.b32 %r5, %r5, %r1;\n setp.eq.u32 %q0, %r5, -1;\n"  // !q ballot is
                                                                                     // the
                                                                                     // complement
      "selp.u32 %r3, 4, 0, %q0;\n or.b32 %r2, %r2, %r3;\n mov.b64 %o, {%r1, %r2};";
  const auto out = run_snippet(snip, in);
  const auto ballot = warp_masks(in, [](const Inputs& x) { return x[0] != 0; });
  ASSERT_NE(ballot[0], 0u);
  ASSERT_NE(ballot[0], 0xFFFFFFFFu);
  for (size_t t = 0; t < in.size(); ++t) {
    const uint32_t b = ballot[t / kWarp];
    const bool all = b == 0xFFFFFFFF, any = b != 0, uni = all || !any;
    EXPECT_EQ(uint32_t(out[t].o), b) << "ballot, thread " << t;
    EXPECT_EQ(out[t].o >> 32, (all ? 1u : 0u) | (any ? 2u : 0u) | 4u)
        << "all/any/!ballot, thread " << t;
    EXPECT_EQ(out[t].p, uni) << "uni, thread " << t;
  }
}

// Lanes with b != 0 take part (the others branch around); a is the vote predicate.
std::vector<Inputs> divergent_inputs() {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 96; ++t) {
    const unsigned w = t / kWarp, lane = t % kWarp;
    bool active, pred;
    if (w == 0)
      active = lane & 1, pred = (lane % 3) == 0;  // mixed among odd lanes
    else if (w == 1)
      active = lane < 10, pred = lane < 10;  // true on every active lane only
    else
      active = lane >= 5 && lane <= 20,
      pred = !(lane >= 5 && lane <= 20);  // false on every active lane only
    in.push_back({pred ? 1u : 0u, active ? 1u : 0u, 0});
  }
  return in;
}
std::string divergent(const std::string& body) {
  return "setp.ne.u32 %q1, %ra, 0;\n setp.eq.u32 %q2, %rb, 0;\n @%q2 bra SKIP;\n activemask.b32 "
         "%r3;\n" +
         body + "\nSKIP:\n";
}

TEST(WarpSemantics, VoteUnderDivergenceSeesOnlyTheActiveLanes) {
  const auto in = divergent_inputs();
  const auto masks =
      run_snippet(divergent("vote.sync.ballot.b32 %r1, %q1, %r3;\n mov.b64 %o, {%r1, %r3};"), in);
  const auto votes = run_snippet(
      divergent("vote.sync.all.pred %q3, %q1, %r3;\n vote.sync.uni.pred %q0, %q1, %r3;\n"
                "vote.sync.any.pred %p, %q1, %r3;\n selp.u32 %r1, 1, 0, %q3;\n"
                "selp.u32 %r2, 2, 0, %q0;\n or.b32 %r1, %r1, %r2;\n cvt.u64.u32 %o, %r1;"),
      in);
  const auto active = warp_masks(in, [](const Inputs& x) { return x[1] != 0; });
  const auto yes = warp_masks(in, [](const Inputs& x) { return x[0] != 0 && x[1] != 0; });
  EXPECT_EQ(active[0], 0xAAAAAAAAu);
  for (size_t t = 0; t < in.size(); ++t) {
    if (in[t][1] == 0) {  // skipped: outputs untouched
      EXPECT_EQ(masks[t].o, 0u) << t;
      EXPECT_FALSE(votes[t].p) << t;
      continue;
    }
    const uint32_t act = active[t / kWarp], b = yes[t / kWarp];
    EXPECT_EQ(masks[t].o, uint64_t(b) | (uint64_t(act) << 32)) << "ballot/activemask, thread " << t;
    const bool all = b == act, any = b != 0, uni = all || !any;
    EXPECT_EQ(votes[t].o, (all ? 1u : 0u) | (uni ? 2u : 0u)) << "all/uni, thread " << t;
    EXPECT_EQ(votes[t].p, any) << "any, thread " << t;
  }
  // Warp 1: every active lane votes true although inactive lanes would not: all is true.
  EXPECT_EQ(votes[32].o & 1, 1u);
  // Warp 2: no active lane votes true although inactive ones would: any is false, uni true.
  EXPECT_FALSE(votes[70].p);
  EXPECT_EQ(votes[70].o & 2, 2u);
}

TEST(WarpSemantics, ActivemaskFollowsDivergenceAndReconvergence) {
  // 40 threads: warp 0 splits at tid 5, warp 1 has only 8 threads and does not split.
  const std::string snip =
      "setp.lt.u32 %q1, %tid, 5;\n @%q1 bra A;\n activemask.b32 %r1;\n bra J;\n"
      "A:\n activemask.b32 %r1;\n"
      "J:\n activemask.b32 %r2;\n mov.b64 %o, {%r1, %r2};";
  const auto out = run_snippet(snip, std::vector<Inputs>(40, Inputs{0, 0, 0}));
  for (unsigned t = 0; t < 40; ++t) {
    const uint32_t inner = t < 5 ? 0x1Fu : t < 32 ? 0xFFFFFFE0u : 0xFFu;
    const uint32_t after = t < 32 ? 0xFFFFFFFFu : 0xFFu;
    EXPECT_EQ(uint32_t(out[t].o), inner) << "inside, thread " << t;
    EXPECT_EQ(uint32_t(out[t].o >> 32), after) << "after reconvergence, thread " << t;
  }
}

enum class Mode { Up, Down, Bfly, Idx };

// The PTX shfl definition for one thread; returns {value, predicate}.
std::pair<uint32_t, bool> shfl_ref(Mode m, const std::vector<Inputs>& in, unsigned tid) {
  const unsigned lane = tid % kWarp;
  const uint32_t b = uint32_t(in[tid][1]), c = uint32_t(in[tid][2]);
  const int bval = b & 31, cval = c & 31, seg = (c >> 8) & 31;
  const int max_lane = (int(lane) & seg) | (cval & ~seg), min_lane = int(lane) & seg;
  int j = 0;
  bool p = false;
  switch (m) {
    case Mode::Up:
      j = int(lane) - bval;
      p = j >= max_lane;
      break;
    case Mode::Down:
      j = int(lane) + bval;
      p = j <= max_lane;
      break;
    case Mode::Bfly:
      j = int(lane) ^ bval;
      p = j <= max_lane;
      break;
    case Mode::Idx:
      j = min_lane | (bval & ~seg);
      p = j <= max_lane;
      break;
  }
  if (!p) j = int(lane);
  return {uint32_t(in[tid - lane + unsigned(j)][0]), p};
}

std::vector<LaneOut> shfl(const char* mode, const std::vector<Inputs>& in) {
  return run_snippet(std::string("shfl.sync.") + mode +
                         ".b32 %r1|%p, %ra, %rb, %rc, 0xffffffff;\n cvt.u64.u32 %o, %r1;",
                     in);
}
// 64 threads, value 1000 + tid, the same b and c everywhere (or b from `bfn`).
std::vector<Inputs> shfl_inputs(uint32_t b, uint32_t c, uint32_t (*bfn)(unsigned) = nullptr) {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < 64; ++t) in.push_back({1000u + t, bfn ? bfn(t) : b, c});
  return in;
}

TEST(WarpSemantics, ShflModesFollowTheLaneFormula) {
  struct Case {
    const char* name;
    Mode m;
    uint32_t b, c;
  };
  const std::vector<Case> cases = {
      {"up", Mode::Up, 1, 0},          {"up", Mode::Up, 3, 0},
      {"up", Mode::Up, 3, 0x1800},     {"up", Mode::Up, 5, 0x1C00},
      {"up", Mode::Up, 0, 0},          {"up", Mode::Up, 2, 0x1F},
      {"down", Mode::Down, 1, 0x1F},   {"down", Mode::Down, 3, 0x181F},
      {"down", Mode::Down, 16, 0x1F},  {"down", Mode::Down, 31, 0x1F},
      {"down", Mode::Down, 2, 0x0F},   {"down", Mode::Down, 33, 0x1F},
      {"bfly", Mode::Bfly, 1, 0x1F},   {"bfly", Mode::Bfly, 16, 0x1F},
      {"bfly", Mode::Bfly, 8, 0x181F}, {"bfly", Mode::Bfly, 3, 0x1C1F},
      {"bfly", Mode::Bfly, 12, 0x0F},  {"idx", Mode::Idx, 0, 0x1F},
      {"idx", Mode::Idx, 5, 0x1F},     {"idx", Mode::Idx, 31, 0x1F},
      {"idx", Mode::Idx, 2, 0x181F},   {"idx", Mode::Idx, 7, 0x1C1F},
      {"idx", Mode::Idx, 20, 0x0F},
  };
  for (const Case& k : cases) {
    const auto in = shfl_inputs(k.b, k.c);
    const auto out = shfl(k.name, in);
    int bad = 0;
    for (unsigned t = 0; t < in.size(); ++t) {
      const auto [v, p] = shfl_ref(k.m, in, t);
      if ((out[t].o != v || out[t].p != p) && ++bad <= 4)
        ADD_FAILURE() << "shfl." << k.name << " b=" << k.b << " c=0x" << std::hex << k.c << std::dec
                      << " thread " << t << ": got " << out[t].o << "/" << out[t].p << " want " << v
                      << "/" << p;
    }
  }
  // Per-thread lane indices: an arbitrary gather within each warp.
  const auto in = shfl_inputs(0, 0x1F, [](unsigned t) { return (t * 7 + 3) % 32; });
  const auto out = shfl("idx", in);
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t].o, 1000u + (t / 32) * 32 + (t * 7 + 3) % 32) << t;
    EXPECT_TRUE(out[t].p) << t;
  }
}

TEST(WarpSemantics, ShflSpotValues) {
  auto at = [](const char* mode, uint32_t b, uint32_t c, unsigned t) {
    const auto out = shfl(mode, shfl_inputs(b, c));
    return std::make_pair(out[t].o, out[t].p);
  };
  using R = std::pair<uint64_t, bool>;
  EXPECT_EQ(at("down", 1, 0x1F, 0), R(1001, true));
  EXPECT_EQ(at("down", 1, 0x1F, 31), R(1031, false));  // past the last lane: own value
  EXPECT_EQ(at("down", 1, 0x1F, 63), R(1063, false));  // second warp stays in its warp
  EXPECT_EQ(at("down", 1, 0x1F, 40), R(1041, true));
  EXPECT_EQ(at("up", 1, 0, 0), R(1000, false));
  EXPECT_EQ(at("up", 1, 0, 5), R(1004, true));
  EXPECT_EQ(at("up", 1, 0, 32), R(1032, false));
  EXPECT_EQ(at("bfly", 1, 0x1F, 4), R(1005, true));
  EXPECT_EQ(at("idx", 5, 0x1F, 17), R(1005, true));
  EXPECT_EQ(at("idx", 5, 0x1F, 49), R(1037, true));
  // Segments of 8 lanes (c = 0x181f / 0x1800): lane 13 lives in segment 8..15.
  EXPECT_EQ(at("down", 3, 0x181F, 13), R(1013, false));  // 16 is past the segment
  EXPECT_EQ(at("down", 3, 0x181F, 10), R(1013, true));
  EXPECT_EQ(at("up", 3, 0x1800, 9), R(1009, false));  // 6 is before the segment
  EXPECT_EQ(at("up", 3, 0x1800, 13), R(1010, true));
  EXPECT_EQ(at("idx", 2, 0x181F, 13), R(1010, true));  // lane 2 of its segment
  EXPECT_EQ(at("bfly", 4, 0x181F, 13), R(1009, true));
}

}  // namespace
}  // namespace gputlm::test
