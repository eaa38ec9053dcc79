// Special registers (PTX ISA 10): timers, shared-memory sizes, driver/profiling registers and the
// cluster registers of a launch without clusters (each CTA a cluster of one).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/func/exec_context.h"
#include "models/func/kernel_fault.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

uint64_t read64(const std::string& reg) { return run1("mov.u64 %o, " + reg + ";", 0).o; }
uint64_t read32(const std::string& reg) { return run1("mov.u32 %r1, " + reg + ";\n cvt.u64.u32 %o, %r1;", 0).o; }

// Each CTA is its own 1x1x1 cluster: cluster ids are CTA ids, the position in the cluster is 0.
TEST(SpecialRegisters, ClusterRegistersDescribeOneCtaClusters) {
  EXPECT_EQ(read32("%clusterid.x"), 0u);
  EXPECT_EQ(read32("%nclusterid.x"), 1u);
  EXPECT_EQ(read32("%nclusterid.z"), 1u);
  EXPECT_EQ(read32("%cluster_ctaid.y"), 0u);
  EXPECT_EQ(read32("%cluster_nctaid.x"), 1u);
  EXPECT_EQ(read32("%cluster_nctaid.z"), 1u);
  EXPECT_EQ(read32("%cluster_ctarank"), 0u);
  EXPECT_EQ(read32("%cluster_nctarank"), 1u);
  EXPECT_FALSE(run1("mov.pred %p, %is_explicit_cluster;", 0).p);
}

// One warp, one instruction per engine step: the timer is 1 ns per cycle of that clock.
TEST(SpecialRegisters, GlobaltimerAdvancesWithTheEnginesClock) {
  const auto r = run1("mov.u64 %rd1, %clock64;\n mov.u64 %rd2, %globaltimer;\n sub.s64 %o, %rd2, %rd1;", 0);
  EXPECT_EQ(r.o, func::kGlobaltimerNsPerCycle);
  const auto parts = run1("mov.u64 %rd1, %globaltimer;\n mov.u32 %r1, %globaltimer_lo;\n mov.u32 %r2, %globaltimer_hi;\n"
                          "cvt.u64.u32 %rd3, %r1;\n sub.s64 %o, %rd3, %rd1;\n setp.eq.u32 %p, %r2, 0;", 0);
  EXPECT_EQ(parts.o, func::kGlobaltimerNsPerCycle);  // read one instruction later
  EXPECT_TRUE(parts.p);
  EXPECT_GT(read64("%globaltimer"), 0u);
}

// Each warp reads W cycles per instruction it executed, W the CTA's warps (cta_runner.h): three
// warps, two instructions apart, every thread sees 6 cycles, whichever order the warps ran in.
TEST(SpecialRegisters, AWarpsClockAdvancesByTheCtasWarpCountPerInstruction) {
  const std::vector<Inputs> inputs(96, Inputs{0, 0, 0});
  const auto out = run_snippet("mov.u64 %rd1, %clock64;\n add.u64 %rd3, %rd1, 1;\n mov.u64 %rd2, %clock64;\n sub.s64 %o, %rd2, %rd1;", inputs);
  for (size_t t = 0; t < out.size(); ++t) EXPECT_EQ(out[t].o, 6u) << "thread " << t;
}

TEST(SpecialRegisters, ClockHiIsTheHighHalfOfClock64) {
  EXPECT_EQ(read32("%clock_hi"), 0u);  // a short run stays below 2^32 cycles
}

// The snippet declares 100 bytes of static shared memory, which the CTA occupies up to where
// dynamic shared memory would start (16-byte aligned: 112); the harness launches no dynamic bytes.
TEST(SpecialRegisters, SharedMemorySizesCountStaticAndDynamicBytes) {
  const std::string decl = ".shared .align 4 .b8 buf[100];\n st.shared.u32 [buf], 1;\n";
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %dynamic_smem_size;\n cvt.u64.u32 %o, %r1;", 0).o, 0u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %total_smem_size;\n cvt.u64.u32 %o, %r1;", 0).o, 112u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %aggr_smem_size;\n cvt.u64.u32 %o, %r1;", 0).o, 112u);
}

TEST(SpecialRegisters, DriverAndProfilingRegistersReadAsZero) {
  EXPECT_EQ(read32("%envreg0"), 0u);
  EXPECT_EQ(read32("%envreg31"), 0u);
  EXPECT_EQ(read32("%pm7"), 0u);
  EXPECT_EQ(read64("%pm3_64"), 0u);
  EXPECT_ANY_THROW(read32("%envreg32"));
  EXPECT_ANY_THROW(read32("%pm8"));
}

// No shared memory is reserved here: the (empty) region starts at the end of the CTA's.
TEST(SpecialRegisters, ReservedSharedMemoryIsAnEmptyRegionAfterTheCtas) {
  const std::string decl = ".shared .align 4 .b8 buf[100];\n st.shared.u32 [buf], 1;\n";
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_begin;\n cvt.u64.u32 %o, %r1;", 0).o, 112u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_end;\n cvt.u64.u32 %o, %r1;", 0).o, 112u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_cap;\n cvt.u64.u32 %o, %r1;", 0).o, 0u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_1;\n cvt.u64.u32 %o, %r1;", 0).o, 112u);
  EXPECT_THROW(run1(decl + "mov.u32 %r1, %reserved_smem_offset_0;\n st.shared.u32 [%r1], 5;", 0), func::KernelFault);
  EXPECT_ANY_THROW(read32("%reserved_smem_offset_2"));
}

TEST(SpecialRegisters, LanemasksOfLaneFive) {
  std::vector<Inputs> in(6, Inputs{0, 0, 0});
  const auto out = run_snippet("mov.u32 %r1, %lanemask_lt;\n mov.u32 %r2, %lanemask_ge;\n mov.b64 %o, {%r1, %r2};", in);
  EXPECT_EQ(uint32_t(out[5].o), 0x1Fu);
  EXPECT_EQ(uint32_t(out[5].o >> 32), 0xFFFFFFE0u);
}

}  // namespace
}  // namespace gputlm::test
