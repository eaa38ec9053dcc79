// cp.async in the timing model (issue 40, part 4; PTX ISA 9.7.9.25): a copy moves global data to
// shared memory without a register and without holding its warp; cp.async.wait_group N waits for
// all but the N most recent committed groups, wait_all for every group (sm/memory/copy_groups.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/core_run.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// Each thread copies 8 bytes to sbuf[16 tid], if `guard`: its word of the output buffer, still zero
// and in no cache (the inputs are, the kernel's preamble loaded them).
std::string copy(const std::string& guard = "") {
  return guard + " cp.async.ca.shared.global [%r8], [%rd7], 8;\n";
}
std::string adds(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "add.s32 %r2, %r2, 3;\n";
  return s;
}
// The kernel around `body`: the shared buffer, filled with ones, the thread's slot in it (%r8) and
// its source (%rd7), and at the end its slot read back into %o (zero once the copy has landed,
// whatever the body waited for: wait_all first).
std::string kernel(const std::string& body) {
  return ".shared .align 16 .b8 sbuf[512];\n"
         "mov.u32 %r1, sbuf;\n mul.lo.u32 %r8, %tid, 16;\n add.u32 %r8, %r8, %r1;\n mov.u32 %r2, "
         "0;\n"
         "st.shared.u64 [%r8], -1;\n mul.wide.u32 %rd7, %tid, 16;\n add.s64 %rd7, %rd7, %out;\n" +
         body + "cp.async.wait_all;\n ld.shared.u64 %o, [%r8];\n add.u64 %o, %o, %a;\n";
}

uint64_t cycles(const std::string& body) {
  const CoreRun r = run_core(kernel(body), 32);
  for (unsigned i = 0; i < r.out.size(); ++i)
    EXPECT_EQ(r.out[i].o, i) << "thread " << i;  // 0 + its input
  return r.cycles;
}

TEST(CopyTiming, AWarpRunsOnWhileItsCopyIsInFlight) {
  // The same 40 adds after the wait, or between the copy and its wait: there they overlap the copy.
  const uint64_t serial =
      cycles(copy() + "cp.async.commit_group;\n cp.async.wait_group 0;\n" + adds(40));
  const uint64_t overlapped =
      cycles(copy() + "cp.async.commit_group;\n" + adds(40) + "cp.async.wait_group 0;\n");
  EXPECT_LT(overlapped + 30, serial) << "serial " << serial << ", overlapped " << overlapped;
}

TEST(CopyTiming, WaitGroupNLeavesTheNMostRecentGroupsInFlight) {
  // Group 0 (threads 0-15: two lines), then 20 adds, then group 1 (threads 16-31: two other lines);
  // wait_group 1 waits for group 0 only, so the 40 adds after it overlap group 1's copy;
  // wait_group 0 waits for group 1 too.
  const std::string groups = "setp.lt.u32 %q1, %tid, 16;\n" + copy("@%q1") +
                             "cp.async.commit_group;\n" + adds(20) + copy("@!%q1") +
                             "cp.async.commit_group;\n";
  const uint64_t wait0 = cycles(groups + "cp.async.wait_group 0;\n" + adds(40));
  const uint64_t wait1 = cycles(groups + "cp.async.wait_group 1;\n" + adds(40));
  const uint64_t wait2 = cycles(groups + "cp.async.wait_group 2;\n" + adds(40));
  EXPECT_LT(wait1 + 30, wait0) << "wait_group 1: " << wait1 << ", wait_group 0: " << wait0;
  EXPECT_LE(wait2, wait1);
}

TEST(CopyTiming, WaitAllWaitsForTheOpenGroupToo) {
  // No commit: the copy is in the open group, which wait_group leaves alone and wait_all waits for.
  const uint64_t open = cycles(copy() + "cp.async.wait_group 0;\n" + adds(40));
  const uint64_t all = cycles(copy() + "cp.async.wait_all;\n" + adds(40));
  EXPECT_LT(open + 30, all) << "wait_group 0 with the group open: " << open
                            << ", wait_all: " << all;
}

TEST(CopyTiming, ACopyWhoseLanesAreOffSendsNothingAndCompletes) {
  const uint64_t none = cycles("setp.eq.u32 %q1, %tid, 99;\n" + copy("@%q1") + copy() +
                               "cp.async.commit_group;\n cp.async.wait_group 0;\n");
  EXPECT_GT(none, 0u);
}

// cp.async.bulk (PTX ISA 9.7.9.25.4) completes its mbarrier transaction when the copy's data has
// landed: in the timing model, when its last line has returned (memory_stage.cpp), so the first
// try_wait of a thread waiting on the mbarrier fails and the phase completes a memory round trip
// later; functionally the copy and its complete-tx happen at once and the first try succeeds.
// Thread 0 copies 256 bytes of the (uncached) output buffer, or, for comparison, performs the
// complete-tx itself; every thread counts its tries.
TEST(CopyTiming, ABulkCopysMbarrierPhaseCompletesWhenItsLinesReturn) {
  auto kernel = [](const std::string& tx) {
    return ".shared .align 16 .b8 sbuf[512];\n .shared .align 8 .b64 bar;\n"
           "mov.u32 %r1, sbuf;\n mov.u32 %r3, bar;\n setp.eq.u32 %q1, %tid, 0;\n"
           "@%q1 mbarrier.init.shared.b64 [%r3], 1;\n bar.sync 0;\n"
           "@%q1 mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r3], 256;\n@%q1 " +
           tx +
           "\n"
           "mov.u32 %r2, 0;\n$W:\n add.u32 %r2, %r2, 1;\n mbarrier.try_wait.parity.shared.b64 %q2, "
           "[%r3], 0;\n"
           "@!%q2 bra $W;\n cvt.u64.u32 %o, %r2;\n";
  };
  const std::string copy = kernel(
      "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r1], [%out], 256, [%r3];");
  const std::string at_once = kernel("mbarrier.complete_tx.shared.b64 [%r3], 256;");
  const CoreRun timed = run_core(copy, 32), immediate = run_core(at_once, 32);
  EXPECT_EQ(run_snippet(copy, std::vector<Inputs>(32, Inputs{0, 0, 0}))[0].o, 1u);
  EXPECT_EQ(immediate.out[0].o, 1u);
  EXPECT_GE(timed.out[0].o, 2u) << "the first try_wait found the phase complete";
  EXPECT_GT(timed.cycles, immediate.cycles + 50)
      << "copy " << timed.cycles << " cycles, complete-tx at once " << immediate.cycles;
  std::printf("bulk copy: %llu tries, %llu cycles; complete-tx at once: %llu cycles\n",
              static_cast<unsigned long long>(timed.out[0].o),
              static_cast<unsigned long long>(timed.cycles),
              static_cast<unsigned long long>(immediate.cycles));
}

// cp.async.bulk's bulk groups (PTX ISA 9.7.9.25.4): wait_group.read issues once the group's copies
// have read their source (sent their lines), wait_group once their writes are back, so 40 adds
// after a plain wait_group start a memory round trip later. Thread 0 copies 256 bytes of shared
// memory to the (uncached) output buffer.
TEST(CopyTiming, ABulkGroupsWaitGroupWaitsForTheWritesAndItsReadFormOnlyForTheReads) {
  auto run = [](const std::string& wait) {
    return run_core(
               ".shared .align 16 .b8 sbuf[512];\n mov.u32 %r1, sbuf;\n setp.eq.u32 %q1, %tid, 0;\n"
               "@%q1 cp.async.bulk.global.shared::cta.bulk_group [%out], [%r1], 256;\n "
               "cp.async.bulk.commit_group;\n" +
                   wait + "\n" + adds(40) + "cvt.u64.u32 %o, %r2;\n",
               32)
        .cycles;
  };
  const uint64_t written = run("cp.async.bulk.wait_group 0;"),
                 read = run("cp.async.bulk.wait_group.read 0;");
  EXPECT_GT(written, read + 50) << "wait_group " << written << " cycles, wait_group.read " << read;
  std::printf("bulk group: wait_group %llu cycles, wait_group.read %llu cycles\n",
              static_cast<unsigned long long>(written), static_cast<unsigned long long>(read));
}

// cp.async.mbarrier.arrive (PTX ISA 9.7.9.25.3) arrives once the thread's earlier cp.async copies
// are complete: each thread copies its 8 bytes of the (uncached) output buffer, arrives on an
// mbarrier expecting all 32 threads (.noinc) and polls it, counting its tries. In the timing model
// the first try finds the phase incomplete (the copies are in flight); functionally the copy and
// the arrive-on happen at once and the first try succeeds.
TEST(CopyTiming, CpAsyncMbarrierArriveWaitsForTheCopies) {
  const std::string snippet =
      ".shared .align 16 .b8 sbuf[512];\n .shared .align 8 .b64 bar;\n"
      "mov.u32 %r1, sbuf;\n mul.lo.u32 %r8, %tid, 16;\n add.u32 %r8, %r8, %r1;\n mul.wide.u32 "
      "%rd7, %tid, 16;\n add.s64 %rd7, %rd7, %out;\n"
      "mov.u32 %r3, bar;\n setp.eq.u32 %q1, %tid, 0;\n @%q1 mbarrier.init.shared.b64 [%r3], 32;\n "
      "bar.sync 0;\n"
      "cp.async.ca.shared.global [%r8], [%rd7], 8;\n cp.async.mbarrier.arrive.noinc.shared.b64 "
      "[%r3];\n"
      "mov.u32 %r4, 0;\n$W:\n add.u32 %r4, %r4, 1;\n mbarrier.try_wait.parity.shared.b64 %q2, "
      "[%r3], 0;\n @!%q2 bra $W;\n"
      "cvt.u64.u32 %o, %r4;\n";
  const CoreRun timed = run_core(
      snippet, 32, preset("fermi-gtx480"));  // scoreboard issue: the warp runs on past the arrive
  EXPECT_EQ(run_snippet(snippet, std::vector<Inputs>(32, Inputs{0, 0, 0}))[0].o, 1u);
  EXPECT_GE(timed.out[0].o, 2u) << "the first try_wait found the phase complete";
  std::printf("cp.async.mbarrier.arrive: %llu tries timed (1 functionally), %llu cycles\n",
              static_cast<unsigned long long>(timed.out[0].o),
              static_cast<unsigned long long>(timed.cycles));
}

}  // namespace
}  // namespace gputlm::test
