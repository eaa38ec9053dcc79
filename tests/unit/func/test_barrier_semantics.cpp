// CTA barriers on the functional engine (PTX ISA: bar, barrier): bar.red's reduction
// covers every thread that took part and is written when the barrier completes, bar.arrive counts
// without waiting, named barriers with thread counts, and the forms the ISA does not allow.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/func/kernel_fault.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// 96 threads (three warps); thread t's predicate input is pred(t).
std::vector<Inputs> preds(bool (*pred)(unsigned), unsigned n = 96) {
  std::vector<Inputs> in;
  for (unsigned t = 0; t < n; ++t) in.push_back({pred(t) ? 1u : 0u, 0, 0});
  return in;
}
const char* kPred = "setp.ne.u32 %q1, %ra, 0;\n";

// Warp 0 reaches the barrier first (the engine runs a warp until it blocks): a count taken at its
// arrival would see its own 32 threads only.
TEST(BarrierSemantics, BarRedPopcCountsEveryThreadOfTheCta) {
  const auto in = preds([](unsigned t) { return t % 3 == 0 || t > 80; });
  const auto out =
      run_snippet(std::string(kPred) + "bar.red.popc.u32 %r1, 0, %q1;\n cvt.u64.u32 %o, %r1;", in);
  unsigned want = 0;
  for (unsigned t = 0; t < 96; ++t) want += t % 3 == 0 || t > 80;
  for (unsigned t = 0; t < 96; ++t) EXPECT_EQ(out[t].o, want) << t;
}

TEST(BarrierSemantics, BarRedPopcOfANegatedPredicate) {
  const auto out =
      run_snippet(std::string(kPred) + "barrier.red.popc.u32 %r1, 2, !%q1;\n cvt.u64.u32 %o, %r1;",
                  preds([](unsigned t) { return t < 10; }));
  EXPECT_EQ(out[0].o, 86u);
  EXPECT_EQ(out[95].o, 86u);
}

// Thrust emits bar.red.or.pred; one thread of the last warp decides.
TEST(BarrierSemantics, BarRedAndOrPredReduceOverAllWarps) {
  const auto one = preds([](unsigned t) { return t == 90; });
  auto run = [&](const char* op, const std::vector<Inputs>& in) {
    return run_snippet(std::string(kPred) + "bar.red." + op + ".pred %p, 1, %q1;", in);
  };
  EXPECT_TRUE(run("or", one)[0].p);
  EXPECT_FALSE(run("and", one)[0].p);
  EXPECT_FALSE(run("or", preds([](unsigned) { return false; }))[50].p);
  EXPECT_TRUE(run("and", preds([](unsigned) { return true; }))[50].p);
  EXPECT_FALSE(run("and", preds([](unsigned t) { return t != 3; }))[95].p);
}

// With a thread count, the barrier completes when that many threads arrived: two warps use
// barrier 1 while the third skips it.
TEST(BarrierSemantics, BarRedWithAThreadCountReducesTheThreadsThatArrived) {
  const auto out =
      run_snippet(std::string(kPred) +
                      "setp.ge.u32 %q2, %tid, 64;\n @%q2 bra SKIP;\n"
                      "bar.red.popc.u32 %r1, 1, 64, %q1;\n cvt.u64.u32 %o, %r1;\nSKIP:\n",
                  preds([](unsigned t) { return t % 2 == 0; }));
  EXPECT_EQ(out[0].o, 32u);
  EXPECT_EQ(out[63].o, 32u);
  EXPECT_EQ(out[64].o, 0u);
}

// Warp 0 arrives at barrier 1 and goes on to wait at barrier 2; warp 1 waits at 2, then at 1.
// Were bar.arrive to wait, both warps would wait forever.
TEST(BarrierSemantics, BarArriveDoesNotWait) {
  const std::string snip =
      ".shared .u32 flag;\n setp.lt.u32 %q1, %tid, 32;\n @!%q1 bra CONSUMER;\n"
      "st.shared.u32 [flag], 42;\n bar.arrive 1, 64;\n bar.sync 2, 64;\n bra DONE;\n"
      "CONSUMER:\n bar.sync 2, 64;\n bar.sync 1, 64;\n ld.shared.u32 %r1, [flag];\n cvt.u64.u32 "
      "%o, %r1;\nDONE:\n";
  const auto out = run_snippet(snip, std::vector<Inputs>(64, Inputs{0, 0, 0}));
  EXPECT_EQ(out[40].o, 42u);
  EXPECT_EQ(out[0].o, 0u);
}

TEST(BarrierSemantics, BarrierSyncAlignedIsAFullBarrier) {
  const std::string snip =
      ".shared .u32 cell[96];\n mul.wide.u32 %rd1, %tid, 4;\n mov.u64 %rd2, cell;\n add.u64 %rd2, "
      "%rd2, %rd1;\n"
      "st.shared.u32 [%rd2], %tid;\n barrier.sync.aligned 0;\n"
      "sub.u32 %r2, 95, %tid;\n mul.wide.u32 %rd1, %r2, 4;\n mov.u64 %rd2, cell;\n add.u64 %rd2, "
      "%rd2, %rd1;\n"
      "ld.shared.u32 %r1, [%rd2];\n cvt.u64.u32 %o, %r1;";
  const auto out = run_snippet(snip, std::vector<Inputs>(96, Inputs{0, 0, 0}));
  for (unsigned t = 0; t < 96; ++t) EXPECT_EQ(out[t].o, 95u - t) << t;
}

TEST(BarrierSemantics, ForbiddenFormsAreRefusedAtBind) {
  auto bad = [](const std::string& instr) {
    EXPECT_ANY_THROW(
        run_snippet(std::string(kPred) + instr, std::vector<Inputs>(32, Inputs{0, 0, 0})))
        << instr;
  };
  bad("bar.arrive 1;");                  // arrive needs the thread count
  bad("bar.red.popc.pred %p, 0, %q1;");  // popc gives .u32
  bad("bar.red.or.u32 %r1, 0, %q1;");    // and/or give .pred
  bad("bar.red.popc.u32 %r1, 0, 32, 5, %q1;");
}

TEST(BarrierSemantics, BadBarrierIdOrCountIsAKernelFault) {
  auto fault = [](const std::string& instr) {
    EXPECT_THROW(run_snippet(instr, std::vector<Inputs>(32, Inputs{0, 0, 0})), func::KernelFault)
        << instr;
  };
  fault("bar.sync 16;");
  fault("bar.sync 1, 48;");
}

}  // namespace
}  // namespace gputlm::test
