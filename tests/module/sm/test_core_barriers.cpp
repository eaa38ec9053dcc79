// Barriers on the SIMT core (PTX ISA: bar, barrier): bar.red's result is the same in timed runs as on
// the functional engine, for the static warps of the baseline, the scoreboard core and the
// regrouping formations (large warps, thread-block compaction); bar.arrive does not wait.
#include <gtest/gtest.h>

#include <exception>
#include <string>
#include <vector>

#include "support/core_run.h"

namespace gputlm {
namespace {

using test::Inputs;

// bar.red.popc over 96 threads whose predicate is a % 3 == 0 (32 of them), bar.red.or of a == 77.
const std::string kRed = R"(
  rem.u32 %r5, %ra, 3;
  setp.eq.u32 %q1, %r5, 0;
  bar.red.popc.u32 %r1, 0, %q1;
  setp.eq.u32 %q2, %ra, 77;
  bar.red.or.pred %q3, 3, %q2;
  selp.u32 %r2, 1, 0, %q3;
  mov.b64 %o, {%r1, %r2};)";

// Warp 0 arrives at barrier 1 and then waits at barrier 2, which the other warps reach first and
// leave for barrier 1: were bar.arrive to wait, no warp could move.
const std::string kArrive = R"(
  setp.lt.u32 %q1, %tid, 32;
  @!%q1 bra OTHERS;
  bar.arrive 1, 96;
  bar.sync 2, 96;
  bra DONE;
OTHERS:
  bar.sync 2, 96;
  bar.sync 1, 96;
  mov.b64 %o, 1;
DONE:)";

void expect_reductions(const std::vector<test::LaneOut>& out, const std::string& config) {
  ASSERT_EQ(out.size(), 96u) << config;
  for (unsigned t = 0; t < 96; ++t) {
    EXPECT_EQ(uint32_t(out[t].o), 32u) << config << ", thread " << t;  // 0, 3, ..., 93
    EXPECT_EQ(out[t].o >> 32, 1u) << config << ", thread " << t;       // thread 77 voted true
  }
}

// run_core with the fault (if any) as a test failure naming the config.
std::vector<test::LaneOut> timed(const std::string& snippet, const char* config) {
  try {
    const test::CoreRun r = test::run_core(snippet, 96, test::preset(config));
    EXPECT_GT(r.counters.barrier_instructions, 0u) << config;
    return r.out;
  } catch (const std::exception& e) {
    ADD_FAILURE() << config << ": " << e.what();
    return {};
  }
}

TEST(CoreBarriers, BarRedResultIsTheFunctionalOneUnderEveryFormation) {
  std::vector<Inputs> in(96);
  for (unsigned i = 0; i < 96; ++i) in[i] = {i, 0, 0};
  expect_reductions(test::run_snippet(kRed, in), "functional");
  for (const char* config : {"narasiman-baseline", "fermi-gtx480", "lwm256", "tbc256"}) expect_reductions(timed(kRed, config), config);
}

// Static warps only: large warps and block compaction make the 96 threads one warp, in which a
// barrier reached on divergent paths can never complete (as in a diverged 32-thread warp).
TEST(CoreBarriers, BarArriveDoesNotWait) {
  for (const char* config : {"narasiman-baseline", "fermi-gtx480"}) {
    const auto out = timed(kArrive, config);
    ASSERT_EQ(out.size(), 96u) << config;
    EXPECT_EQ(out[40].o, 1u) << config;
    EXPECT_EQ(out[0].o, 0u) << config;
  }
}

}  // namespace
}  // namespace gputlm
