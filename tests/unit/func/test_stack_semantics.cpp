// The dynamic stack (PTX ISA 9.7.16: alloca, stacksave, stackrestore) on the functional engine:
// allocations above the kernel's frame at their alignment, stackrestore giving back what was
// allocated after the stacksave, a callee's frame and allocations above the caller's (freed at its
// return), and an allocation past the thread's local memory a fault naming it. Also pmevent (no
// effect) and brkpt (a fault without a debugger).
#include <gtest/gtest.h>

#include <string>

#include "models/func/kernel_fault.h"
#include "models/isa/ptx_link.h"
#include "support/module_launch.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// The kernel's 24-byte frame (.local), then: alloca 12; alloca 4 aligned to 16; stacksave;
// alloca 8; stackrestore; alloca 8; a call of leaf (which allocates 5 bytes and returns where);
// alloca 8; then alloca `big`. Each thread writes 64 bytes: the addresses and what it read back.
constexpr const char* kStackPtx = R"(.version 7.3
.target sm_75
.address_size 64

.func (.param .u64 ret) leaf(.param .u64 n)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [n];
  alloca.u64 %rd2, %rd1;
  st.local.u8 [%rd2], 9;
  st.param.u64 [ret], %rd2;
  ret;
}

.visible .entry stack(.param .u64 out, .param .u64 big)
{
  .local .align 8 .b8 frame[24];
  .reg .b64 %rd<20>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd10, [out];
  cvta.to.global.u64 %rd10, %rd10;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd11, %r1, 64;
  add.s64 %rd10, %rd10, %rd11;
  mov.u64 %rd12, frame;
  st.local.u32 [frame], %r1;
  alloca.u64 %rd1, 12;
  alloca.u64 %rd2, 4, 16;
  stacksave.u64 %rd3;
  alloca.u64 %rd4, 8;
  stackrestore.u64 %rd3;
  alloca.u64 %rd5, 8;
  st.local.u32 [%rd1], %r1;
  st.local.u64 [%rd5], %rd5;
  {
    .param .u64 p0;
    .param .u64 r0;
    st.param.u64 [p0], 5;
    call.uni (r0), leaf, (p0);
    ld.param.u64 %rd6, [r0];
  }
  alloca.u64 %rd7, 8;
  ld.local.u32 %r2, [%rd1];
  ld.local.u64 %rd8, [%rd5];
  ld.local.u32 %r3, [frame];
  ld.param.u64 %rd9, [big];
  alloca.u64 %rd13, %rd9;
  st.global.u64 [%rd10], %rd1;
  st.global.u64 [%rd10+8], %rd2;
  st.global.u64 [%rd10+16], %rd4;
  st.global.u64 [%rd10+24], %rd5;
  st.global.u64 [%rd10+32], %rd6;
  st.global.u64 [%rd10+40], %rd7;
  st.global.u64 [%rd10+48], %rd8;
  st.global.u32 [%rd10+56], %r2;
  st.global.u32 [%rd10+60], %r3;
  ret;
}
)";

struct StackRun {
  std::vector<uint64_t> words;  // per thread: 8 words (the last holds two u32)
  ModuleLaunch m{isa::parse_ptx(kStackPtx, "stack.ptx")};
  void go(uint32_t threads, uint64_t big) {
    const uint64_t out = m.memory.allocate(64 * threads, "out");
    m.run("stack", 1, threads, {out, big});
    words = m.read<uint64_t>(out, 8 * threads);
  }
};

TEST(StackSemantics, AllocaPlacesBlocksAboveTheFrameAtTheirAlignment) {
  StackRun r;
  r.go(2, 0);
  EXPECT_TRUE(r.m.module->get("stack").dynamic_stack);
  EXPECT_EQ(r.m.module->get("stack").local_bytes % 16, 0u);
  for (unsigned t = 0; t < 2; ++t) {
    const uint64_t* w = &r.words[8 * t];
    EXPECT_GE(w[0], 24u) << "above the kernel's 24-byte frame";
    EXPECT_EQ(w[0] % 8, 0u);
    EXPECT_EQ(w[1] % 16, 0u);
    EXPECT_GE(w[1], w[0] + 12);
    EXPECT_GE(w[2], w[1] + 4);
    EXPECT_EQ(w[3], w[2]) << "stackrestore gave back the block allocated after the stacksave";
    EXPECT_GT(w[4], w[3] + 8) << "the callee's allocation lies above the caller's";
    EXPECT_EQ(w[5], w[3] + 8) << "the callee's allocation was freed at its return";
    EXPECT_EQ(w[6], w[3]) << "the caller's block kept its contents across the call";
    EXPECT_EQ(w[7], uint64_t{t} << 32 | t) << "the first block and the frame kept theirs";
  }
}

TEST(StackSemantics, AnAllocationPastTheThreadsLocalMemoryIsAFault) {
  StackRun r;
  const std::string f = kernel_fault([&] { r.go(1, 100000); });
  EXPECT_NE(f.find("alloca of 100000 bytes overflows the thread's stack"), std::string::npos) << f;
  StackRun fits;
  fits.go(1, isa::kDynamicStackBytes / 2);
}

TEST(StackSemantics, PmeventDoesNothingAndBrkptStopsTheKernel) {
  EXPECT_EQ(run1("pmevent 3;\n pmevent.mask 0x11;\n add.u64 %o, %a, 1;\n", 41).o, 42u);
  const std::string f = kernel_fault([] { run1("brkpt;\n", 0); });
  EXPECT_NE(f.find("brkpt (a breakpoint) executed with no debugger attached"), std::string::npos)
      << f;
}

}  // namespace
}  // namespace gputlm::test
