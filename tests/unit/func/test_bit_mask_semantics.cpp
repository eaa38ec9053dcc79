// bmsk, szext, fns and the prmt modes (PTX ISA, Integer Arithmetic Instructions: bmsk, szext,
// fns; Data Movement and Conversion Instructions: prmt). Expected values are worked out by hand
// from the ISA pseudocode and tables (and the ISA's own examples where it gives them).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

uint32_t op(const std::string& instr, uint32_t a, uint32_t b, uint32_t c = 0) {
  return static_cast<uint32_t>(
      run1(instr + " %r1, %ra, %rb" +
               (instr.rfind("fns", 0) == 0 || instr.rfind("prmt", 0) == 0 ? ", %rc" : "") +
               ";\n cvt.u64.u32 %o, %r1;",
           a, b, c)
          .o);
}

TEST(BitMaskSemantics, BmskMakesBOnesFromBitA) {
  EXPECT_EQ(op("bmsk.wrap.b32", 1, 2), 0x6u);  // the ISA's example
  EXPECT_EQ(op("bmsk.clamp.b32", 4, 8), 0xFF0u);
  EXPECT_EQ(op("bmsk.clamp.b32", 0, 31), 0x7FFFFFFFu);
  EXPECT_EQ(op("bmsk.wrap.b32", 5, 0), 0u);  // width 0: no bits
}

TEST(BitMaskSemantics, BmskDropsBitsBeyond31) {
  EXPECT_EQ(op("bmsk.clamp.b32", 28, 8), 0xF0000000u);
  EXPECT_EQ(op("bmsk.wrap.b32", 31, 4), 0x80000000u);
}

// .clamp: a >= 32 gives no bits, b >= 32 all bits from a; .wrap takes both mod 32.
TEST(BitMaskSemantics, BmskClampAndWrapTreatLargeOperandsDifferently) {
  EXPECT_EQ(op("bmsk.clamp.b32", 32, 4), 0u);
  EXPECT_EQ(op("bmsk.wrap.b32", 33, 4), 0x1Eu);
  EXPECT_EQ(op("bmsk.clamp.b32", 0, 32), 0xFFFFFFFFu);
  EXPECT_EQ(op("bmsk.clamp.b32", 8, 100), 0xFFFFFF00u);
  EXPECT_EQ(op("bmsk.wrap.b32", 0, 32), 0u);
  EXPECT_EQ(op("bmsk.wrap.b32", 8, 36), 0xF00u);
}

TEST(BitMaskSemantics, SzextExtendsTheLowNBitsBySignOrZero) {
  EXPECT_EQ(op("szext.clamp.s32", 0x000000F0, 8), 0xFFFFFFF0u);
  EXPECT_EQ(op("szext.clamp.s32", 0x12345670, 8), 0x70u);
  EXPECT_EQ(op("szext.clamp.u32", 0x123456F0, 8), 0xF0u);
  EXPECT_EQ(op("szext.wrap.s32", 0x00010000, 17), 0xFFFF0000u);
  EXPECT_EQ(op("szext.clamp.s32", 0xFFFFFFFF, 1), 0xFFFFFFFFu);
}

// N = 0 gives 0; N >= 32: .clamp keeps a, .wrap uses N mod 32.
TEST(BitMaskSemantics, SzextOfZeroOr32BitsAndMore) {
  EXPECT_EQ(op("szext.wrap.u32", 0xFFFFFFFF, 0), 0u);  // the ISA's example
  EXPECT_EQ(op("szext.clamp.s32", 0x80000001, 40), 0x80000001u);
  EXPECT_EQ(op("szext.clamp.s32", 0x80000000, 32), 0x80000000u);
  EXPECT_EQ(op("szext.wrap.s32", 0x000000F0, 40), 0xFFFFFFF0u);
  EXPECT_EQ(op("szext.wrap.s32", 0x12345678, 32), 0u);
}

TEST(BitMaskSemantics, FnsFindsTheNthSetBitFromBase) {
  const uint32_t m = 0xAAAAAAAA;          // bits 1, 3, 5, ...
  EXPECT_EQ(op("fns.b32", m, 3, 1), 3u);  // the ISA's four examples
  EXPECT_EQ(op("fns.b32", m, 3, static_cast<uint32_t>(-1)), 3u);
  EXPECT_EQ(op("fns.b32", m, 2, 1), 3u);
  EXPECT_EQ(op("fns.b32", m, 2, static_cast<uint32_t>(-1)), 1u);
  EXPECT_EQ(op("fns.b32", m, 0, 3), 5u);
  EXPECT_EQ(op("fns.b32", m, 30, static_cast<uint32_t>(-3)), 25u);  // 29, 27, 25
}

TEST(BitMaskSemantics, FnsGivesAllOnesWhenThereIsNoSuchBit) {
  const uint32_t m = 0xAAAAAAAA;
  EXPECT_EQ(op("fns.b32", m, 31, 2), 0xFFFFFFFFu);
  EXPECT_EQ(op("fns.b32", m, 2, 0), 0xFFFFFFFFu);  // offset 0: base itself, clear
  EXPECT_EQ(op("fns.b32", m, 3, 0), 3u);
  EXPECT_EQ(op("fns.b32", 0, 0, 1), 0xFFFFFFFFu);
}

// {b, a} = bytes 0x77 .. 0x00, so each result byte names its source byte (n -> 0xnn).
TEST(BitMaskSemantics, PrmtModesFollowTheIsaTable) {
  const uint32_t a = 0x33221100, b = 0x77665544;
  EXPECT_EQ(op("prmt.b32.f4e", a, b, 0), 0x33221100u);
  EXPECT_EQ(op("prmt.b32.f4e", a, b, 1), 0x44332211u);
  EXPECT_EQ(op("prmt.b32.f4e", a, b, 3), 0x66554433u);
  EXPECT_EQ(op("prmt.b32.b4e", a, b, 0), 0x55667700u);
  EXPECT_EQ(op("prmt.b32.b4e", a, b, 2), 0x77001122u);
  EXPECT_EQ(op("prmt.b32.rc8", a, b, 2), 0x22222222u);
  EXPECT_EQ(op("prmt.b32.ecl", a, b, 1), 0x33221111u);
  EXPECT_EQ(op("prmt.b32.ecl", a, b, 2), 0x33222222u);
  EXPECT_EQ(op("prmt.b32.ecr", a, b, 1), 0x11111100u);
  EXPECT_EQ(op("prmt.b32.ecr", a, b, 2), 0x22221100u);
  EXPECT_EQ(op("prmt.b32.rc16", a, b, 1), 0x33223322u);
  EXPECT_EQ(op("prmt.b32.rc16", a, b, 2), 0x11001100u);
}

TEST(BitMaskSemantics, PrmtModesReadOnlyTheTwoLowSelectorBits) {
  const uint32_t a = 0x33221100, b = 0x77665544;
  EXPECT_EQ(op("prmt.b32.f4e", a, b, 0xFFFFFFF5), 0x44332211u);
  EXPECT_EQ(op("prmt.b32.rc8", a, b, 0x7), 0x33333333u);
}

}  // namespace
}  // namespace gputlm::test
