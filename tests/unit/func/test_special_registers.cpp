// Special registers (PTX ISA 10): timers, shared-memory sizes, driver/profiling registers and the
// cluster registers of a launch without clusters (each CTA a cluster of one).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/func/exec_context.h"
#include "models/func/kernel_fault.h"
#include "models/func/reference_executor.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

uint64_t read64(const std::string& reg) { return run1("mov.u64 %o, " + reg + ";", 0).o; }
uint64_t read32(const std::string& reg) {
  return run1("mov.u32 %r1, " + reg + ";\n cvt.u64.u32 %o, %r1;", 0).o;
}

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
  const auto r =
      run1("mov.u64 %rd1, %clock64;\n mov.u64 %rd2, %globaltimer;\n sub.s64 %o, %rd2, %rd1;", 0);
  EXPECT_EQ(r.o, func::kGlobaltimerNsPerCycle);
  const auto parts = run1(
      "mov.u64 %rd1, %globaltimer;\n mov.u32 %r1, %globaltimer_lo;\n mov.u32 %r2, "
      "%globaltimer_hi;\n"
      "cvt.u64.u32 %rd3, %r1;\n sub.s64 %o, %rd3, %rd1;\n setp.eq.u32 %p, %r2, 0;",
      0);
  EXPECT_EQ(parts.o, func::kGlobaltimerNsPerCycle);  // read one instruction later
  EXPECT_TRUE(parts.p);
  EXPECT_GT(read64("%globaltimer"), 0u);
}

// Each warp reads W cycles per instruction it executed, W the CTA's warps (cta_runner.h): three
// warps, two instructions apart, every thread sees 6 cycles, whichever order the warps ran in.
TEST(SpecialRegisters, AWarpsClockAdvancesByTheCtasWarpCountPerInstruction) {
  const std::vector<Inputs> inputs(96, Inputs{0, 0, 0});
  const auto out = run_snippet(
      "mov.u64 %rd1, %clock64;\n add.u64 %rd3, %rd1, 1;\n mov.u64 %rd2, %clock64;\n sub.s64 %o, "
      "%rd2, %rd1;",
      inputs);
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
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_begin;\n cvt.u64.u32 %o, %r1;", 0).o,
            112u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_end;\n cvt.u64.u32 %o, %r1;", 0).o,
            112u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_cap;\n cvt.u64.u32 %o, %r1;", 0).o, 0u);
  EXPECT_EQ(run1(decl + "mov.u32 %r1, %reserved_smem_offset_1;\n cvt.u64.u32 %o, %r1;", 0).o, 112u);
  EXPECT_THROW(run1(decl + "mov.u32 %r1, %reserved_smem_offset_0;\n st.shared.u32 [%r1], 5;", 0),
               func::KernelFault);
  EXPECT_ANY_THROW(read32("%reserved_smem_offset_2"));
}

TEST(SpecialRegisters, LanemasksOfLaneFive) {
  std::vector<Inputs> in(6, Inputs{0, 0, 0});
  const auto out = run_snippet(
      "mov.u32 %r1, %lanemask_lt;\n mov.u32 %r2, %lanemask_ge;\n mov.b64 %o, {%r1, %r2};", in);
  EXPECT_EQ(uint32_t(out[5].o), 0x1Fu);
  EXPECT_EQ(uint32_t(out[5].o >> 32), 0xFFFFFFE0u);
}

// A whole warp reads its special registers at once (ExecCtx::special_warp): the same values as
// lane by lane, for warps inside one row of the CTA (64 x 2), warps that span rows (48 x 2: warp 1
// holds the end of row 0 and the start of row 1) and rows shorter than a warp (8 x 12).
TEST(SpecialRegisters, AWarpReadsWhatEachOfItsLanesWouldRead) {
  SnippetLaunch run("mov.u32 %r1, %tid.x;", std::vector<Inputs>(96, Inputs{0, 0, 0}));
  for (const uint32_t bx : {64u, 48u, 8u}) {
    run.launch.block = {bx, 96 / bx, 1};
    run.launch.grid = {5, 3, 1};
    func::CtaState cta(run.launch, 7);
    func::ExecCtx c;
    c.cta = &cta;
    c.clock = 1234;
    for (const isa::SReg r :
         {isa::SReg::Tid, isa::SReg::Ntid, isa::SReg::Ctaid, isa::SReg::Laneid, isa::SReg::Warpid,
          isa::SReg::LanemaskLt, isa::SReg::LanemaskGe, isa::SReg::Clock, isa::SReg::Nctaid})
      for (uint8_t comp = 0; comp < 3; ++comp) {
        isa::Operand o;
        o.kind = isa::OperandKind::Special;
        o.sreg = r;
        o.comp = comp;
        for (uint32_t base = 0; base < 96; base += 32) {
          uint64_t warp[32];
          c.special_warp(o, base, warp);
          for (unsigned lane = 0; lane < 32; ++lane)
            EXPECT_EQ(warp[lane], c.special(o, lane, base + lane))
                << "block.x " << bx << ", register " << int(r) << "." << int(comp) << ", thread "
                << base + lane;
        }
      }
  }
}

// The CTAs of a launch run one after another in one runner (CtaRunner::restart): each starts
// with the registers and shared memory of a new CTA (zero) and its own %ctaid.
TEST(SpecialRegisters, EachCtaOfALaunchStartsAfresh) {
  const std::string snip =
      ".shared .align 4 .b8 buf[128];\n mul.wide.u32 %rd1, %tid, 4;\n mov.u64 %rd2, buf;\n"
      "add.s64 %rd3, %rd2, %rd1;\n ld.shared.u32 %r2, [%rd3];\n add.u32 %r1, %r1, 1;\n"
      "add.u32 %r2, %r2, %r1;\n st.shared.u32 [%rd3], %r2;\n mov.u32 %r3, %ctaid.x;\n"
      "mad.lo.u32 %r2, %r3, 100, %r2;\n cvt.u64.u32 %o, %r2;";
  SnippetLaunch run(snip, std::vector<Inputs>(32, Inputs{0, 0, 0}));
  run.launch.grid = {3, 1, 1};
  const func::FuncStats stats = func::run_reference(*run.bound, run.launch);
  EXPECT_EQ(stats.ctas, 3u);
  const auto out = run.outputs();  // every CTA writes the same slots: the last one's values
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t].o, 201u) << "thread " << t;
}

TEST(SpecialRegisters, CurrentGraphExecIsZeroOutsideADeviceGraph) {
  EXPECT_EQ(run1("mov.u64 %o, %current_graph_exec;\n add.u64 %o, %o, 1;\n", 0).o, 1u);
}

}  // namespace
}  // namespace gputlm::test
