// Register storage slots (isa::assign_register_slots): registers never live at once share a slot,
// registers live together, read at the kernel's start, or kept by a guarded write do not; kernels
// that make calls keep one slot a register. Worked out by hand on small kernels.
#include <gtest/gtest.h>

#include "models/isa/ptx_parser.h"
#include "support/ptx_harness.h"
#include "support/ptx_samples.h"

namespace gputlm::isa {
namespace {

std::unique_ptr<Module> kernel(const std::string& text) {
  return test::parse_kernel(" .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n", text);
}
int32_t slot(const Kernel& k, const std::string& name) {
  const int32_t r = test::reg_index(k, name);
  if (r >= 0) return k.reg_slot.at(static_cast<size_t>(r));
  ADD_FAILURE() << "no register " << name;
  return -1;
}

// %r1 dies where %r2 is written, %r2 where %r3 is: the three take one slot. %rd1 is read before
// any write (live from the start), so it is live at all three writes and takes another.
TEST(RegisterSlots, RegistersLiveOneAfterAnotherShareASlot) {
  auto m = kernel(R"(
  mov.u32 %r1, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  st.global.u32 [%rd1], %r3;
  ret;)");
  const Kernel& k = *m->kernels[0];
  EXPECT_EQ(slot(k, "%r1"), slot(k, "%r2"));
  EXPECT_EQ(slot(k, "%r2"), slot(k, "%r3"));
  EXPECT_NE(slot(k, "%r1"), slot(k, "%rd1"));
  EXPECT_EQ(k.reg_slots, 2u);
}

// Every register read before it is written holds the zero it started with: %r1, %r2 and %rd1
// are live together at the start.
TEST(RegisterSlots, RegistersReadBeforeAnyWriteTakeASlotEach) {
  auto m = kernel(R"(
  add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd1], %r3;
  ret;)");
  const Kernel& k = *m->kernels[0];
  EXPECT_NE(slot(k, "%r1"), slot(k, "%r2"));
  EXPECT_NE(slot(k, "%r1"), slot(k, "%rd1"));
  EXPECT_NE(slot(k, "%r2"), slot(k, "%rd1"));
  EXPECT_EQ(k.reg_slots, 3u);  // %r3 reuses %r1's or %r2's
}

// Lanes whose guard fails keep %r1 = 7 through the guarded mov, so %r1 is live where %r2 is
// written and the two cannot share; unguarded, the mov overwrites %r1 in every lane, the first
// write of %r1 is dead, and they share.
TEST(RegisterSlots, AGuardedWriteKeepsTheOldValueLive) {
  const std::string body = R"(
  mov.u32 %r1, 7;
  add.u32 %r2, %r3, 1;
  GUARD mov.u32 %r1, %r2;
  st.global.u32 [%rd1], %r1;
  ret;)";
  for (const bool guarded : {true, false}) {
    std::string text = body;
    text.replace(text.find("GUARD"), 5, guarded ? "@%p1" : "");
    auto m = kernel(text);
    const Kernel& k = *m->kernels[0];
    EXPECT_EQ(slot(k, "%r1") != slot(k, "%r2"), guarded) << text;
  }
}

// %r1 dies at the shfl and %r2 is written after it, so by liveness they could share; but a shfl
// may read %r1 of a lane that is not executing it (elsewhere in the code under independent
// thread scheduling), so the registers of warp collectives keep slots of their own.
TEST(RegisterSlots, AWarpCollectivesRegistersKeepSlotsOfTheirOwn) {
  auto m = kernel(R"(
  mov.u32 %r1, 5;
  shfl.sync.idx.b32 %r3, %r1, 0, 31, -1;
  add.u32 %r2, %r3, 1;
  st.global.u32 [%rd1], %r2;
  ret;)");
  const Kernel& k = *m->kernels[0];
  EXPECT_NE(slot(k, "%r1"), slot(k, "%r2"));
  EXPECT_NE(slot(k, "%r3"), slot(k, "%r2"));
  for (const char* other : {"%p0", "%p1", "%r0", "%r2", "%rd0", "%rd1"})
    EXPECT_NE(slot(k, "%r1"), slot(k, other)) << other;
}

TEST(RegisterSlots, AKernelThatCallsKeepsASlotPerRegister) {
  auto m = test::parse(std::string(".version 9.0\n.target sm_75\n.address_size 64\n") +
                       test::kKernelCallingTwice);
  const Kernel& k = *m->kernels[0];
  ASSERT_EQ(k.reg_slot.size(), k.regs.size());
  EXPECT_EQ(k.reg_slots, k.regs.size());
  for (size_t i = 0; i < k.regs.size(); ++i) EXPECT_EQ(k.reg_slot[i], static_cast<int32_t>(i));
}

}  // namespace
}  // namespace gputlm::isa
