// What memory qualifiers mean on the functional engine (PTX ISA 9.7.9): cache operators,
// orderings, eviction hints and .L2::cache_hint leave the values loaded and stored as they are;
// .shared::cluster of a launch without clusters is the CTA's own shared memory; isspacep tells the
// windows of generic addresses apart; createpolicy makes a 64-bit policy that records its form.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/func/kernel_fault.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const char* kShared = ".shared .align 16 .b8 buf[64];\n";

TEST(MemoryQualifierSemantics, QualifiedLoadsAndStoresMoveTheSameValues) {
  const uint64_t a = 0x1122334455667788ull, b = 0x99AABBCCDDEEFF00ull;
  EXPECT_EQ(
      run1("ld.relaxed.gpu.v2.u32 {%r1, %r2}, [%in];\n st.relaxed.gpu.v2.u32 [%in+8], {%r2, %r1};\n"
           "ld.global.nc.L1::no_allocate.L2::256B.u64 %o, [%in+8];",
           a, b)
          .o,
      0x5566778811223344ull);
  EXPECT_EQ(run1("createpolicy.fractional.L2::evict_first.b64 %rd5, 0.25;\n"
                 "st.global.L2::cache_hint.u64 [%in+16], %a, %rd5;\n "
                 "ld.acquire.sys.global.L2::cache_hint.u64 %o, [%in+16], %rd5;",
                 a)
                .o,
            a);
  EXPECT_EQ(run1("atom.global.gpu.acq_rel.L2::cache_hint.add.u64 %rd1, [%in+8], 5, %rd5;\n "
                 "ld.volatile.global.u64 %o, [%in+8];",
                 0, 10)
                .o,
            15u);
  EXPECT_EQ(
      run1("red.release.cta.global.add.u64 [%in+8], 7;\n ld.global.cv.u64 %o, [%in+8];", 0, 10).o,
      17u);
}

// One CTA per cluster: the cluster's shared window is the CTA's shared memory.
TEST(MemoryQualifierSemantics, SharedClusterIsTheCtasOwnSharedMemory) {
  EXPECT_EQ(run1(std::string(kShared) +
                     "st.shared::cluster.u64 [buf+8], %a;\n ld.shared::cta.u64 %o, [buf+8];",
                 77)
                .o,
            77u);
  EXPECT_EQ(
      run1(std::string(kShared) + "mov.u64 %rd1, buf;\n cvta.shared::cluster.u64 %rd2, %rd1;\n"
                                  "st.u64 [%rd2+16], %a;\n ld.shared.u64 %o, [buf+16];",
           78)
          .o,
      78u);
}

TEST(MemoryQualifierSemantics, IsspacepTellsTheGenericWindowsApart) {
  const std::string pre = std::string(kShared) +
                          ".local .align 8 .b8 loc[16];\n"
                          "mov.u64 %rd1, buf;\n cvta.shared.u64 %rd2, %rd1;\n mov.u64 %rd1, loc;\n "
                          "cvta.local.u64 %rd3, %rd1;\n"
                          "cvta.global.u64 %rd4, %in;\n";
  auto bits = [&](const std::string& space) {
    const std::string s = pre + "isspacep." + space + " %q1, %rd2;\n isspacep." + space +
                          " %q2, %rd3;\n isspacep." + space +
                          " %q3, %rd4;\n selp.u64 %rd5, 1, 0, %q1;\n selp.u64 %rd6, 2, 0, %q2;\n "
                          "selp.u64 %rd7, 4, 0, %q3;\n"
                          "or.b64 %o, %rd5, %rd6;\n or.b64 %o, %o, %rd7;";
    return run1(s, 0).o;
  };
  EXPECT_EQ(bits("shared"), 1u);  // shared, local, global address
  EXPECT_EQ(bits("shared::cta"), 1u);
  EXPECT_EQ(bits("shared::cluster"), 1u);
  EXPECT_EQ(bits("local"), 2u);
  EXPECT_EQ(bits("global"), 4u);
  EXPECT_EQ(bits("param"), 0u);
}

TEST(MemoryQualifierSemantics, CreatepolicyRecordsItsFormAndPriorities) {
  auto policy = [](const std::string& instr) { return run1(instr, 0).o; };
  const uint64_t last = policy("createpolicy.fractional.L2::evict_last.b64 %o;");
  const uint64_t first = policy("createpolicy.fractional.L2::evict_first.b64 %o;");
  const uint64_t half = policy("createpolicy.fractional.L2::evict_last.b64 %o, 0.5;");
  const uint64_t mixed =
      policy("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %o, 0.5;");
  const uint64_t range =
      policy("createpolicy.range.L2::evict_last.L2::evict_first.b64 %o, [%in], 1024, 4096;");
  EXPECT_NE(last, 0u);
  EXPECT_NE(last, first);
  EXPECT_NE(last, half);
  EXPECT_NE(half, mixed);
  EXPECT_NE(range, last);
  EXPECT_EQ(
      policy(
          "createpolicy.fractional.L2::evict_last.b64 %rd1;\n createpolicy.cvt.L2.b64 %o, %rd1;"),
      last);
  EXPECT_EQ(
      policy("mov.f32 %f1, 0f3F000000;\n createpolicy.fractional.L2::evict_last.b64 %o, %f1;"),
      half);
}

TEST(MemoryQualifierSemantics, CreatepolicyFractionOutsideZeroToOneIsAKernelFault) {
  EXPECT_THROW(run1("createpolicy.fractional.L2::evict_last.b64 %o, 1.5;", 0), func::KernelFault);
  EXPECT_THROW(run1("createpolicy.fractional.L2::evict_last.b64 %o, 0.0;", 0), func::KernelFault);
}

TEST(MemoryQualifierSemantics, CacheControlInstructionsLeaveMemoryAsItIs) {
  EXPECT_EQ(run1("prefetch.global.L2::evict_last [%in];\n prefetchu.L1 [%in];\n prefetch.tensormap "
                 "[%in];\n prefetch.param.tensormap [pin];\n"
                 "applypriority.global.L2::evict_normal [%in], 128;\n fence.proxy.async;\n "
                 "fence.acq_rel.gpu;\n"
                 "membar.sys;\n nanosleep.u32 20;\n ld.global.u64 %o, [%in];",
                 99)
                .o,
            99u);
}

}  // namespace
}  // namespace gputlm::test
