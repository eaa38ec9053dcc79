// cp.async on the functional engine (PTX ISA 9.7.9.25): cp-size bytes from global to shared, the
// first src-size of them from the source and the rest zero, the ignore-src predicate, .cg's single
// size, the cache qualifiers accepted as hints, the group instructions, and the faults for
// misaligned addresses and a src-size larger than cp-size. Each snippet reads shared memory back
// after cp.async.wait_all / wait_group, where the ISA guarantees the data is there. Then
// cp.async.bulk (sm_90) and its mbarrier completion.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// buf: 512 bytes of shared memory, 16-aligned; %r1 its address; each of its first 16 bytes set
// to 0xff so that zero filling shows. %in points at the thread's inputs a, b, c.
const std::string kBuf =
    ".shared .align 16 .b8 buf[512];\n mov.u32 %r1, buf;\n"
    "st.shared.u64 [%r1], -1;\n st.shared.u64 [%r1+8], -1;\n";
// %o = 3 * (bytes 0..7 of buf) + (bytes 8..15 of buf)
const std::string kReadBack =
    "ld.shared.u64 %rd1, [%r1];\n ld.shared.u64 %rd2, [%r1+8];\n mad.lo.u64 %o, %rd1, 3, %rd2;\n";

uint64_t read_back(uint64_t lo, uint64_t hi) { return lo * 3 + hi; }

TEST(AsyncCopy, CaCopiesCpSizeBytesFromGlobalToShared) {
  const auto out =
      run1(kBuf + "cp.async.ca.shared.global [%r1], [%in], 16;\n cp.async.wait_all;\n" + kReadBack,
           0x1122334455667788ull, 0x99aabbccddeeff00ull);
  EXPECT_EQ(out.o, read_back(0x1122334455667788ull, 0x99aabbccddeeff00ull));
}

TEST(AsyncCopy, FourByteCopyLeavesTheNextBytesAlone) {
  const auto out = run1(
      kBuf + "cp.async.ca.shared::cta.global [%r1], [%in], 4;\n cp.async.wait_all;\n" + kReadBack,
      0x1122334455667788ull, 7);
  EXPECT_EQ(out.o, read_back(0xffffffff55667788ull, ~0ull));
}

TEST(AsyncCopy, SrcSizeSmallerThanCpSizeZeroFillsTheRest) {
  const auto out = run1(
      kBuf + "cp.async.ca.shared.global [%r1], [%in], 16, 5;\n cp.async.wait_all;\n" + kReadBack,
      0x1122334455667788ull, 0x99aabbccddeeff00ull);
  EXPECT_EQ(out.o, read_back(0x0000004455667788ull, 0));
}

TEST(AsyncCopy, SrcSizeInARegister) {
  const auto out = run1(kBuf +
                            "mov.u32 %r2, 11;\n cp.async.cg.shared.global [%r1], [%in], 16, %r2;\n "
                            "cp.async.wait_all;\n" +
                            kReadBack,
                        0x1122334455667788ull, 0x99aabbccddeeff00ull);
  EXPECT_EQ(out.o, read_back(0x1122334455667788ull, 0x0000000000eeff00ull));
}

TEST(AsyncCopy, SrcSizeZeroWritesZerosAndReadsNothing) {
  // The source is not read: an address outside every allocation does not fault.
  const auto out = run1(
      kBuf + "cp.async.ca.shared.global [%r1], [0], 8, 0;\n cp.async.wait_all;\n" + kReadBack, 5);
  EXPECT_EQ(out.o, read_back(0, ~0ull));
}

TEST(AsyncCopy, IgnoreSrcTrueWritesZeros) {
  const auto out = run1(kBuf +
                            "setp.ne.u64 %q1, %c, 0;\n cp.async.ca.shared.global [%r1], [%in], 16, "
                            "%q1;\n cp.async.wait_all;\n" +
                            kReadBack,
                        0x1122334455667788ull, 0x99aabbccddeeff00ull, 1);
  EXPECT_EQ(out.o, read_back(0, 0));
}

TEST(AsyncCopy, IgnoreSrcFalseCopies) {
  const auto out = run1(kBuf +
                            "setp.ne.u64 %q1, %c, 0;\n cp.async.ca.shared.global [%r1], [%in], 16, "
                            "%q1;\n cp.async.wait_all;\n" +
                            kReadBack,
                        0x1122334455667788ull, 0x99aabbccddeeff00ull, 0);
  EXPECT_EQ(out.o, read_back(0x1122334455667788ull, 0x99aabbccddeeff00ull));
}

TEST(AsyncCopy, CacheQualifiersAndPolicyAreHintsOnly) {
  const auto out =
      run1(kBuf +
               "createpolicy.fractional.L2::evict_last.b64 %rd3, 1.0;\n"
               "cp.async.cg.shared.global.L2::cache_hint.L2::128B [%r1], [%in], 16, %rd3;\n"
               "cp.async.ca.shared.global.L2::cache_hint.L2::256B [%r1+16], [%in], 8, 4, %rd3;\n"
               "cp.async.ca.shared.global.L2::64B [%r1+24], [%in], 8;\n cp.async.wait_all;\n" +
               kReadBack +
               "ld.shared.u64 %rd4, [%r1+16];\n ld.shared.u64 %rd5, [%r1+24];\n"
               "setp.eq.u64 %p, %rd4, 0x55667788;\n setp.eq.and.u64 %p, %rd5, %a, %p;\n",
           0x1122334455667788ull, 0x99aabbccddeeff00ull);
  EXPECT_EQ(out.o, read_back(0x1122334455667788ull, 0x99aabbccddeeff00ull));
  EXPECT_TRUE(out.p);
}

// 64 threads: each copies its a (8 bytes) to buf[8 * tid] in its own group, then reads its
// neighbour's after wait_group 0 and a CTA barrier.
TEST(AsyncCopy, EachLaneCopiesToItsOwnAddress) {
  std::vector<Inputs> in;
  for (uint64_t t = 0; t < 64; ++t) in.push_back({0x1000 + t * 77, 0, 0});
  const auto out = run_snippet(
      ".shared .align 16 .b8 buf[512];\n mov.u32 %r1, buf;\n shl.b32 %r2, %tid, 3;\n add.u32 %r2, "
      "%r1, %r2;\n"
      "cp.async.ca.shared.global [%r2], [%in], 8;\n cp.async.commit_group;\n cp.async.wait_group "
      "0;\n bar.sync 0;\n"
      "add.u32 %r3, %tid, 1;\n and.b32 %r3, %r3, 63;\n shl.b32 %r3, %r3, 3;\n add.u32 %r3, %r1, "
      "%r3;\n ld.shared.u64 %o, [%r3];\n",
      in);
  for (uint64_t t = 0; t < 64; ++t) EXPECT_EQ(out[t].o, 0x1000 + ((t + 1) % 64) * 77) << t;
}

TEST(AsyncCopy, WaitGroupWithGroupsOutstandingStillSeesEarlierGroupsData) {
  // Two groups; wait_group 1 guarantees the first (all but the newest one).
  const auto out =
      run1(kBuf +
               "cp.async.ca.shared.global [%r1], [%in], 8;\n cp.async.commit_group;\n"
               "cp.async.ca.shared.global [%r1+8], [%in+8], 8;\n cp.async.commit_group;\n"
               "cp.async.wait_group 1;\n ld.shared.u64 %o, [%r1];\n cp.async.wait_group 0;\n",
           42, 43);
  EXPECT_EQ(out.o, 42u);
}

TEST(AsyncCopy, DestinationNotAlignedToCpSizeFaults) {
  EXPECT_THROW(run1(kBuf + "cp.async.ca.shared.global [%r1+4], [%in], 8;\n", 1), func::KernelFault);
}

TEST(AsyncCopy, SourceNotAlignedToCpSizeFaults) {
  EXPECT_THROW(run1(kBuf + "cp.async.ca.shared.global [%r1], [%in+4], 8;\n", 1), func::KernelFault);
}

TEST(AsyncCopy, SrcSizeLargerThanCpSizeFaults) {
  EXPECT_THROW(
      run1(kBuf + "mov.u32 %r2, 9;\n cp.async.ca.shared.global [%r1], [%in], 8, %r2;\n", 1),
      func::KernelFault);
}

TEST(AsyncCopy, SourceOutsideEveryAllocationFaults) {
  EXPECT_THROW(run1(kBuf + "cp.async.ca.shared.global [%r1], [16], 8;\n", 1), func::KernelFault);
}

TEST(AsyncCopy, CgTakesOnlyCpSize16) {
  EXPECT_THROW(run1(kBuf + "cp.async.cg.shared.global [%r1], [%in], 8;\n", 1), SourceError);
}

TEST(AsyncCopy, CpSizeMustBe4Or8Or16) {
  EXPECT_THROW(run1(kBuf + "cp.async.ca.shared.global [%r1], [%in], 2;\n", 1), SourceError);
}

TEST(AsyncCopy, CpAsyncWithoutAnOperationIsAParseError) {
  EXPECT_THROW(run1("cp.async.shared.global [%r1], [%in], 8;\n", 1), SourceError);
}

// cp.async.bulk (PTX ISA 9.7.9.25.4): one thread copies `size` bytes; the mbarrier form performs
// complete-tx of `size` on the object, completing the phase whose expected transaction bytes it
// carries (arrive.expect_tx of the same count).
const std::string kBar =
    ".shared .align 8 .b64 bar;\n mov.u32 %r2, bar;\n mbarrier.init.shared.b64 [%r2], 1;\n"
    "mbarrier.arrive.expect_tx.shared.b64 %rd9, [%r2], 16;\n";

// Runs `copy` (which fills buf's first 16 bytes with a and b through a bulk copy completing on
// bar) and checks both the bytes and that phase 0 of bar has completed.
void expect_bulk_copy(const std::string& copy, uint64_t a, uint64_t b) {
  const auto out = run1(
      kBuf + kBar + copy + "\n mbarrier.try_wait.parity.shared.b64 %p, [%r2], 0;\n" + kReadBack, a,
      b);
  EXPECT_EQ(out.o, read_back(a, b)) << copy;
  EXPECT_TRUE(out.p) << copy << ": phase 0 complete after the copy";
}

TEST(BulkCopy, GlobalToSharedCompletesTheMbarriersTransaction) {
  for (const std::string dst : {"shared::cluster", "shared::cta"})
    expect_bulk_copy(
        "cp.async.bulk." + dst + ".global.mbarrier::complete_tx::bytes [%r1], [%in], 16, [%r2];",
        0x1122334455667788ull, 0x99aabbccddeeff00ull);
  // Without the copy the phase waits for its 16 transaction bytes.
  EXPECT_FALSE(run1(kBuf + kBar + "mbarrier.try_wait.parity.shared.b64 %p, [%r2], 0;\n", 1).p);
}

TEST(BulkCopy, SizeInARegisterAndCacheHintPolicy) {
  expect_bulk_copy(
      "mov.u32 %r4, 16;\n createpolicy.fractional.L2::evict_last.b64 %rd8, 1.0;\n"
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], "
      "[%in], %r4, [%r2], %rd8;",
      5, 6);
}

TEST(BulkCopy, SharedToSharedInTheCtasOwnMemory) {
  expect_bulk_copy(
      "st.shared.v2.u64 [%r1+32], {%a, %b};\n add.u32 %r5, %r1, 32;\n"
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r5], 16, "
      "[%r2];",
      11, 12);
}

// The bulk-group form writes global memory from shared memory; commit_group and wait_group{.read}
// then find the group complete.
TEST(BulkCopy, SharedToGlobalBulkGroup) {
  const auto out = run1(kBuf +
                            "st.shared.v2.u64 [%r1], {%b, %a};\n"
                            "cp.async.bulk.global.shared::cta.bulk_group [%in], [%r1], 16;\n"
                            "cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n "
                            "cp.async.bulk.wait_group 0;\n"
                            "ld.global.u64 %rd1, [%in];\n ld.global.u64 %rd2, [%in+8];\n "
                            "mad.lo.u64 %o, %rd1, 3, %rd2;\n",
                        21, 22);
  EXPECT_EQ(out.o, read_back(22, 21));
}

TEST(BulkCopy, PrefetchIsAHintOnly) {
  const auto out = run1(kBuf +
                            "cp.async.bulk.prefetch.L2.global [%in], 16;\n "
                            "cp.async.bulk.prefetch.L2.global [16], 32;\n" +
                            kReadBack,
                        1, 2);
  EXPECT_EQ(out.o, read_back(~0ull, ~0ull));
}

TEST(BulkCopy, SizeAlignmentAndBoundsFault) {
  auto fault = [](const std::string& snip) {
    try {
      run1(kBuf + kBar + snip, 1);
    } catch (const func::KernelFault& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string copy = "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes ";
  EXPECT_NE(fault(copy + "[%r1], [%in], 24, [%r2];").find("size 24 is not a multiple of 16"),
            std::string::npos);
  EXPECT_NE(fault(copy + "[%r1+8], [%in], 16, [%r2];").find("destination not 16-byte aligned"),
            std::string::npos);
  EXPECT_NE(fault(copy + "[%r1+1024], [%in], 16, [%r2];").find("beyond the CTA's"),
            std::string::npos);
  EXPECT_NE(fault(copy + "[%r1], [%in], 32, [%r2];").find("outside any allocation"),
            std::string::npos);  // 24-byte inputs
}

// The sm_90a multicast form, and a bulk copy without its completion mechanism, are named as not
// supported when the kernel is bound (exit 2 from the command line).
TEST(BulkCopy, MulticastAndIncompleteFormsAreRefusedByName) {
  EXPECT_THROW(run1(kBuf + kBar +
                        "mov.u16 %ha, 3;\n "
                        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes."
                        "multicast::cluster [%r1], [%in], 16, [%r2], %ha;\n",
                    1),
               SourceError);
  EXPECT_THROW(run1(kBuf + "cp.async.bulk.shared::cta.global [%r1], [%in], 16;\n", 1), SourceError);
}

// cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2): each element of the destination becomes
// redOp(destination, source), as atom/red compute it. The thread's 24 input bytes are the global
// destination; `global` and `shared` set its first 16 bytes and buf's; %o reads the 16 bytes back
// (3 * first word + second word).
// Four st.SPACE.b32 of the comma-separated words of `list` at [base], [base+4], ...
std::string store_words(const std::string& space, const std::string& base,
                        const std::string& list) {
  std::string s;
  size_t from = 0;
  for (int i = 0; i < 4; ++i) {
    const size_t to = list.find(',', from);
    s += "st." + space + ".b32 [" + base + "+" + std::to_string(4 * i) + "], " +
         list.substr(from, to - from) + ";\n";
    from = to == std::string::npos ? to : to + 1;
  }
  return s;
}
uint64_t reduce_to_global(const std::string& global, const std::string& shared,
                          const std::string& op) {
  return run1(kBuf + store_words("global", "%in", global) + store_words("shared", "%r1", shared) +
                  "cp.reduce.async.bulk.global.shared::cta.bulk_group." + op +
                  " [%in], [%r1], 16;\n"
                  "cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n"
                  "ld.global.u64 %rd1, [%in];\n ld.global.u64 %rd2, [%in+8];\n mad.lo.u64 %o, "
                  "%rd1, 3, %rd2;\n",
              0)
      .o;
}
uint64_t words(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  return read_back(uint64_t{w1} << 32 | w0, uint64_t{w3} << 32 | w2);
}

TEST(BulkReduce, IntegerReductionsIntoGlobalMemory) {
  EXPECT_EQ(reduce_to_global("5, -3, 10, 0", "-5, 7, 3, -1", "min.s32"), words(-5, -3, 3, -1));
  EXPECT_EQ(reduce_to_global("5, -3, 10, 0", "-5, 7, 3, -1", "max.u32"),
            words(-5, -3, 10, -1));  // unsigned: -1 is the largest
  EXPECT_EQ(reduce_to_global("1, 2, 3, 4", "10, 20, 30, -4", "add.u32"), words(11, 22, 33, 0));
  EXPECT_EQ(reduce_to_global("0, 5, 9, 3", "5, 5, 9, 2", "inc.u32"),
            words(1, 0, 0, 0));  // old >= b ? 0 : old + 1
  EXPECT_EQ(reduce_to_global("0, 5, 9, 3", "5, 5, 9, 2", "dec.u32"),
            words(5, 4, 8, 2));  // old == 0 || old > b ? b : old - 1
  EXPECT_EQ(reduce_to_global("12, 10, 0, -1", "10, 6, 7, 1", "xor.b32"), words(6, 12, 7, -2));
  EXPECT_EQ(reduce_to_global("1, 0, 2, 0", "3, 0, 4, 0", "add.u64"), words(4, 0, 6, 0));
}

TEST(BulkReduce, FloatAndHalfReductionsIntoGlobalMemory) {
  // f32: 1.5 + 2.25, -0.0 + 0.0; f16 halves (0x3C00 1.0, 0x3800 0.5, 0x4000 2.0, 0xBC00 -1.0,
  // 0x7E00 NaN).
  EXPECT_EQ(reduce_to_global("0x3fc00000, 0x80000000, 0, 0", "0x40100000, 0, 0, 0", "add.f32"),
            words(0x40700000, 0, 0, 0));
  EXPECT_EQ(reduce_to_global("0x40003C00, 0, 0, 0", "0x3C003800, 0, 0, 0", "add.noftz.f16"),
            words(0x42003E00, 0, 0, 0));
  EXPECT_EQ(reduce_to_global("0xBC007E00, 0x3C00, 0, 0", "0x7E003C00, 0x4000, 0, 0", "max.f16"),
            words(0xBC003C00, 0x4000, 0, 0));
  EXPECT_EQ(reduce_to_global("0xBF803F80, 0, 0, 0", "0x40003F00, 0, 0, 0", "min.bf16"),
            words(0xBF803F00, 0, 0, 0));
}

TEST(BulkReduce, IntoSharedMemoryCompletesTheMbarriersTransaction) {
  const auto out = run1(kBuf + kBar +
                            "st.shared.v2.u64 [%r1], {%a, %b};\n st.shared.v2.u64 [%r1+32], {%b, "
                            "%a};\n add.u32 %r5, %r1, 32;\n"
                            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_"
                            "tx::bytes.add.u64 [%r1], [%r5], 16, [%r2];\n"
                            "mbarrier.try_wait.parity.shared.b64 %p, [%r2], 0;\n" +
                            kReadBack,
                        3, 40);
  EXPECT_EQ(out.o, read_back(43, 43));
  EXPECT_TRUE(out.p);
}

TEST(BulkReduce, FormsTheIsaDoesNotHaveAreRefusedWhenBound) {
  for (const std::string form :
       {"global.shared::cta.bulk_group.inc.s32 [%in], [%r1], 16",
        "global.shared::cta.bulk_group.add.f16 [%in], [%r1], 16",  // needs .noftz
        "global.shared::cta.bulk_group.and.u32 [%in], [%r1], 16",
        "shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.f32 [%r1], [%r1], 16, [%r1]",
        "global.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%in], [%r1], 16, [%r1]"})
    EXPECT_THROW(run1(kBuf + "cp.reduce.async.bulk." + form + ";\n", 1), SourceError) << form;
  EXPECT_THROW(
      run1(kBuf + "cp.reduce.async.bulk.global.shared::cta.bulk_group.exch.b32 [%in], [%r1], 16;\n",
           1),
      SourceError);
}

}  // namespace
}  // namespace gputlm::test
