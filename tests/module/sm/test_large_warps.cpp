// The Large Warp Microarchitecture ("lwm" formation) in a one-core GPU: a jump forms one sub-warp,
// divergent threads are packed within their columns (any lane with the perfect register file),
// predicated instructions are packed on their guard, re-fetch after the first sub-warp keeps a
// large warp's pipeline full, warp-collective instructions act on the logical 32-thread warps.
#include <gtest/gtest.h>

#include "support/core_run.h"

namespace gputlm {
namespace {

using test::CoreRun;

nlohmann::json lwm(const nlohmann::json& options = nlohmann::json::object()) {
  nlohmann::json c = test::preset("lwm256");
  c["core"]["lwm"].merge_patch(options);
  return c;
}

TEST(LargeWarps, AJumpFormsOneSubWarp) {
  const std::string s = "  bra $A;\n$A:\n  cvt.u64.u32 %o, %tid.x;";
  const CoreRun on = test::run_core(s, 256, lwm()),
                off = test::run_core(s, 256, lwm({{"single_jump", false}}));
  EXPECT_EQ(off.counters.simt.subwarps - on.counters.simt.subwarps,
            7u);  // one sub-warp instead of 8
  EXPECT_EQ(on.counters.thread_instructions,
            off.counters.thread_instructions);  // the jump still counts 256 threads
  for (unsigned i = 0; i < 256; ++i) EXPECT_EQ(on.out[i].o, i);
}

// Threads whose predicate holds skip `n` adds; the others run them.
std::string skip_path(const std::string& predicate, unsigned n) {
  std::string s = predicate + "  mov.u32 %r2, 0;\n  @%q1 bra $SKIP;\n";
  for (unsigned i = 0; i < n; ++i) s += "  add.s32 %r2, %r2, 1;\n";
  return s + "$SKIP:\n  cvt.u64.u32 %o, %r2;";
}
// Sub-warps one add of the path costs, from runs with 20 and 10 adds.
uint64_t subwarps_per_add(const std::string& predicate, const nlohmann::json& config) {
  const CoreRun a = test::run_core(skip_path(predicate, 20), 256, config),
                b = test::run_core(skip_path(predicate, 10), 256, config);
  for (unsigned i = 0; i < 256; ++i) EXPECT_EQ(a.out[i].o, a.out[i].o == 0 ? 0u : 20u);
  return (a.counters.simt.subwarps - b.counters.simt.subwarps) / 10;
}

TEST(LargeWarps, DivergentThreadsArePackedOnlyAcrossRowsOfTheirOwnColumn) {
  // Odd threads take the path: every row has the same 16 lanes active, so the column constraint
  // cannot pack two rows into one sub-warp (8 sub-warps of 16 lanes), the perfect register file can
  // (4 of 32).
  const std::string same_columns = "  and.b32 %r1, %tid.x, 1;\n  setp.eq.u32 %q1, %r1, 0;\n";
  EXPECT_EQ(subwarps_per_add(same_columns, lwm()), 8u);
  EXPECT_EQ(subwarps_per_add(same_columns, lwm({{"perfect_register_file", true}})), 4u);
  // The active lanes alternate from row to row: rows pair up into full sub-warps.
  const std::string alternating =
      "  shr.u32 %r1, %tid.x, 5;\n  add.u32 %r1, %r1, %tid.x;\n  and.b32 %r1, %r1, 1;\n  "
      "setp.eq.u32 %q1, %r1, 0;\n";
  EXPECT_EQ(subwarps_per_add(alternating, lwm()), 4u);
}

TEST(LargeWarps, PredicatedInstructionsArePackedOnTheirGuard) {
  // 20 guarded adds, the guard holding for alternating lanes from row to row.
  auto kernel = [](unsigned n) {
    std::string s =
        "  shr.u32 %r1, %tid.x, 5;\n  add.u32 %r1, %r1, %tid.x;\n  and.b32 %r1, %r1, 1;\n  "
        "setp.eq.u32 %q1, %r1, 1;\n  mov.u32 %r2, 0;\n";
    for (unsigned i = 0; i < n; ++i) s += "  @%q1 add.s32 %r2, %r2, 1;\n";
    return s + "  cvt.u64.u32 %o, %r2;";
  };
  auto per_add = [&](const nlohmann::json& c) {
    const CoreRun a = test::run_core(kernel(20), 256, c), b = test::run_core(kernel(10), 256, c);
    EXPECT_EQ(a.out[1].o, 20u);
    EXPECT_EQ(a.out[0].o, 0u);
    EXPECT_EQ(a.counters.thread_instructions - b.counters.thread_instructions,
              10u * 256);  // guard-false threads still count
    return (a.counters.simt.subwarps - b.counters.simt.subwarps) / 10;
  };
  EXPECT_EQ(per_add(lwm()), 4u);
  EXPECT_EQ(per_add(lwm({{"pack_predicated", false}})), 8u);
}

TEST(LargeWarps, RefetchAfterTheFirstSubWarpKeepsOneLargeWarpsPipelineFull) {
  // One large warp of ALU code (the IPC of 50 more loop iterations): re-fetched once its first
  // sub-warp completes, it issues a sub-warp nearly every cycle (8 cycles an instruction, 6 more
  // for the loop branch, which waits for all sub-warps); re-fetched only after all eight (MICRO
  // 2011 Sec. 3.3) it waits for the pipeline to drain after each instruction (8 + 6 cycles).
  auto ipc = [](const nlohmann::json& c) {
    const CoreRun a = test::run_core(test::alu_loop(100), 256, c),
                  b = test::run_core(test::alu_loop(50), 256, c);
    EXPECT_EQ(a.out[3].o, 1 + 3 * 8 * 100u);
    return double(a.counters.thread_instructions - b.counters.thread_instructions) /
           double(a.cycles - b.cycles);
  };
  EXPECT_GT(ipc(lwm()), 28.0);
  EXPECT_LT(ipc(lwm({{"refetch", "all"}})), 19.0);
}

TEST(LargeWarps, WarpCollectiveInstructionsActOnTheLogicalWarpsOf32Threads) {
  // Each logical warp's ballot sees only its own threads on the path, however the large warp
  // packs the rest.
  const std::string s = test::diverged_ballot();
  const CoreRun large = test::run_core(s, 256, lwm()), base = test::run_core(s, 256);
  for (unsigned t = 0; t < 256; ++t) {
    uint32_t expect = 0;
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned u = t / 32 * 32 + l;
      if (u % 3 != 0 && u % 5 == 0) expect |= 1u << l;
    }
    EXPECT_EQ(large.out[t].o, t % 3 == 0 ? 0u : expect) << t;
    EXPECT_EQ(large.out[t].o, base.out[t].o) << t;
  }
}

TEST(LargeWarps, AConfigWithLargeWarpsAndScoreboardIssueIsRefused) {
  nlohmann::json c = lwm();
  c["core"]["issue"] = "scoreboard";
  const std::string error = test::config_error(c);
  EXPECT_NE(error.find("core.issue"), std::string::npos) << error;
}

}  // namespace
}  // namespace gputlm
