// mbarrier on the functional engine (PTX ISA 9.7.13.15): a phase completes when its pending
// arrivals and its tx-count are both zero, and then reloads the expected count; state tokens name
// the phase they came from; the .parity form; arrive with a count, arrive_drop, expect_tx,
// complete_tx, arrive.expect_tx, .noComplete; cp.async.mbarrier.arrive with and without .noinc;
// a warp polling try_wait while another warp completes the phase; and the faults for objects that
// are not initialised or not aligned.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "models/func/mbarrier.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// bar: one 8-byte mbarrier object (plus room for a copy); %r1 its shared address.
const std::string kBar = ".shared .align 8 .b64 bar[4];\n mov.u32 %r1, bar;\n";
// %o = (%o << 1) | %q1: records test_wait outcomes in order.
const std::string kRecord =
    "selp.u64 %rd9, 1, 0, %q1;\n shl.b64 %o, %o, 1;\n or.b64 %o, %o, %rd9;\n";

TEST(Mbarrier, EncodingRoundTripsEveryField) {
  namespace mb = func::mbarrier;
  mb::Fields f;
  f.pending = 5, f.expected = mb::kMaxCount, f.tx = -mb::kMaxTx, f.valid = true, f.phase = 3;
  const mb::Fields g = mb::decode(mb::encode(f));
  EXPECT_EQ(g.pending, 5u);
  EXPECT_EQ(g.expected, mb::kMaxCount);
  EXPECT_EQ(g.tx, -mb::kMaxTx);
  EXPECT_TRUE(g.valid);
  EXPECT_EQ(g.phase, 3u);
}

TEST(Mbarrier, StateCarriesThePendingCountBeforeTheArrive) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 3;\n mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
               "mbarrier.arrive.shared.b64 %rd2, [%r1];\n mbarrier.pending_count.b64 %r2, %rd1;\n"
               "mbarrier.pending_count.b64 %r3, %rd2;\n mad.lo.u32 %r2, %r2, 10, %r3;\n "
               "cvt.u64.u32 %o, %r2;\n",
           0);
  EXPECT_EQ(out.o, 32u);
}

TEST(Mbarrier, PhaseCompletesWithTheLastPendingArrival) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared::cta.b64 [%r1], 2;\n mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
               "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd1;\n" +
               kRecord +
               "mbarrier.arrive.release.cta.shared.b64 %rd2, [%r1];\n"
               "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd1;\n" +
               kRecord,
           0);
  EXPECT_EQ(out.o, 0b01u);
}

TEST(Mbarrier, TestWaitOnAnOldStateStaysTrueAfterLaterPhases) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 1;\n mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
               "mbarrier.arrive.shared.b64 %rd2, [%r1];\n mbarrier.arrive.shared.b64 %rd3, [%r1];\n"
               "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd1;\n" +
               kRecord + "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd3;\n" + kRecord,
           0);
  EXPECT_EQ(out.o, 0b11u);
}

TEST(Mbarrier, CompletedPhaseReloadsTheExpectedCount) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 2;\n mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
               "mbarrier.arrive.shared.b64 %rd1, [%r1];\n mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
               "mbarrier.pending_count.b64 %r2, %rd2;\n cvt.u64.u32 %o, %r2;\n"
               "mbarrier.test_wait.shared.b64 %p, [%r1], %rd2;\n",
           0);
  EXPECT_EQ(out.o, 2u);
  EXPECT_FALSE(out.p);
}

TEST(Mbarrier, ParityNamesTheCurrentOrThePrecedingPhase) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 1;\n mov.u32 %r2, 0;\n mov.u32 %r3, 1;\n"
               "mbarrier.try_wait.parity.shared.b64 %q1, [%r1], %r2;\n" +
               kRecord +
               "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
               "mbarrier.try_wait.parity.acquire.cta.shared.b64 %q1, [%r1], %r2, 1000;\n" +
               kRecord + "mbarrier.test_wait.parity.shared.b64 %q1, [%r1], %r3;\n" + kRecord,
           0);
  EXPECT_EQ(out.o, 0b010u);
}

TEST(Mbarrier, ArriveWithACountTakesThatManyArrivals) {
  const auto out = run1(
      kBar +
          "mbarrier.init.shared.b64 [%r1], 4;\n mbarrier.arrive.shared::cta.b64 %rd1, [%r1], 3;\n"
          "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd1;\n" +
          kRecord +
          "mbarrier.arrive.shared.b64 %rd2, [%r1];\n mbarrier.test_wait.shared.b64 %q1, [%r1], "
          "%rd1;\n" +
          kRecord +
          "mbarrier.pending_count.b64 %r2, %rd2;\n cvt.u64.u32 %rd3, %r2;\n shl.b64 %rd3, %rd3, "
          "8;\n or.b64 %o, %o, %rd3;\n",
      0);
  EXPECT_EQ(out.o, (1u << 8) | 0b01u);
}

TEST(Mbarrier, ArriveDropLowersTheExpectedCountOfLaterPhases) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 2;\n mbarrier.arrive_drop.shared.b64 %rd1, [%r1];\n"
               "mbarrier.arrive.shared.b64 %rd2, [%r1];\n mbarrier.arrive.shared.b64 %rd3, [%r1];\n"
               "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd3;\n" +
               kRecord +
               "mbarrier.pending_count.b64 %r2, %rd3;\n cvt.u64.u32 %rd4, %r2;\n shl.b64 %rd4, "
               "%rd4, 8;\n or.b64 %o, %o, %rd4;\n",
           0);
  EXPECT_EQ(out.o, (1u << 8) | 1u);  // phase 1 needed one arrival and completed
}

TEST(Mbarrier, TxCountHoldsThePhaseUntilCompleteTx) {
  const auto out =
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 1;\n mbarrier.expect_tx.shared.b64 [%r1], 64;\n"
               "mbarrier.arrive.shared.b64 %rd1, [%r1];\n mbarrier.test_wait.shared.b64 %q1, "
               "[%r1], %rd1;\n" +
               kRecord +
               "mbarrier.complete_tx.shared.b64 [%r1], 48;\n mbarrier.test_wait.shared.b64 %q1, "
               "[%r1], %rd1;\n" +
               kRecord +
               "mbarrier.complete_tx.shared.b64 [%r1], 16;\n mbarrier.test_wait.shared.b64 %q1, "
               "[%r1], %rd1;\n" +
               kRecord,
           0);
  EXPECT_EQ(out.o, 0b001u);
}

TEST(Mbarrier, ArriveExpectTxRaisesTheTxCountBeforeArriving) {
  const auto out = run1(kBar +
                            "mbarrier.init.shared.b64 [%r1], 1;\n "
                            "mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r1], 32;\n"
                            "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd1;\n" +
                            kRecord +
                            "mbarrier.complete_tx.shared.b64 [%r1], 32;\n "
                            "mbarrier.test_wait.shared.b64 %q1, [%r1], %rd1;\n" +
                            kRecord,
                        0);
  EXPECT_EQ(out.o, 0b01u);
}

TEST(Mbarrier, NoCompleteArriveThatWouldCompleteThePhaseFaults) {
  EXPECT_NO_THROW(run1(kBar + "mbarrier.init.shared.b64 [%r1], 2;\n "
                              "mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 1;\n",
                       0));
  EXPECT_THROW(run1(kBar + "mbarrier.init.shared.b64 [%r1], 1;\n "
                           "mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 1;\n",
                    0),
               func::KernelFault);
}

TEST(Mbarrier, CpAsyncArriveNoincIsAnArrival) {
  const auto out = run1(
      kBar +
          "mbarrier.init.shared.b64 [%r1], 1;\n cp.async.ca.shared.global [%r1+8], [%in], 8;\n"
          "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];\n mov.u32 %r2, 0;\n"
          "mbarrier.test_wait.parity.shared.b64 %p, [%r1], %r2;\n ld.shared.u64 %o, [%r1+8];\n",
      77);
  EXPECT_TRUE(out.p);
  EXPECT_EQ(out.o, 77u);
}

TEST(Mbarrier, CpAsyncArriveWithoutNoincLeavesThePendingCount) {
  const auto out = run1(
      kBar +
          "mbarrier.init.shared.b64 [%r1], 1;\n cp.async.ca.shared.global [%r1+8], [%in], 8;\n"
          "cp.async.mbarrier.arrive.shared.b64 [%r1];\n mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
          "mbarrier.pending_count.b64 %r2, %rd1;\n cvt.u64.u32 %o, %r2;\n"
          "mbarrier.test_wait.shared.b64 %p, [%r1], %rd1;\n",
      77);
  EXPECT_EQ(out.o, 1u);
  EXPECT_TRUE(out.p);
}

TEST(Mbarrier, GenericAddressOfASharedObject) {
  const auto out = run1(kBar +
                            "cvta.shared.u64 %rd5, bar;\n mbarrier.init.b64 [%rd5], 1;\n "
                            "mbarrier.arrive.b64 %rd1, [%rd5];\n"
                            "mbarrier.test_wait.b64 %p, [%rd5], %rd1;\n",
                        0);
  EXPECT_TRUE(out.p);
}

// Warp 1 writes 32 words and arrives; warp 0 polls try_wait until the phase completes, then reads
// them. The engine runs a warp until it blocks: a poll that did not let warp 1 run would never end.
TEST(Mbarrier, WarpPollingTryWaitSeesTheWritesOfTheArrivingWarp) {
  std::vector<Inputs> in(64, Inputs{0, 0, 0});
  const auto out = run_snippet(
      kBar +
          ".shared .align 4 .u32 data[32];\n mov.u32 %r5, data;\n and.b32 %r6, %tid, 31;\n"
          "shl.b32 %r6, %r6, 2;\n add.u32 %r5, %r5, %r6;\n"
          "setp.eq.u32 %q1, %tid, 0;\n @%q1 mbarrier.init.shared.b64 [%r1], 32;\n bar.sync 0;\n"
          "setp.lt.u32 %q1, %tid, 32;\n @%q1 bra CONSUMER;\n"
          "mul.lo.u32 %r7, %tid, 3;\n st.shared.u32 [%r5], %r7;\n mbarrier.arrive.shared.b64 %rd1, "
          "[%r1];\n bra DONE;\n"
          "CONSUMER:\n mov.u32 %r2, 0;\n"
          "WAIT:\n mbarrier.try_wait.parity.shared.b64 %q2, [%r1], %r2;\n @!%q2 bra WAIT;\n"
          "ld.shared.u32 %r7, [%r5];\n cvt.u64.u32 %o, %r7;\nDONE:\n",
      in);
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(out[t].o, (t + 32) * 3) << t;
}

TEST(Mbarrier, ArriveOnAnUninitialisedObjectFaults) {
  EXPECT_THROW(run1(kBar + "mbarrier.arrive.shared.b64 %rd1, [%r1];\n", 0), func::KernelFault);
}

TEST(Mbarrier, ArriveAfterInvalFaults) {
  EXPECT_THROW(run1(kBar + "mbarrier.init.shared.b64 [%r1], 1;\n mbarrier.inval.shared.b64 "
                           "[%r1];\n mbarrier.arrive.shared.b64 %rd1, [%r1];\n",
                    0),
               func::KernelFault);
}

TEST(Mbarrier, ObjectNotEightByteAlignedFaults) {
  EXPECT_THROW(run1(kBar + "mbarrier.init.shared.b64 [%r1+4], 1;\n", 0), func::KernelFault);
}

TEST(Mbarrier, InitCountZeroFaults) {
  EXPECT_THROW(run1(kBar + "mov.u32 %r2, 0;\n mbarrier.init.shared.b64 [%r1], %r2;\n", 0),
               func::KernelFault);
}

TEST(Mbarrier, MoreArrivalsThanPendingFaults) {
  EXPECT_THROW(
      run1(kBar +
               "mbarrier.init.shared.b64 [%r1], 2;\n mbarrier.arrive.shared.b64 %rd1, [%r1], 3;\n",
           0),
      func::KernelFault);
}

TEST(Mbarrier, WrongTypeIsNotBound) {
  EXPECT_THROW(run1(kBar + "mbarrier.init.shared.b32 [%r1], 1;\n", 0), SourceError);
}

}  // namespace
}  // namespace gputlm::test
