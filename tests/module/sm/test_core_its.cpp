// The "its" reconvergence policy on the SIMT core (narasiman-baseline preset with
// core.reconvergence "its"): an intra-warp spin lock completes, with every lane's critical section
// run once; under "stack" the watchdog names the lanes that spin and the lane they wait for. A
// divergent loop followed by bar.warp.sync costs under "its" exactly the instructions the early
// lanes run ahead before the join (yields themselves take no cycle).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/core_run.h"

namespace gputlm {
namespace {

nlohmann::json config(const char* reconvergence, uint64_t max_warp_instructions = 2'000'000'000) {
  nlohmann::json c = test::preset();
  c["core"]["reconvergence"] = reconvergence;
  c["max_warp_instructions"] = max_warp_instructions;
  return c;
}

TEST(CoreIts, AnIntraWarpSpinLockCompletesWithEachCriticalSectionOnce) {
  const test::CoreRun r = test::run_core(test::kIntraWarpSpinLock, 32, config("its"));
  std::vector<uint64_t> seen;
  for (const test::LaneOut& o : r.out) seen.push_back(o.o);
  std::sort(seen.begin(), seen.end());
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(seen[i], i);  // the counter reached 32
}

TEST(CoreIts, AnIntraWarpSpinLockIsNamedByTheWatchdogUnderStack) {
  std::string fault;
  try {
    test::run_core(test::kIntraWarpSpinLock, 32, config("stack", 20000));
  } catch (const std::exception& e) {
    fault = e.what();
  }
  EXPECT_NE(fault.find("kernel fault in 't': watchdog: more than 20000 warp instructions in one "
                       "launch: warp 0 of CTA (0,0,0): lanes 1-31 spin at PC "),
            std::string::npos)
      << fault;
  EXPECT_NE(fault.find("while lane 0 of the same warp waits below them in the SIMT stack at PC "),
            std::string::npos)
      << fault;
  EXPECT_NE(fault.find("(core.reconvergence \"its\")"), std::string::npos) << fault;
}

// Lanes 0-15 loop n times, lanes 16-31 once; two adds after the loop, then bar.warp.sync.
std::string divergent_loop(unsigned n) {
  return R"(
  setp.lt.u32 %q2, %tid, 16;
  selp.u32 %r5, )" +
         std::to_string(n) + R"(, 1, %q2;
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
$L:
  add.s32 %r2, %r2, 3;
  add.s32 %r1, %r1, 1;
  setp.lt.u32 %q1, %r1, %r5;
  @%q1 bra $L;
  add.s32 %r2, %r2, 100;
  add.s32 %r2, %r2, 100;
  bar.warp.sync -1;
  cvt.u64.u32 %o, %r2;)";
}

TEST(CoreIts, EarlyLanesRunAheadToBarWarpSyncAndYieldsCostNothing) {
  const test::CoreRun s10 = test::run_core(divergent_loop(10), 32, config("stack"));
  const test::CoreRun s20 = test::run_core(divergent_loop(20), 32, config("stack"));
  const test::CoreRun i10 = test::run_core(divergent_loop(10), 32, config("its"));
  const test::CoreRun i20 = test::run_core(divergent_loop(20), 32, config("its"));
  for (const test::CoreRun* r : {&s10, &i10})
    for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(r->out[t].o, t < 16 ? 230u : 203u) << t;
  // 10 more iterations of 4 instructions, 7 cycles each (barrel processing, one warp), under both
  // policies: the back edges' yields under "its" cost no cycle.
  EXPECT_EQ(s20.cycles - s10.cycles, 10u * 4 * 7);
  EXPECT_EQ(i20.cycles - i10.cycles, 10u * 4 * 7);
  // Under "its" lanes 16-31 run the two adds alone before they wait at bar.warp.sync; lanes 0-15
  // run them again.
  EXPECT_EQ(i10.counters.warp_instructions - s10.counters.warp_instructions, 2u);
  EXPECT_EQ(i10.cycles - s10.cycles, 2u * 7);
}

}  // namespace
}  // namespace gputlm
