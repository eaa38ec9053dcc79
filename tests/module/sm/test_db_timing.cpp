// The database-search instructions in the timing model (dissertation chapter 7): cond.acc
// is one warp instruction whose store is one contiguous write, tree.traverse a prefix-sum unit
// instruction with no memory access, and ld.global.rowhint sets the request's hint bit all the
// way to the DRAM controller. The prefix_sum unit's latency is a config key.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <tuple>

#include "support/core_run.h"

namespace gputlm::test {
namespace {

// One warp: %a = thread index; the lanes with %a % k == 0 write %a from the start of the input
// buffer (read already; its allocation is 256-byte aligned).
std::string cond_acc_kernel(unsigned k, const char* type = "u32") {
  return "rem.u32 %r1, %ra, " + std::to_string(k) +
         ";\n setp.eq.u32 %q1, %r1, 0;\n ld.param.u64 %rd1, [pin];\n" + "cond.acc.global." + type +
         " %r2, [%rd1], %q1, %a;\n cvt.u64.u32 %o, %r2;";
}

TEST(DbTiming, CondAccIsOneWarpInstructionAndOneContiguousWrite) {
  const CoreRun base = run_core("mov.u32 %r1, 0;", 32);
  for (const auto& [k, count, type, lines] : {std::tuple{1u, 32u, "u32", 1u},
                                              {2u, 16u, "u32", 1u},
                                              {5u, 7u, "u32", 1u},
                                              {1u, 32u, "u64", 2u}}) {
    const CoreRun r = run_core(cond_acc_kernel(k, type), 32);
    for (const LaneOut& o : r.out) EXPECT_EQ(o.o, count);
    // The writers' elements are contiguous from a line-aligned base: 32 x 4 bytes fill one
    // 128-byte line, 32 x 8 bytes two; a st of the same lanes would scatter over them.
    EXPECT_EQ(r.counters.simt.line_requests - base.counters.simt.line_requests, lines)
        << "every " << k << "th lane, " << type;
    EXPECT_EQ(r.counters.warp_instructions - base.counters.warp_instructions, 4u)
        << "rem setp ld cond.acc cvt, not mov";
  }
}

TEST(DbTiming, CondAccWithNoTrueLaneSendsNothing) {
  const std::string none =
      "setp.eq.u32 %q1, %ra, 1000;\n ld.param.u64 %rd1, [pout];\n add.s64 %rd1, %rd1, 4096;\n"
      "cond.acc.global.u32 %r2, [%rd1], %q1, %ra;\n cvt.u64.u32 %o, %r2;";
  const CoreRun r = run_core(none, 32);
  const uint64_t base_lines = run_core("mov.u32 %r1, 0;", 32).counters.simt.line_requests;
  for (const LaneOut& o : r.out) EXPECT_EQ(o.o, 0u);
  EXPECT_EQ(r.counters.simt.line_requests, base_lines);
}

TEST(DbTiming, PrefixSumLatencyIsAConfigKey) {
  // A dependent chain of tree.traverse: each adds the latency of the prefix_sum unit.
  std::string chain = "setp.ne.u32 %q1, %ra, 0;\n mov.u32 %r2, 0;\n";
  for (int i = 0; i < 40; ++i) chain += "tree.traverse.u32 %r2, %r2, %q1, 1;\n";
  chain += "cvt.u64.u32 %o, %r2;";
  nlohmann::json fast = preset(), slow = preset();
  fast["core"]["units"]["prefix_sum"] = {{"latency", 2}};
  slow["core"]["units"]["prefix_sum"] = {{"latency", 12}};
  const CoreRun a = run_core(chain, 32, fast), b = run_core(chain, 32, slow);
  for (const LaneOut& o : a.out) EXPECT_EQ(o.o, 40u * 31);  // thread 0's %a is 0: 31 true lanes
  // Barrel processing: a warp's next instruction waits for the previous one to leave, so the 40
  // instructions take 10 more cycles each.
  EXPECT_EQ(b.cycles - a.cycles, 40u * 10);
}

TEST(DbTiming, RowHintReachesTheDramController) {
  // Two loads from different 4KB rows of the output buffer (not yet in the L1, unlike the
  // inputs): the first hinted, the second not.
  const std::string s =
      "ld.param.u64 %rd1, [pout];\n ld.global.rowhint.u32 %r1, [%rd1+8192];\n ld.global.u32 %r2, "
      "[%rd1+12288];\n"
      "add.u32 %r3, %r1, %r2;\n cvt.u64.u32 %o, %r3;";
  std::ostringstream trace;
  run_core(s, 1024, preset(), nullptr, &trace);
  std::istringstream in(trace.str());
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line.substr(line.rfind(',') + 1), "hint");
  int hinted = 0, plain = 0;
  while (std::getline(in, line)) (line.back() == '1' ? hinted : plain)++;
  // Every warp's hinted load asks for the same line: the L1 merges them into one DRAM read.
  EXPECT_EQ(hinted, 1) << trace.str();
  EXPECT_GT(plain, 0);
}

}  // namespace
}  // namespace gputlm::test
