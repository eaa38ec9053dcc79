// Scoreboard issue in the SIMT core (narasiman-baseline's 7-stage pipeline of one cycle a stage,
// switched to "issue": "scoreboard"): a warp is a fetch candidate only while its next instruction
// passes the scoreboard, so a warp scheduler never picks a warp whose instruction would then wait
// in the in-order pipeline and hold up every warp behind it.
#include <gtest/gtest.h>

#include "support/core_run.h"
#include "support/sc_kernel.h"

namespace gputlm {
namespace {

nlohmann::json scoreboard(const std::string& scheduler) {
  nlohmann::json config = test::preset();
  config["core"]["issue"] = "scoreboard";
  config["core"]["scheduler"] = scheduler;
  return config;
}

// Cycles of 100 more iterations of alu_loop (8 dependent adds, the counter's add, setp, bra).
Cycle hundred_iterations(uint32_t threads, const nlohmann::json& config) {
  const test::CoreRun a = test::run_core(test::alu_loop(100), threads, config);
  const test::CoreRun b = test::run_core(test::alu_loop(200), threads, config);
  EXPECT_EQ(b.out[0].o, 1 + 3 * 8 * 200u);
  return b.cycles - a.cycles;
}

// One warp: each instruction that reads the one before it is fetched the cycle after that one
// retires (fetch, decode, read, 2 execute, memory, writeback: 7 cycles). The counter's add reads
// nothing in flight and follows the eighth add at once; setp waits for it, bra for setp, and the
// next iteration's fetch for bra's outcome: 7 x 7 + 1 + 7 + 7 + 7 = 71 cycles an iteration, and
// the body spans two I-cache lines: each of the two refills of the warp's instruction buffer costs
// one cycle more (as in CorePipeline's barrel tests): 73.
TEST(ScoreboardIssue, ADependentInstructionIsFetchedTheCycleAfterItsProducerRetires) {
  EXPECT_EQ(hundred_iterations(32, scoreboard("rr")), 100u * 73);
}

// Two warps, each a chain: the second fills the first's scoreboard waits, so two take one cycle an
// iteration more than one (where the two warps' refills meet at the fetch stage's one instruction a
// cycle to decode), not twice as long. Before a candidate had to pass the scoreboard, GTO kept
// fetching the oldest warp's dependent instructions (up to 4 in flight), which waited at register
// read and held the second warp behind them (micro/divergence on fermi-gtx480 with gto: 88,936
// cycles then, 24,784 now).
TEST(ScoreboardIssue, GtoSwitchesToAnotherWarpWhileTheOldestWaitsOnTheScoreboard) {
  const Cycle one = hundred_iterations(32, scoreboard("gto"));
  EXPECT_EQ(one, 100u * 73);
  EXPECT_EQ(hundred_iterations(64, scoreboard("gto")), 100u * 74);
  EXPECT_EQ(hundred_iterations(64, scoreboard("rr")), 100u * 74);
}

// "dependent_issue": "latency": an ALU result releases its register when a dependent fetched then
// reaches execute as the result is ready, so a chain of dependent adds issues one every `latency`
// cycles (the microbenchmarks' dependent-issue latency) instead of latency + 5 (fetch, decode and
// read before execute, memory and writeback after it). One warp of alu_loop with an 8-cycle add:
// the eight chained adds issue 8 apart, and the loop's own add, setp and bra overlap with them.
nlohmann::json forwarding(uint32_t add_latency, const char* release) {
  nlohmann::json config = scoreboard("rr");
  config["core"]["units"]["int_alu"]["latency"] = add_latency;
  config["core"]["dependent_issue"] = release;
  return config;
}

TEST(ScoreboardIssue, WithLatencyReleaseADependentAddIssuesItsLatencyAfterItsProducer) {
  const Cycle at8 = hundred_iterations(32, forwarding(8, "latency"));
  const Cycle at12 = hundred_iterations(32, forwarding(12, "latency"));
  const Cycle retire8 = hundred_iterations(32, forwarding(8, "retire"));
  // Four more cycles of latency cost each of the eight chained adds four cycles an iteration,
  // and the setp that reads the loop counter's add four more (bra waits for setp at retire).
  EXPECT_EQ(at12 - at8, 100u * 4 * 9);
  // Released at retire, each of those nine waits 5 cycles more: memory, writeback, fetch,
  // decode and read.
  EXPECT_EQ(retire8 - at8, 100u * 5 * 9);
}

// An instruction that writes a register an older in-flight instruction of its warp also writes
// waits for it too (write after write), so the later value is the one that stays.
TEST(ScoreboardIssue, AWriteAfterAWriteToTheSameRegisterKeepsTheLaterValue) {
  const test::CoreRun r = test::run_core(R"(
  mul.lo.u32 %r1, %ra, 7;
  mov.u32 %r1, 5;
  cvt.u64.u32 %o, %r1;)",
                                         32, scoreboard("gto"));
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(r.out[i].o, 5u) << i;
}

}  // namespace
}  // namespace gputlm
