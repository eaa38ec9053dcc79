// cvt semantics (PTX ISA 9.7.9.21): float -> integer rounding and saturation, integer -> float
// rounding, integer <-> integer extension/truncation/saturation, f32 <-> f64, integral rounding
// within a float type, .sat/.ftz on floats, f16 <-> f32. Expected values are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Runs one snippet per value in a single launch (thread i gets vals[i] as %a) and returns %o.
std::vector<uint64_t> run_each(const std::string& snippet, const std::vector<uint64_t>& vals) {
  std::vector<Inputs> in;
  for (uint64_t v : vals) in.push_back({v, 0, 0});
  std::vector<uint64_t> out;
  for (const LaneOut& l : run_snippet(snippet, in)) out.push_back(l.o);
  return out;
}
// cvt of f32 inputs to s32, result sign-extended to 64 bits.
std::vector<int64_t> f2i(const std::string& cvt, const std::vector<float>& vals) {
  std::vector<uint64_t> bits;
  for (float f : vals) bits.push_back(f32_bits(f));
  std::vector<int64_t> r;
  for (uint64_t o : run_each(cvt + " %r1, %fa;\n cvt.s64.s32 %o, %r1;", bits))
    r.push_back(static_cast<int64_t>(o));
  return r;
}
uint32_t f32_of(const std::string& cvt_from_a, uint64_t a) {
  return static_cast<uint32_t>(
      run1(cvt_from_a + "\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", a).o);
}

TEST(ConvertSemantics, FloatToIntRoundingModes) {
  using V = std::vector<int64_t>;
  const std::vector<float> x = {2.5f,  3.5f, -2.5f, -3.5f, 0.5f, 1.5f,
                                -0.5f, 2.7f, -2.7f, 2.1f,  -2.1f};
  EXPECT_EQ(f2i("cvt.rni.s32.f32", x), (V{2, 4, -2, -4, 0, 2, 0, 3, -3, 2, -2}));  // ties to even
  EXPECT_EQ(f2i("cvt.rzi.s32.f32", x), (V{2, 3, -2, -3, 0, 1, 0, 2, -2, 2, -2}));
  EXPECT_EQ(f2i("cvt.rmi.s32.f32", x), (V{2, 3, -3, -4, 0, 1, -1, 2, -3, 2, -3}));
  EXPECT_EQ(f2i("cvt.rpi.s32.f32", x), (V{3, 4, -2, -3, 1, 2, 0, 3, -2, 3, -2}));
  // f64 source, 64-bit destination.
  EXPECT_EQ(run1("cvt.rni.s64.f64 %o, %da;", f64_bits(-4.5)).o, static_cast<uint64_t>(-4));
  EXPECT_EQ(run1("cvt.rmi.s64.f64 %o, %da;", f64_bits(-1e-300)).o, static_cast<uint64_t>(-1));
  EXPECT_EQ(run1("cvt.rzi.u64.f64 %o, %da;", f64_bits(1.8e19)).o, 18000000000000000000ull);
  // .ftz: a subnormal input is zero, so .rpi gives 0 instead of 1.
  EXPECT_EQ(f2i("cvt.rpi.s32.f32", {1e-40f}), V{1});
  EXPECT_EQ(f2i("cvt.rpi.ftz.s32.f32", {1e-40f}), V{0});
}

TEST(ConvertSemantics, FloatToIntSaturatesAndNaNGivesZero) {
  using V = std::vector<int64_t>;
  const std::vector<float> x = {1e10f, -1e10f,        kInf,           -kInf,
                                kNaN,  2147483648.0f, -2147483648.0f, 2147483520.0f};
  EXPECT_EQ(f2i("cvt.rzi.s32.f32", x),
            (V{INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 0, INT32_MAX, INT32_MIN, 2147483520}));
  std::vector<uint64_t> bits;
  for (float f : {-5.0f, -0.5f, 4294967296.0f, 3e9f, kNaN, kInf, 1e30f})
    bits.push_back(f32_bits(f));
  EXPECT_EQ(run_each("cvt.rzi.u32.f32 %r1, %fa;\n cvt.u64.u32 %o, %r1;", bits),
            (std::vector<uint64_t>{0, 0, 0xFFFFFFFF, 3000000000u, 0, 0xFFFFFFFF, 0xFFFFFFFF}));
  EXPECT_EQ(
      run_each("cvt.rni.s16.f32 %hc, %fa;\n cvt.s64.s16 %o, %hc;",
               {f32_bits(70000.0f), f32_bits(-70000.0f), f32_bits(-123.5f)}),
      (std::vector<uint64_t>{0x7FFF, static_cast<uint64_t>(-32768), static_cast<uint64_t>(-124)}));
  EXPECT_EQ(run_each("cvt.rni.u8.f32 %hc, %fa;\n cvt.u64.u8 %o, %hc;",
                     {f32_bits(300.0f), f32_bits(-1.0f), f32_bits(254.6f)}),
            (std::vector<uint64_t>{255, 0, 255}));
  EXPECT_EQ(run_each("cvt.rzi.s64.f64 %o, %da;",
                     {f64_bits(1e19), f64_bits(-1e19), f64_bits(std::nan(""))}),
            (std::vector<uint64_t>{0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0}));
  EXPECT_EQ(run_each("cvt.rzi.u64.f64 %o, %da;", {f64_bits(2e19), f64_bits(-3.0)}),
            (std::vector<uint64_t>{~0ull, 0}));
}

TEST(ConvertSemantics, IntToFloatHonoursTheRoundingModifier) {
  const uint64_t p = (1u << 24) + 1,
                 n = static_cast<uint32_t>(-static_cast<int32_t>(p));  // +-16777217
  EXPECT_EQ(f32_of("cvt.rn.f32.s32 %f1, %ra;", p), 0x4B800000u);       // 16777216 (tie to even)
  EXPECT_EQ(f32_of("cvt.rz.f32.s32 %f1, %ra;", p), 0x4B800000u);
  EXPECT_EQ(f32_of("cvt.rm.f32.s32 %f1, %ra;", p), 0x4B800000u);
  EXPECT_EQ(f32_of("cvt.rp.f32.s32 %f1, %ra;", p), 0x4B800001u);      // 16777218
  EXPECT_EQ(f32_of("cvt.rn.f32.s32 %f1, %ra;", p + 2), 0x4B800002u);  // 16777219 -> 16777220 (even)
  EXPECT_EQ(f32_of("cvt.rz.f32.s32 %f1, %ra;", p + 2), 0x4B800001u);
  EXPECT_EQ(f32_of("cvt.rn.f32.s32 %f1, %ra;", n), 0xCB800000u);
  EXPECT_EQ(f32_of("cvt.rm.f32.s32 %f1, %ra;", n), 0xCB800001u);  // -16777218
  EXPECT_EQ(f32_of("cvt.rp.f32.s32 %f1, %ra;", n), 0xCB800000u);
  EXPECT_EQ(f32_of("cvt.rn.f32.u32 %f1, %ra;", 0xFFFFFFFF), 0x4F800000u);  // 2^32
  EXPECT_EQ(f32_of("cvt.rz.f32.u32 %f1, %ra;", 0xFFFFFFFF), 0x4F7FFFFFu);
  EXPECT_EQ(f32_of("cvt.rn.f32.s32 %f1, %ra;", 0xFFFFFFFF), f32_bits(-1.0f));  // signed source
  EXPECT_EQ(f32_of("cvt.rn.f32.u64 %f1, %a;", ~0ull), 0x5F800000u);            // 2^64
  EXPECT_EQ(f32_of("cvt.rz.f32.u64 %f1, %a;", ~0ull), 0x5F7FFFFFu);
  const uint64_t p53 = (1ull << 53) + 1;
  EXPECT_EQ(run1("cvt.rn.f64.s64 %o, %a;", p53).o, f64_bits(9007199254740992.0));
  EXPECT_EQ(run1("cvt.rp.f64.s64 %o, %a;", p53).o, f64_bits(9007199254740994.0));
  EXPECT_EQ(run1("cvt.rn.f64.u32 %o, %ra;", 0xFFFFFFFF).o, f64_bits(4294967295.0));  // exact
}

TEST(ConvertSemantics, IntToIntExtendsTruncatesAndSaturates) {
  EXPECT_EQ(run1("cvt.s64.s32 %o, %ra;", 0xFFFFFFFF).o, ~0ull);
  EXPECT_EQ(run1("cvt.u64.u32 %o, %ra;", 0xFFFFFFFF).o, 0xFFFFFFFFull);
  EXPECT_EQ(run1("cvt.u64.s32 %o, %ra;", 0x80000000).o,
            0xFFFFFFFF80000000ull);  // source type decides
  EXPECT_EQ(run1("cvt.s64.u32 %o, %ra;", 0x80000000).o, 0x80000000ull);
  EXPECT_EQ(run1("cvt.u32.u64 %r1, %a;\n cvt.u64.u32 %o, %r1;", 0x123456789ull).o, 0x23456789u);
  EXPECT_EQ(run1("cvt.u16.u32 %hc, %ra;\n cvt.u64.u16 %o, %hc;", 0x12345).o, 0x2345u);
  EXPECT_EQ(run1("cvt.s32.s8 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0x80).o, 0xFFFFFF80u);
  EXPECT_EQ(run1("cvt.s32.s8 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0x17F).o, 0x7Fu);
  EXPECT_EQ(run1("cvt.u32.u8 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0x1FF).o, 0xFFu);
  EXPECT_EQ(run1("cvt.s32.s16 %r1, %ha;\n cvt.u64.u32 %o, %r1;", 0x8001).o, 0xFFFF8001u);
  // .sat clamps to the destination range.
  const std::vector<uint64_t> s32_in = {300,        static_cast<uint32_t>(-5),   100, 0x7FFFFFFF,
                                        0x80000000, static_cast<uint32_t>(-200), 200};
  EXPECT_EQ(run_each("cvt.sat.u8.s32 %r1, %ra;\n cvt.u64.u8 %o, %r1;", s32_in),
            (std::vector<uint64_t>{255, 0, 100, 255, 0, 0, 200}));
  EXPECT_EQ(run_each("cvt.sat.s8.s32 %r1, %ra;\n cvt.s64.s8 %o, %r1;", s32_in),
            (std::vector<uint64_t>{127, static_cast<uint64_t>(-5), 100, 127,
                                   static_cast<uint64_t>(-128), static_cast<uint64_t>(-128), 127}));
  EXPECT_EQ(run1("cvt.sat.u32.s32 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0xFFFFFFFF).o, 0u);
  EXPECT_EQ(run1("cvt.sat.s32.u32 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0xFFFFFFFF).o, 0x7FFFFFFFu);
  EXPECT_EQ(run1("cvt.sat.u16.u32 %hc, %ra;\n cvt.u64.u16 %o, %hc;", 70000).o, 0xFFFFu);
  EXPECT_EQ(
      run1("cvt.sat.s16.s64 %hc, %a;\n cvt.s64.s16 %o, %hc;", static_cast<uint64_t>(-100000)).o,
      static_cast<uint64_t>(-32768));
  EXPECT_EQ(run1("cvt.sat.s32.s64 %r1, %a;\n cvt.s64.s32 %o, %r1;", 0x100000000ull).o, 0x7FFFFFFFu);
  EXPECT_EQ(run1("cvt.sat.u64.s64 %o, %a;", ~0ull).o, 0u);
  EXPECT_EQ(run1("cvt.sat.s64.u64 %o, %a;", ~0ull).o, 0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(run1("cvt.sat.u32.u64 %r1, %a;\n cvt.u64.u32 %o, %r1;", 0x100000000ull).o, 0xFFFFFFFFu);
}

TEST(ConvertSemantics, F32AndF64ConvertWithRounding) {
  EXPECT_EQ(run1("cvt.f64.f32 %o, %fa;", f32_bits(0.1f)).o,
            f64_bits(static_cast<double>(0.1f)));  // exact
  EXPECT_EQ(run1("cvt.f64.f32 %o, %fa;", f32_bits(1e-40f)).o,
            f64_bits(static_cast<double>(1e-40f)));
  const uint64_t x = f64_bits(1.0 + std::ldexp(1.0, -30)),
                 nx = f64_bits(-(1.0 + std::ldexp(1.0, -30)));
  EXPECT_EQ(f32_of("cvt.rn.f32.f64 %f1, %da;", x), 0x3F800000u);
  EXPECT_EQ(f32_of("cvt.rz.f32.f64 %f1, %da;", x), 0x3F800000u);
  EXPECT_EQ(f32_of("cvt.rp.f32.f64 %f1, %da;", x), 0x3F800001u);
  EXPECT_EQ(f32_of("cvt.rm.f32.f64 %f1, %da;", nx), 0xBF800001u);
  EXPECT_EQ(f32_of("cvt.rn.f32.f64 %f1, %da;", f64_bits(0.1)), 0x3DCCCCCDu);
  EXPECT_EQ(f32_of("cvt.rz.f32.f64 %f1, %da;", f64_bits(0.1)), 0x3DCCCCCCu);
  EXPECT_EQ(f32_of("cvt.rn.f32.f64 %f1, %da;", f64_bits(1e300)), f32_bits(kInf));
  EXPECT_EQ(f32_of("cvt.rz.f32.f64 %f1, %da;", f64_bits(1e300)), 0x7F7FFFFFu);  // FLT_MAX
  EXPECT_EQ(f32_of("cvt.rn.f32.f64 %f1, %da;", f64_bits(1e-50)), 0u);
  EXPECT_EQ(f32_of("cvt.rp.f32.f64 %f1, %da;", f64_bits(1e-50)), 1u);  // smallest subnormal
  EXPECT_EQ(f32_of("cvt.rn.ftz.f32.f64 %f1, %da;", f64_bits(1e-40)),
            0u);  // subnormal result flushed
}

TEST(ConvertSemantics, RoundToIntegralWithinAFloatType) {
  const std::vector<float> x = {2.5f, 3.5f, -0.5f, -2.5f, -2.7f, 2.1f, -2.1f, 1e20f};
  auto run_f = [&](const std::string& cvt) {
    std::vector<uint64_t> bits;
    for (float f : x) bits.push_back(f32_bits(f));
    std::vector<float> r;
    for (uint64_t o : run_each(cvt + " %f1, %fa;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", bits))
      r.push_back(bits_f32(o));
    return r;
  };
  EXPECT_EQ(run_f("cvt.rni.f32.f32"), (std::vector<float>{2, 4, -0.0f, -2, -3, 2, -2, 1e20f}));
  EXPECT_EQ(run_f("cvt.rzi.f32.f32"), (std::vector<float>{2, 3, -0.0f, -2, -2, 2, -2, 1e20f}));
  EXPECT_EQ(run_f("cvt.rmi.f32.f32"), (std::vector<float>{2, 3, -1, -3, -3, 2, -3, 1e20f}));
  EXPECT_EQ(run_f("cvt.rpi.f32.f32"), (std::vector<float>{3, 4, -0.0f, -2, -2, 3, -2, 1e20f}));
  EXPECT_TRUE(std::signbit(run_f("cvt.rni.f32.f32")[2]));  // -0.5 rounds to -0, not +0
  EXPECT_EQ(run1("cvt.rni.f64.f64 %o, %da;", f64_bits(2.5)).o, f64_bits(2.0));
  EXPECT_EQ(run1("cvt.rmi.f64.f64 %o, %da;", f64_bits(-0.25)).o, f64_bits(-1.0));
  EXPECT_TRUE(std::isnan(bits_f32(f32_of("cvt.rni.f32.f32 %f1, %fa;", f32_bits(kNaN)))));
}

TEST(ConvertSemantics, SatAndFtzOnFloatToFloat) {
  EXPECT_EQ(f32_of("cvt.sat.f32.f32 %f1, %fa;", f32_bits(1.5f)), f32_bits(1.0f));
  EXPECT_EQ(f32_of("cvt.sat.f32.f32 %f1, %fa;", f32_bits(-0.5f)), 0u);
  EXPECT_EQ(f32_of("cvt.sat.f32.f32 %f1, %fa;", f32_bits(0.25f)), f32_bits(0.25f));
  EXPECT_EQ(f32_of("cvt.sat.f32.f32 %f1, %fa;", f32_bits(kNaN)), 0u);
  EXPECT_EQ(f32_of("cvt.sat.f32.f32 %f1, %fa;", f32_bits(kInf)), f32_bits(1.0f));
  EXPECT_EQ(f32_of("cvt.rni.sat.f32.f32 %f1, %fa;", f32_bits(0.6f)), f32_bits(1.0f));
  EXPECT_EQ(f32_of("cvt.ftz.f32.f32 %f1, %fa;", f32_bits(-1e-40f)), 0x80000000u);
  EXPECT_EQ(f32_of("cvt.rn.sat.f32.s32 %f1, %ra;", 5), f32_bits(1.0f));
}

// cvt.rn.f16.f32 d(16 bits), a; read back zero-extended.
std::vector<uint64_t> to_half(const std::vector<float>& x) {
  std::vector<uint64_t> bits;
  for (float f : x) bits.push_back(f32_bits(f));
  return run_each("cvt.rn.f16.f32 %hc, %fa;\n cvt.u64.u16 %o, %hc;", bits);
}

TEST(ConvertSemantics, F32ToF16RoundsToNearestEvenWithOverflowAndSubnormals) {
  const float t24 = std::ldexp(1.0f, -24), t25 = std::ldexp(1.0f, -25), t15 = std::ldexp(1.0f, -15);
  EXPECT_EQ(
      to_half({1.0f, -2.0f, 0.1f, 65504.0f, 65519.0f, 65520.0f, 70000.0f, -70000.0f, kInf, -0.0f}),
      (std::vector<uint64_t>{0x3C00, 0xC000, 0x2E66, 0x7BFF, 0x7BFF, 0x7C00, 0x7C00, 0xFC00, 0x7C00,
                             0x8000}));
  // Subnormal halves: 2^-24 is the smallest, 2^-15 = 0x0200; 2^-25 ties to even (0), tiny -> 0.
  EXPECT_EQ(to_half({t24, t15, t25, 1.5f * t25, 1e-10f, -1e-10f, 1023 * t24}),
            (std::vector<uint64_t>{0x0001, 0x0200, 0x0000, 0x0001, 0x0000, 0x8000, 0x03FF}));
  const uint64_t h = to_half({kNaN})[0];
  EXPECT_EQ(h & 0x7C00, 0x7C00u);
  EXPECT_NE(h & 0x03FF, 0u);
}

TEST(ConvertSemantics, F16ToF32IsExact) {
  const auto out =
      run_each("cvt.f32.f16 %f1, %ha;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;",
               {0x3C00, 0x0001, 0x03FF, 0x0200, 0x7BFF, 0xFC00, 0x8000, 0x3555, 0xC000});
  EXPECT_EQ(out, (std::vector<uint64_t>{f32_bits(1.0f), f32_bits(std::ldexp(1.0f, -24)),
                                        f32_bits(1023 * std::ldexp(1.0f, -24)),
                                        f32_bits(std::ldexp(1.0f, -15)), f32_bits(65504.0f),
                                        f32_bits(-kInf), 0x80000000u, f32_bits(0.333251953125f),
                                        f32_bits(-2.0f)}));
  EXPECT_TRUE(std::isnan(bits_f32(f32_of("cvt.f32.f16 %f1, %ha;", 0x7E00))));
}

TEST(ConvertSemantics, F32ToF16HonoursTheDirectedRoundings) {
  // 70000 is above the f16 maximum 65504: .rz keeps the largest finite value, .rp goes to +inf,
  // .rm to -inf for -70000 (IEEE overflow rules; the narrow cases are in test_small_float_convert).
  EXPECT_EQ(run1("cvt.rz.f16.f32 %hc, %fa;\n cvt.u64.u16 %o, %hc;", f32_bits(70000.0f)).o, 0x7BFFu);
  EXPECT_EQ(run1("cvt.rp.f16.f32 %hc, %fa;\n cvt.u64.u16 %o, %hc;", f32_bits(70000.0f)).o, 0x7C00u);
  EXPECT_EQ(run1("cvt.rm.f16.f32 %hc, %fa;\n cvt.u64.u16 %o, %hc;", f32_bits(-70000.0f)).o,
            0xFC00u);
}

// cvt.pack.sat (PTX ISA 9.7.9.22): b in the low bits, a above it, each saturated to the narrow
// type; the narrower forms put c's low bits above the pair.
uint64_t pack(const std::string& form, uint32_t a, uint32_t b, uint32_t c = 0) {
  const bool three = form.find(".b32") != std::string::npos;
  return run1("cvt.pack.sat." + form + " %r1, %ra, %rb" + (three ? ", %rc" : "") +
                  ";\n cvt.u64.u32 %o, %r1;\n",
              a, b, c)
      .o;
}

TEST(ConvertSemantics, CvtPackSaturatesAndPacksTwoIntegers) {
  EXPECT_EQ(pack("u16.s32", 70000, static_cast<uint32_t>(-5)), 0xFFFF0000u);
  EXPECT_EQ(pack("s16.s32", static_cast<uint32_t>(-40000), 100), 0x80000064u);
  EXPECT_EQ(pack("u8.s32.b32", 300, 7, 0x1234), 0x1234FF07u);
  EXPECT_EQ(pack("s4.s32.b32", static_cast<uint32_t>(-9), 5, 0xABCDEF12), 0xCDEF1285u);
  EXPECT_EQ(pack("u2.s32.b32", 2, 9, 1), 0x1Bu);
  EXPECT_EQ(run1("cvt.pack.sat.s8.s32.b32 %r1, %ra, %rb, 0;\n cvt.u64.u32 %o, %r1;\n", 200,
                 static_cast<uint32_t>(-200))
                .o,
            0x7F80u);
  EXPECT_THROW(run1("cvt.pack.sat.u8.s32 %r1, %ra, %rb;\n", 0),
               SourceError);  // the narrow types need c
  EXPECT_THROW(run1("cvt.pack.u16.s32 %r1, %ra, %rb;\n", 0), SourceError);  // .sat is required
}

}  // namespace
}  // namespace gputlm::test
