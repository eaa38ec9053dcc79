// vabsdiff4 (PTX ISA 9.7.16 SIMD video instructions): the sum of the four byte differences plus
// c (.add), the packed byte differences, signed bytes, and .sat.
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

uint64_t sad(uint32_t a, uint32_t b, bool is_signed) {
  uint64_t s = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const int ai = is_signed ? int8_t(a >> 8 * i) : uint8_t(a >> 8 * i), bi = is_signed ? int8_t(b >> 8 * i) : uint8_t(b >> 8 * i);
    s += std::abs(ai - bi);
  }
  return s;
}

TEST(VideoSemantics, Vabsdiff4AddSumsTheByteDifferencesIntoC) {
  const std::vector<Inputs> in = {{0x01020304, 0x04030201, 10}, {0xFF00FF00, 0x00FF00FF, 0}, {0x80808080, 0x7F7F7F7F, 7}};
  expect_lanes("vabsdiff4.u32.u32.u32.add", "vabsdiff4.u32.u32.u32.add %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n", in,
               [](uint64_t a, uint64_t b, uint64_t c) { return (sad(uint32_t(a), uint32_t(b), false) + c) & 0xFFFFFFFF; });
  expect_lanes("vabsdiff4.s32.s32.s32.add", "vabsdiff4.s32.s32.s32.add %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n", in,
               [](uint64_t a, uint64_t b, uint64_t c) { return (sad(uint32_t(a), uint32_t(b), true) + c) & 0xFFFFFFFF; });
}

TEST(VideoSemantics, Vabsdiff4WithoutAddPacksTheByteDifferences) {
  const auto out = run1("vabsdiff4.u32.u32.u32 %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n", 0x10FF0005, 0x200000FF, 0);
  EXPECT_EQ(out.o, 0x10FF00FAu);
}

TEST(VideoSemantics, Vabsdiff4SatClampsTheSum) {
  const auto out = run1("vabsdiff4.u32.u32.u32.sat.add %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;\n", 0xFF, 0, 0xFFFFFFF0);
  EXPECT_EQ(out.o, 0xFFFFFFFFu);
}

}  // namespace
}  // namespace gputlm::test
