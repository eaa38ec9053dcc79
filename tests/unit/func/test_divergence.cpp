// Divergence and reconvergence as executed by the functional engine, and the faults of a
// kernel that can never finish (divergent barrier, endless loop).
#include <gtest/gtest.h>

#include "models/func/cta_runner.h"
#include "models/func/reference_executor.h"
#include "support/ptx_harness.h"

namespace gputlm::func {
namespace {

using test::Inputs;

std::vector<Inputs> lanes_with_a(unsigned n, uint64_t (*f)(unsigned)) {
  std::vector<Inputs> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = {f(i), 0, 0};
  return in;
}

TEST(Divergence, EachLaneTakesItsOwnNestedPath) {
  // o = a < 16 ? (a < 8 ? 1 : 2) : (a & 1 ? 3 : 4), computed with branches.
  const char* snippet = R"(
  setp.lt.u32 %q1, %ra, 16;
  @!%q1 bra $HI;
  setp.lt.u32 %q2, %ra, 8;
  @%q2 bra $A;
  mov.b64 %o, 2;
  bra $J;
$A:
  mov.b64 %o, 1;
  bra $J;
$HI:
  and.b32 %r1, %ra, 1;
  setp.eq.u32 %q2, %r1, 1;
  selp.u32 %r2, 3, 4, %q2;
  cvt.u64.u32 %o, %r2;
$J:
  add.s64 %o, %o, 100;)";
  auto out = test::run_snippet(snippet, lanes_with_a(32, [](unsigned i) -> uint64_t { return i; }));
  for (unsigned i = 0; i < 32; ++i) {
    const uint64_t want = 100 + (i < 16 ? (i < 8 ? 1 : 2) : (i & 1 ? 3 : 4));
    EXPECT_EQ(out[i].o, want) << "lane " << i;
  }
}

TEST(Divergence, LoopTripCountsDifferPerLaneAndTheWarpReconverges) {
  // o = sum of 1..a, then (after the loop) every lane adds 1000: all lanes must reach it.
  const char* snippet = R"(
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
$L:
  setp.ge.u32 %q1, %r1, %ra;
  @%q1 bra $DONE;
  add.s32 %r1, %r1, 1;
  add.s32 %r2, %r2, %r1;
  bra $L;
$DONE:
  add.s32 %r2, %r2, 1000;
  cvt.u64.u32 %o, %r2;)";
  FuncStats stats;
  auto out = test::run_snippet(snippet, lanes_with_a(32, [](unsigned i) -> uint64_t { return i; }),
                               &stats);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(out[i].o, 1000 + i * (i + 1) / 2) << "lane " << i;
  EXPECT_LT(stats.average_active_lanes(), 30.0);    // the loop ran with a shrinking mask
  EXPECT_EQ(stats.active_histogram[32] > 0, true);  // and the warp was full again after it
}

// Runs the launch's CTA 0 step by step: (instruction text, active lanes) of its warp 0, in order.
std::vector<std::pair<std::string, uint32_t>> steps_of_warp_0(test::SnippetLaunch& run) {
  const isa::Kernel& k = *run.launch.kernel;
  CtaRunner cta(*run.bound, run.launch, 0);
  FuncStats stats;
  std::vector<std::pair<std::string, uint32_t>> trace;
  while (!cta.done()) {
    const uint32_t pc = cta.warps()[0].stack.pc();
    const uint32_t mask = cta.warps()[0].stack.mask();
    cta.step(stats);
    trace.emplace_back(k.text[pc], mask);
  }
  return trace;
}

TEST(Divergence, TakenPathRunsFirstAndMasksRejoinAtThePostDominator) {
  test::SnippetLaunch run(R"(
  setp.lt.u32 %q1, %tid, 4;
  @%q1 bra $T;
  mov.b64 %o, 1;
  bra $J;
$T:
  mov.b64 %o, 2;
$J:
  add.s64 %o, %o, 1;)",
                          std::vector<Inputs>(32));
  const std::vector<std::pair<std::string, uint32_t>> trace = steps_of_warp_0(run);
  auto index_of = [&](const std::string& text) {
    for (size_t i = 0; i < trace.size(); ++i)
      if (trace[i].first == text) return i;
    return trace.size();
  };
  const size_t taken = index_of("mov.b64 %o, 2;"), not_taken = index_of("mov.b64 %o, 1;"),
               join = index_of("add.s64 %o, %o, 1;");
  ASSERT_LT(join, trace.size());
  EXPECT_LT(taken, not_taken);
  EXPECT_LT(not_taken, join);
  EXPECT_EQ(trace[taken].second, 0x0000000Fu);
  EXPECT_EQ(trace[not_taken].second, 0xFFFFFFF0u);
  EXPECT_EQ(trace[join].second, 0xFFFFFFFFu);
}

// brx.idx (PTX ISA 9.7.12.4): o = 100 + table[a % 5] for a % 5 < 4 (the guard), else 100 + 9;
// one path per distinct target, in the order of their lowest lane, all meeting at $J.
constexpr const char* kIndexedBranch = R"(
  rem.u32 %r1, %ra, 5;
  setp.lt.u32 %q1, %r1, 4;
  $T: .branchtargets $C2, $C0, $C1, $C0;
  mov.b64 %o, 9;
  @%q1 brx.idx %r1, $T;
  bra $J;
$C0:
  mov.b64 %o, 10;
  bra $J;
$C1:
  mov.b64 %o, 11;
  bra.uni $J;
$C2:
  mov.b64 %o, 12;
$J:
  add.s64 %o, %o, 100;)";

TEST(Divergence, IndexedBranchSendsEachLaneToItsEntryOfTheList) {
  test::SnippetLaunch run(kIndexedBranch,
                          lanes_with_a(32, [](unsigned i) -> uint64_t { return i; }));
  const std::vector<std::pair<std::string, uint32_t>> trace = steps_of_warp_0(run);
  const std::vector<test::LaneOut> out = run.outputs();
  const uint64_t table[4] = {12, 10, 11, 10};
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(out[i].o, 100 + (i % 5 < 4 ? table[i % 5] : 9)) << "lane " << i;
  auto lanes_where = [](auto pred) {
    uint32_t m = 0;
    for (unsigned i = 0; i < 32; ++i) m |= pred(i) ? 1u << i : 0;
    return m;
  };
  // Each path once, with exactly its lanes, then the whole warp at the post-dominator.
  std::vector<std::pair<std::string, uint32_t>> paths;
  for (const auto& [text, mask] : trace)
    if (text.rfind("mov.b64 %o, 1", 0) == 0 || text.rfind("add.s64 %o,", 0) == 0 ||
        text == "bra $J;")
      paths.emplace_back(text, mask);
  const std::vector<std::pair<std::string, uint32_t>> want = {
      {"mov.b64 %o, 12;", lanes_where([](unsigned i) { return i % 5 == 0; })},
      {"mov.b64 %o, 10;", lanes_where([](unsigned i) { return i % 5 == 1 || i % 5 == 3; })},
      {"bra $J;", lanes_where([](unsigned i) { return i % 5 == 1 || i % 5 == 3; })},
      {"mov.b64 %o, 11;", lanes_where([](unsigned i) { return i % 5 == 2; })},
      {"bra $J;", lanes_where([](unsigned i) { return i % 5 == 4; })},
      {"add.s64 %o, %o, 100;", 0xFFFFFFFFu}};
  EXPECT_EQ(paths, want);
}

TEST(Divergence, IndexedBranchOfOneTargetDoesNotDiverge) {
  FuncStats stats;
  auto out = test::run_snippet(kIndexedBranch,
                               lanes_with_a(32, [](unsigned) -> uint64_t { return 7; }), &stats);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(out[i].o, 111u) << "lane " << i;
  EXPECT_EQ(stats.active_histogram[32],
            stats.warp_instructions);  // every instruction ran with the whole warp
}

TEST(Divergence, IndexedBranchPastItsListIsAFaultNamingTheIndex) {
  try {
    test::run_snippet(R"(
  $T: .branchtargets $A, $B;
  brx.idx %tid, $T;
$A:
  mov.b64 %o, 1;
$B:
  mov.b64 %o, 2;)",
                      std::vector<Inputs>(32));
    FAIL() << "an index past the list ran";
  } catch (const KernelFault& f) {
    const std::string m = f.what();
    EXPECT_NE(m.find("brx.idx index 2 is past the end of its .branchtargets list (2 labels)"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("thread (2,0,0)"), std::string::npos) << m;
  }
}

TEST(Divergence, LanesThatReturnEarlyDoNotBlockTheOthers) {
  auto out = test::run_snippet(R"(
  setp.lt.u32 %q1, %ra, 5;
  @%q1 bra $KEEP;
  ret;
$KEEP:
  mov.b64 %o, 7;)",
                               lanes_with_a(32, [](unsigned i) -> uint64_t { return i; }));
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(out[i].o, i < 5 ? 7u : 0u) << "lane " << i;
}

TEST(Barrier, WarpsWaitForEachOtherAtBarSync) {
  // Thread t writes t to shared memory, syncs, then reads its neighbour's slot.
  auto out = test::run_snippet(R"(
  .shared .align 4 .b8 buf[512];
  shl.b32 %r1, %tid, 2;
  mov.u32 %r2, buf;
  add.s32 %r3, %r2, %r1;
  st.shared.u32 [%r3], %tid;
  bar.sync 0;
  add.s32 %r4, %tid, 1;
  and.b32 %r4, %r4, 127;
  shl.b32 %r4, %r4, 2;
  add.s32 %r4, %r2, %r4;
  ld.shared.u32 %r5, [%r4];
  cvt.u64.u32 %o, %r5;)",
                               std::vector<Inputs>(128));
  for (unsigned i = 0; i < 128; ++i) EXPECT_EQ(out[i].o, (i + 1) % 128) << "thread " << i;
}

TEST(Barrier, BarrierInDivergentCodeIsAFaultNamingTheBarrier) {
  try {
    test::run_snippet(R"(
  setp.lt.u32 %q1, %tid, 16;
  @%q1 bra $SKIP;
  bar.sync 0;
$SKIP:
  mov.b64 %o, 1;)",
                      std::vector<Inputs>(32));
    FAIL() << "divergent barrier completed";
  } catch (const KernelFault& f) {
    const std::string m = f.what();
    EXPECT_NE(m.find("barrier 0 can never complete: 16 of 32 threads arrived"), std::string::npos)
        << m;
    EXPECT_NE(m.find("kernel fault in 't'"), std::string::npos) << m;
    EXPECT_NE(
        m.find("16 threads of the waiting warps are on other paths: a barrier in divergent code"),
        std::string::npos)
        << m;
    EXPECT_NE(m.find("CTA (0,0,0), thread 16"), std::string::npos) << m;
    EXPECT_NE(m.find("`bar.sync 0;`"), std::string::npos) << m;
  }
}

TEST(Barrier, ExitedThreadsCountAsArrived) {
  auto out = test::run_snippet(R"(
  setp.ge.u32 %q1, %tid, 32;
  @%q1 ret;
  bar.sync 0;
  mov.b64 %o, 5;)",
                               std::vector<Inputs>(64));
  EXPECT_EQ(out[0].o, 5u);
  EXPECT_EQ(out[40].o, 0u);
}

TEST(Watchdog, EndlessLoopIsReportedNotHung) {
  test::SnippetLaunch run("$SPIN:\n  bra $SPIN;", std::vector<Inputs>(32));
  ReferenceOptions opts;
  opts.max_warp_instructions = 10000;
  try {
    run_reference(*run.bound, run.launch, opts);
    FAIL() << "endless loop finished";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("watchdog: more than 10000 warp instructions"),
              std::string::npos)
        << f.what();
  }
}

}  // namespace
}  // namespace gputlm::func
