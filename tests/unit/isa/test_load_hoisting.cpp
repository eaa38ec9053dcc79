// isa::hoist_loads (core.hoist_loads): which instructions a global load moves above, on
// small kernels whose reordered text is known by hand.
#include <gtest/gtest.h>

#include "models/isa/load_hoisting.h"
#include "support/ptx_harness.h"

namespace gputlm::isa {
namespace {

std::unique_ptr<Module> kernel(const std::string& text) {
  return test::parse(
      ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
      " .reg .pred %p<4>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<6>;\n .reg .f32 %f<4>;\n"
      " .shared .align 16 .b8 tile[256];\n" +
      text + "\n}\n");
}

// The instructions' text, in the hoisted kernel's order.
std::vector<std::string> hoisted(const std::string& text, uint32_t* moved = nullptr) {
  auto m = kernel(text);
  const HoistedKernel h = hoist_loads(*m->kernels[0]);
  if (moved) *moved = h.moved;
  return h.kernel->text;
}

// A tile copy as nvcc writes it: address, load, store to shared, load, store. The first load
// moves above the add it does not need; the second above the first store (shared memory cannot
// alias global) and the mov, but not above the add that makes its own address; the stores keep
// their order after the loads.
TEST(LoadHoisting, AGlobalLoadMovesAboveSharedStoresAndWhatItDoesNotNeed) {
  uint32_t moved = 0;
  const std::vector<std::string> t = hoisted(R"(
  ld.param.u64 %rd1, [p];
  add.s64 %rd2, %rd1, 64;
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
  st.shared.v4.u32 [tile], {%r1, %r2, %r3, %r4};
  mov.u32 %r9, 7;
  ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd2];
  st.shared.v4.u32 [tile+16], {%r5, %r6, %r7, %r8};
  ret;)",
                                             &moved);
  EXPECT_EQ(moved, 2u);
  ASSERT_EQ(t.size(), 8u);
  EXPECT_NE(t[1].find("ld.global.v4.u32 {%r1"), std::string::npos) << t[1];
  EXPECT_NE(t[2].find("add.s64 %rd2"), std::string::npos) << t[2];
  EXPECT_NE(t[3].find("ld.global.v4.u32 {%r5"), std::string::npos) << t[3];
  EXPECT_NE(t[4].find("st.shared.v4.u32 [tile]"), std::string::npos) << t[4];
  EXPECT_NE(t[5].find("mov.u32 %r9"), std::string::npos) << t[5];
  EXPECT_NE(t[6].find("st.shared.v4.u32 [tile+16]"), std::string::npos) << t[6];
}

// What a load never passes: a global store (it may alias), a generic one, a barrier, a read of
// %clock64 (a timed region stays as written), an instruction that reads the register the load
// writes, and a branch (the block's end: the load after it stays in its own block).
TEST(LoadHoisting, ALoadStaysBelowWhatItMayDependOn) {
  for (const std::string& before :
       {std::string("st.global.u32 [%rd3], %r9;"), std::string("st.u32 [%rd3], %r9;"),
        std::string("bar.sync 0;"), std::string("mov.u64 %rd4, %clock64;"),
        std::string("add.s32 %r9, %r1, 1;"), std::string("atom.shared.add.u32 %r9, [tile], 1;")}) {
    uint32_t moved = 9;
    const std::vector<std::string> t = hoisted(R"(
  ld.param.u64 %rd1, [p];
  add.s64 %rd3, %rd1, 64;
  )" + before + R"(
  ld.global.u32 %r1, [%rd1];
  ret;)",
                                               &moved);
    EXPECT_EQ(moved, 0u) << before;
    EXPECT_NE(t[3].find("ld.global.u32 %r1"), std::string::npos) << before;
  }
  uint32_t moved = 9;
  hoisted(R"(
  ld.param.u64 %rd1, [p];
  setp.eq.u64 %p1, %rd1, 0;
  @%p1 bra $L;
$L:
  ld.global.u32 %r1, [%rd1];
  ret;)",
          &moved);
  EXPECT_EQ(moved, 0u);
}

// A volatile load (a flag another thread writes) stays where it is and nothing passes it; two
// global loads keep their order.
TEST(LoadHoisting, VolatileLoadsStayAndLoadsOfASpaceKeepTheirOrder) {
  uint32_t moved = 9;
  std::vector<std::string> t = hoisted(R"(
  ld.param.u64 %rd1, [p];
  mov.u32 %r9, 7;
  ld.volatile.global.u32 %r1, [%rd1];
  ld.shared.u32 %r2, [tile];
  ret;)",
                                       &moved);
  EXPECT_EQ(moved, 0u);
  t = hoisted(R"(
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  mov.u32 %r9, 7;
  ld.global.u32 %r2, [%rd1+4];
  ret;)",
              &moved);
  EXPECT_EQ(moved, 1u);
  EXPECT_NE(t[1].find("ld.global.u32 %r1"), std::string::npos) << t[1];
  EXPECT_NE(t[2].find("ld.global.u32 %r2"), std::string::npos) << t[2];
}

// A shared load moves above a global store and a global load (other state spaces) and the ALU work
// it does not need, but never above a shared store, which may write the word it reads.
TEST(LoadHoisting, ASharedLoadPassesGlobalAccessesButNotASharedStore) {
  uint32_t moved = 0;
  std::vector<std::string> t = hoisted(R"(
  ld.param.u64 %rd1, [p];
  st.shared.u32 [tile], %r9;
  st.global.u32 [%rd1], %r9;
  ld.global.u32 %r3, [%rd1+4];
  add.s32 %r4, %r9, 1;
  ld.shared.u32 %r2, [tile+4];
  ret;)",
                                       &moved);
  EXPECT_EQ(moved, 1u);
  EXPECT_NE(t[2].find("ld.shared.u32 %r2"), std::string::npos) << t[2];
  EXPECT_NE(t[3].find("st.global.u32"), std::string::npos) << t[3];
}

// The reordered kernel is analysed again, and each instruction keeps its source line.
TEST(LoadHoisting, LinesFollowTheInstructions) {
  auto m = kernel(R"(
  ld.param.u64 %rd1, [p];
  st.shared.u32 [tile], %r9;
  ld.global.u32 %r1, [%rd1];
  ret;)");
  const Kernel& k = *m->kernels[0];
  const HoistedKernel h = hoist_loads(k);
  EXPECT_EQ(h.moved, 1u);
  EXPECT_EQ(h.kernel->lines[1], k.lines[2]);
  EXPECT_EQ(h.kernel->lines[2], k.lines[1]);
  EXPECT_EQ(h.kernel->cfg.blocks.size(), k.cfg.blocks.size());
  EXPECT_EQ(h.kernel->cfg.block_of.size(), k.code.size());
}

}  // namespace
}  // namespace gputlm::isa
