// Packed and saturating integer semantics (PTX ISA, Integer Arithmetic Instructions): dp4a and
// dp2a for every .u32/.s32 type pair, add/min/max on .u16x2/.s16x2, min/max .relu, and the .sat
// forms. Expected values are worked out by hand from the ISA pseudocode in each comment.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// "<op> %r1, %ra, %rb, %rc" (or two sources) on one thread; the 32-bit result.
uint32_t op3(const std::string& op, uint32_t a, uint32_t b, uint32_t c) {
  return static_cast<uint32_t>(run1(op + " %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;", a, b, c).o);
}
uint32_t op2(const std::string& op, uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(run1(op + " %r1, %ra, %rb;\n cvt.u64.u32 %o, %r1;", a, b).o);
}

// a = bytes (1, 2, 3, 4), b = bytes (5, 6, 7, 8): c + 5 + 12 + 21 + 32.
TEST(IntPackedSemantics, Dp4aAddsTheFourByteProductsToC) {
  EXPECT_EQ(op3("dp4a.u32.u32", 0x04030201, 0x08070605, 10), 80u);
}

// a = bytes (0xFF, 0x80, 0x7F, 0x02), b = bytes (0x01, 0x02, 0xFF, 0x80): each byte is signed
// (-1, -128, 127, 2 / 1, 2, -1, -128) or not (255, 128, 127, 2 / 1, 2, 255, 128) by its type.
TEST(IntPackedSemantics, Dp4aExtendsEachOperandsBytesByItsOwnType) {
  const uint32_t a = 0x027F80FF, b = 0x80FF0201;
  EXPECT_EQ(op3("dp4a.s32.s32", a, b, 0), static_cast<uint32_t>(-1 - 256 - 127 - 256));
  EXPECT_EQ(op3("dp4a.u32.u32", a, b, 0), 255u + 256 + 127 * 255 + 256);
  EXPECT_EQ(op3("dp4a.s32.u32", a, b, 0), static_cast<uint32_t>(-1 - 256 + 127 * 255 + 256));
  EXPECT_EQ(op3("dp4a.u32.s32", a, b, 0), static_cast<uint32_t>(255 + 256 - 127 - 256));
  EXPECT_EQ(op3("dp4a.s32.s32", a, b, static_cast<uint32_t>(-5)), static_cast<uint32_t>(-645));
}

// a = halves (3, 0xFFFF), b = bytes (1, 2, 3, 4) or (1, 2, 3, 0xFF); .lo uses bytes 0-1, .hi 2-3.
TEST(IntPackedSemantics, Dp2aUsesTheLowOrHighBytePairOfB) {
  const uint32_t a = 0xFFFF0003;
  EXPECT_EQ(op3("dp2a.lo.s32.s32", a, 0x04030201, 100), 100u + 3 * 1 - 1 * 2);
  EXPECT_EQ(op3("dp2a.hi.s32.s32", a, 0x04030201, 100), 100u + 3 * 3 - 1 * 4);
  EXPECT_EQ(op3("dp2a.lo.u32.u32", a, 0x04030201, 100), 100u + 3 * 1 + 65535 * 2);
  EXPECT_EQ(op3("dp2a.hi.u32.s32", a, 0xFF030201, 100),
            static_cast<uint32_t>(100 + 3 * 3 + 65535 * -1));
  EXPECT_EQ(op3("dp2a.hi.s32.u32", a, 0xFF030201, 0), static_cast<uint32_t>(3 * 3 - 1 * 255));
}

TEST(IntPackedSemantics, MinMaxReluClampNegativeResultsToZero) {
  EXPECT_EQ(op2("min.relu.s32", static_cast<uint32_t>(-5), 3), 0u);
  EXPECT_EQ(op2("max.relu.s32", static_cast<uint32_t>(-5), static_cast<uint32_t>(-3)), 0u);
  EXPECT_EQ(op2("max.relu.s32", static_cast<uint32_t>(-5), 7), 7u);
  EXPECT_EQ(op2("min.relu.s32", 9, 4), 4u);
}

// a = halves (5, 0xFFFF), b = halves (7, 2): element 0 is the low half.
TEST(IntPackedSemantics, MinMax16x2CompareEachHalfBySignedness) {
  const uint32_t a = 0xFFFF0005, b = 0x00020007;
  EXPECT_EQ(op2("min.s16x2", a, b), 0xFFFF0005u);  // min(5, 7), min(-1, 2)
  EXPECT_EQ(op2("min.u16x2", a, b), 0x00020005u);  // min(5, 7), min(65535, 2)
  EXPECT_EQ(op2("max.s16x2", a, b), 0x00020007u);
  EXPECT_EQ(op2("max.u16x2", a, b), 0xFFFF0007u);
  EXPECT_EQ(op2("min.relu.s16x2", a, b), 0x00000005u);  // the -1 half becomes 0
  EXPECT_EQ(op2("max.relu.s16x2", 0x8000FFFE, 0xFFF0FFFF), 0x00000000u);
}

// Each half wraps on its own: 0x8000 + 0x8001 = 0x0001 and 0xFFFF + 2 = 0x0001, no carry across.
TEST(IntPackedSemantics, Add16x2WrapsEachHalfSeparately) {
  EXPECT_EQ(op2("add.u16x2", 0xFFFF8000, 0x00028001), 0x00010001u);
  EXPECT_EQ(op2("add.s16x2", 0xFFFF8000, 0x00028001), 0x00010001u);
  EXPECT_EQ(op2("add.u16x2", 0x00010002, 0x00030004), 0x00040006u);
}

TEST(IntPackedSemantics, SatFormsClampToTheS32Range) {
  const uint32_t min = 0x80000000, max = 0x7FFFFFFF;
  EXPECT_EQ(op2("sub.sat.s32", min, 1), min);
  EXPECT_EQ(op2("sub.sat.s32", max, static_cast<uint32_t>(-1)), max);
  EXPECT_EQ(op2("add.sat.s32", max, 1), max);
  EXPECT_EQ(op2("sub.sat.s32", 5, 7), static_cast<uint32_t>(-2));
  // mad.hi.sat: high half of 0x7FFFFFFF * 0x7FFFFFFF is 0x3FFFFFFF; + 0x7FFFFFFF saturates.
  EXPECT_EQ(op3("mad.hi.sat.s32", max, max, max), max);
}

TEST(IntPackedSemantics, FormsTheIsaDoesNotListAreRefusedAtBind) {
  EXPECT_THROW(op2("min.relu.u32", 1, 2), std::exception);
  EXPECT_THROW(op2("add.sat.u32", 1, 2), std::exception);
  EXPECT_THROW(op3("dp2a.wide.u32.u32", 1, 2, 3), std::exception);
  EXPECT_THROW(op3("dp4a.u64.u32", 1, 2, 3), std::exception);
}

}  // namespace
}  // namespace gputlm::test
