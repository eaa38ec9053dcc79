// The video instructions (PTX ISA 9.7.18): vabsdiff4's sum of the four byte differences plus c
// (.add), its packed differences and signed bytes; then each scalar and SIMD form against values
// worked out from the ISA's pseudocode (selectors, saturation to the destination's part, the
// secondary operations and merges, shift modes, vmad's negations, scaling and .po, SIMD
// selectors, masks and averages), and the forms ptxas refuses.
#include <gtest/gtest.h>

#include <cstdlib>

#include "models/common/error.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

uint64_t sad(uint32_t a, uint32_t b, bool is_signed) {
  uint64_t s = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const int ai = is_signed ? int8_t(a >> 8 * i) : uint8_t(a >> 8 * i),
              bi = is_signed ? int8_t(b >> 8 * i) : uint8_t(b >> 8 * i);
    s += std::abs(ai - bi);
  }
  return s;
}

TEST(VideoSemantics, Vabsdiff4AddSumsTheByteDifferencesIntoC) {
  const std::vector<Inputs> in = {
      {0x01020304, 0x04030201, 10}, {0xFF00FF00, 0x00FF00FF, 0}, {0x80808080, 0x7F7F7F7F, 7}};
  expect_lanes("vabsdiff4.u32.u32.u32.add",
               "vabsdiff4.u32.u32.u32.add %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n", in,
               [](uint64_t a, uint64_t b, uint64_t c) {
                 return (sad(uint32_t(a), uint32_t(b), false) + c) & 0xFFFFFFFF;
               });
  expect_lanes("vabsdiff4.s32.s32.s32.add",
               "vabsdiff4.s32.s32.s32.add %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n", in,
               [](uint64_t a, uint64_t b, uint64_t c) {
                 return (sad(uint32_t(a), uint32_t(b), true) + c) & 0xFFFFFFFF;
               });
}

TEST(VideoSemantics, Vabsdiff4WithoutAddPacksTheByteDifferences) {
  const auto out = run1("vabsdiff4.u32.u32.u32 %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n",
                        0x10FF0005, 0x200000FF, 0);
  EXPECT_EQ(out.o, 0x10FF00FAu);
}

// Runs one video instruction writing %r1 from %ra, %rb, %rc; returns %r1.
uint64_t video(const std::string& instruction, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
  return run1(instruction + "\n cvt.u64.u32 %o, %r1;\n", a, b, c).o;
}

TEST(VideoSemantics, SaturationWithAnAccumulateIsRefusedAsPtxasDoes) {
  EXPECT_THROW(video("vabsdiff4.u32.u32.u32.sat.add %r1, %ra, %rb, %rc;", 0xFF, 0, 1), SourceError);
}

TEST(VideoSemantics, ScalarSelectorsTakeAByteOrHalfWordOfEachType) {
  EXPECT_EQ(video("vadd.s32.u32.s32.sat %r1, %ra.b0, %rb.h0;", 0x1234FF, 0xFFFF),
            254u);  // 255 + (-1)
  EXPECT_EQ(video("vsub.s32.s32.u32.sat %r1, %ra.h1, %rb.h1;", 0x80000000, 0xFFFF0000),
            0xFFFE8001u);                                             // -32768 - 65535
  EXPECT_EQ(video("vsub.u32.u32.u32.sat %r1, %ra, %rb;", 1, 2), 0u);  // -1 clamped to .u32
  EXPECT_EQ(video("vsub.u32.u32.u32 %r1, %ra, %rb;", 1, 2), 0xFFFFFFFFu);
}

TEST(VideoSemantics, ScalarResultsSaturateToTheDestinationsPartAndMergeIntoC) {
  // |-128 - 127| = 255: fits .s16 (h0), clamps to 127 in a byte (b1); the rest of d is c's.
  EXPECT_EQ(
      video("vabsdiff.s32.s32.s32.sat %r1.h0, %ra.b0, %rb.b2, %rc;", 0x80, 0x7F0000, 0xAAAABBBB),
      0xAAAA00FFu);
  EXPECT_EQ(
      video("vabsdiff.s32.s32.s32.sat %r1.b1, %ra.b0, %rb.b2, %rc;", 0x80, 0x7F0000, 0xAAAABBBB),
      0xAAAA7FBBu);
  EXPECT_EQ(video("vabsdiff.s32.s32.s32 %r1.b3, %ra.b0, %rb.b2, %rc;", 0x80, 0x7F0000, 0xAAAABBBB),
            0xFFAABBBBu);
}

TEST(VideoSemantics, ScalarSecondaryOperationsCombineWithC) {
  EXPECT_EQ(video("vmin.s32.s32.s32.sat.add %r1, %ra, %rb, %rc;", 5, static_cast<uint32_t>(-3), 10),
            7u);
  EXPECT_EQ(video("vmax.u32.u32.u32.min %r1, %ra, %rb, %rc;", 7, 9, 4), 4u);
  EXPECT_EQ(video("vmax.s32.s32.s32.max %r1, %ra, %rb, %rc;", 7, 9, static_cast<uint32_t>(-4)),
            9u);  // c signed as dtype
  EXPECT_EQ(video("vmax.u32.u32.u32.max %r1, %ra, %rb, %rc;", 7, 9, static_cast<uint32_t>(-4)),
            0xFFFFFFFCu);
}

TEST(VideoSemantics, ShiftsClampOrWrapTheirAmount) {
  EXPECT_EQ(video("vshl.u32.u32.u32.clamp %r1, %ra, %rb;", 1, 40), 0u);  // 1 << 32
  EXPECT_EQ(video("vshl.u32.u32.u32.sat.clamp %r1, %ra, %rb;", 1, 40), 0xFFFFFFFFu);
  EXPECT_EQ(video("vshl.u32.u32.u32.wrap %r1, %ra, %rb;", 1, 40), 256u);
  EXPECT_EQ(video("vshr.s32.s32.u32.wrap %r1, %ra, %rb;", 0x80000000, 33), 0xC0000000u);
  EXPECT_EQ(video("vshr.u32.u32.u32.clamp %r1, %ra, %rb;", 0x80000000, 35), 0u);
  EXPECT_EQ(video("vshr.s32.s32.u32.clamp %r1, %ra, %rb;", 0x80000000, 35), 0xFFFFFFFFu);
  EXPECT_EQ(video("vshr.u32.u32.u32.wrap %r1, %ra, %rb.h1;", 0x100, 0x00040000), 0x10u);
}

TEST(VideoSemantics, VsetComparesByEachOperandsSign) {
  EXPECT_EQ(video("vset.s32.u32.lt %r1, %ra, %rb;", 0xFFFFFFFF, 0), 1u);  // -1 < 0
  EXPECT_EQ(video("vset.u32.u32.lt %r1, %ra, %rb;", 0xFFFFFFFF, 0), 0u);
  EXPECT_EQ(video("vset.u32.u32.ne.add %r1, %ra.b1, %rb.h1, %rc;", 0x100, 0x10000, 5), 5u);
  EXPECT_EQ(video("vset.u32.u32.eq %r1.b2, %ra.b1, %rb.h1, %rc;", 0x100, 0x10000, 0xFFFFFFFF),
            0xFF01FFFFu);
}

TEST(VideoSemantics, VmadNegatesScalesAndSaturates) {
  EXPECT_EQ(video("vmad.u32.u32.u32.shr15 %r1, %ra.h0, %rb.h0, %rc;", 0x8000, 0x8000, 0),
            32768u);  // 2^30 >> 15
  EXPECT_EQ(video("vmad.s32.s32.u32.sat %r1, %ra, %rb, -%rc;", static_cast<uint32_t>(-2), 3, 4),
            static_cast<uint32_t>(-10));
  EXPECT_EQ(video("vmad.u32.u32.u32.po %r1, %ra, %rb, %rc;", 3, 4, 5), 18u);
  EXPECT_EQ(video("vmad.s32.u32.u32 %r1, -%ra, %rb, %rc;", 3, 4, 20), 8u);  // -(3 * 4) + 20
  EXPECT_EQ(video("vmad.u32.u32.u32.sat %r1, %ra, %rb, %rc;", 0x10000, 0x10000, 0), 0xFFFFFFFFu);
  EXPECT_EQ(video("vmad.u32.u32.u32 %r1, %ra, %rb, %rc;", 0x10000, 0x10000, 7), 7u);
  EXPECT_EQ(video("vmad.s32.s32.s32.shr7 %r1, %ra, %rb, %rc;", static_cast<uint32_t>(-256), 1, 0),
            static_cast<uint32_t>(-2));
}

TEST(VideoSemantics, SimdHalfWordsStayApartAndSaturateByDtype) {
  EXPECT_EQ(video("vadd2.u32.u32.u32 %r1, %ra, %rb, %rc;", 0x00030001, 0x00040002), 0x00070003u);
  EXPECT_EQ(video("vadd2.u32.u32.u32 %r1, %ra, %rb, %rc;", 0x0000FFFF, 0x00000001),
            0u);  // no carry into the next half
  EXPECT_EQ(video("vadd2.u32.u32.u32.sat %r1, %ra, %rb, %rc;", 0x0000FFFF, 0x00000001),
            0x0000FFFFu);
  // -32768 - 1 clamps to -32768; only h0 is written, h1 is c's.
  EXPECT_EQ(video("vsub2.s32.s32.s32.sat %r1.h0, %ra.h10, %rb.h32, %rc;", 0x00008000, 0x00000001,
                  0x12345678),
            0x12348000u);
  EXPECT_EQ(video("vavrg2.s32.s32.s32 %r1, %ra, %rb, %rc;", 0x0001FFFF, 0x0002FFFE),
            0x0002FFFEu);  // (-3) >> 1, (3 + 1) >> 1
}

TEST(VideoSemantics, SimdSelectorsPickFromBothSourcesAndAccumulate) {
  // a.h00: both elements are a's half 0 (9); b.h22: both are b's low half (3); min 3 twice, added
  // to c.
  EXPECT_EQ(
      video("vmin2.s32.u32.u32.add %r1.h10, %ra.h00, %rb.h22, %rc;", 0x00050009, 0x00070003, 100),
      106u);
  // a.b7062 takes bytes 2, 6, 0, 7 of {b, a}; b's default .b7654; the mask writes elements 0 and 2.
  EXPECT_EQ(video("vadd4.u32.u32.u32.sat %r1.b20, %ra.b7062, %rb, %rc;", 0x44332211, 0x88776655,
                  0xAABBCCDD),
            0xAA88CC88u);
  // Signed a: 2 > 0, 1 > 0, -1 > 0, -128 > 0; the mask adds elements 1 and 3 to c.
  EXPECT_EQ(video("vset4.s32.u32.gt.add %r1.b31, %ra, %rb, %rc;", 0x80FF0102, 0, 10), 11u);
  EXPECT_EQ(video("vset4.s32.u32.gt %r1, %ra, %rb, %rc;", 0x80FF0102, 0, 10), 0x00000101u);
  EXPECT_EQ(video("vmax4.s32.s32.s32 %r1, %ra, %rb, %rc;", 0x80FF0102, 0x01010101), 0x01010102u);
}

TEST(VideoSemantics, BadSelectorsAndFormsAreErrorsNamingTheLine) {
  EXPECT_THROW(video("vadd.u32.u32.u32 %r1, %ra.b9, %rb;", 0), SourceError);  // not a selector
  EXPECT_THROW(video("vadd2.u32.u32.u32 %r1, %ra.b3210, %rb, %rc;", 0),
               SourceError);  // bytes on half-words
  EXPECT_THROW(video("vadd.u32.u32.u32 %r1, %ra, %rb, %rc;", 0),
               SourceError);  // c without .op2 or d.dsel
  EXPECT_THROW(video("vshl.u32.u32.u32 %r1, %ra, %rb;", 0), SourceError);  // no .clamp or .wrap
  EXPECT_THROW(video("vmin4.u32.u32.u32.min %r1, %ra, %rb, %rc;", 0),
               SourceError);  // SIMD: .add only
}

}  // namespace
}  // namespace gputlm::test
