// cvt with the narrow float types (PTX ISA 9.7.9.21 "cvt"; formats in 5.2.5.1): f16, bf16, tf32,
// e4m3, e5m2, packed x2 forms, rounding modes at a tie and off it, .relu, .satfinite, .sat,
// .ftz, integer sources and destinations; and the rounding helpers of small_float.h directly.
// Expected values are bit patterns worked out by hand. Encodings: f16 1.0 = 0x3C00 (ulp 2^-10),
// bf16 1.0 = 0x3F80 (ulp 2^-7), tf32 keeps the top 10 mantissa bits of an f32 (ulp(1) = 0x2000
// in f32 bits), e4m3 1.0 = 0x38 (max 448 = 0x7E, NaN 0x7F, no inf), e5m2 1.0 = 0x3C (max 57344
// = 0x7B, inf 0x7C).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "models/common/error.h"
#include "models/func/semantics/small_float.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

using isa::Round;
namespace sem = func::sem;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

uint64_t b32(uint32_t bits) { return bits; }
// cvt writing a 16-bit destination %hc from %fa (and %fb).
uint64_t to16(const std::string& cvt, uint64_t a, uint64_t b = 0, const std::string& srcs = "%fa") {
  return run1(cvt + " %hc, " + srcs + ";\n cvt.u64.u16 %o, %hc;", a, b).o;
}
uint64_t to16x2(const std::string& cvt, float a, float b) {
  return to16(cvt, f32_bits(a), f32_bits(b), "%fa, %fb");
}
// cvt writing a 32-bit destination %r1.
uint64_t to32(const std::string& cvt, uint64_t a, uint64_t b = 0, const std::string& srcs = "%fa") {
  return run1(cvt + " %r1, " + srcs + ";\n cvt.u64.u32 %o, %r1;", a, b).o;
}
int64_t to_s64(const std::string& cvt, uint64_t a, const std::string& dst_type = "s32") {
  return static_cast<int64_t>(run1(cvt + " %r1, %ha;\n cvt.s64." + dst_type + " %o, %r1;", a).o);
}

TEST(SmallFloatConvert, F32ToF16HonoursEachRoundingModeAtATieAndOffIt) {
  EXPECT_EQ(to16("cvt.rn.f16.f32", b32(0x3F801000)), 0x3C00u);  // 1 + 2^-11: tie, even
  EXPECT_EQ(to16("cvt.rn.f16.f32", b32(0x3F803000)), 0x3C02u);  // 1 + 3 * 2^-11: tie, even
  EXPECT_EQ(to16("cvt.rn.f16.f32", b32(0x3F801008)), 0x3C01u);  // just above the tie
  EXPECT_EQ(to16("cvt.rz.f16.f32", b32(0x3F801008)), 0x3C00u);
  EXPECT_EQ(to16("cvt.rm.f16.f32", b32(0x3F801008)), 0x3C00u);
  EXPECT_EQ(to16("cvt.rp.f16.f32", b32(0x3F801008)), 0x3C01u);
  EXPECT_EQ(to16("cvt.rm.f16.f32", b32(0xBF801008)), 0xBC01u);
  EXPECT_EQ(to16("cvt.rp.f16.f32", b32(0xBF801008)), 0xBC00u);
  EXPECT_EQ(to16("cvt.rz.f16.f32", f32_bits(70000.0f)), 0x7BFFu);  // overflow: rz keeps max
  EXPECT_EQ(to16("cvt.rp.f16.f32", f32_bits(70000.0f)), 0x7C00u);
  EXPECT_EQ(to16("cvt.rm.f16.f32", f32_bits(-70000.0f)), 0xFC00u);
  EXPECT_EQ(to16("cvt.rp.f16.f32", f32_bits(-70000.0f)), 0xFBFFu);
}

TEST(SmallFloatConvert, F32ToF16SatfiniteReluAndFtz) {
  EXPECT_EQ(to16("cvt.rn.satfinite.f16.f32", f32_bits(70000.0f)), 0x7BFFu);
  EXPECT_EQ(to16("cvt.rn.satfinite.f16.f32", f32_bits(kInf)), 0x7BFFu);
  EXPECT_EQ(to16("cvt.rn.satfinite.f16.f32", f32_bits(-kInf)), 0xFBFFu);
  EXPECT_EQ(to16("cvt.rn.satfinite.f16.f32", f32_bits(kNaN)),
            0x7FFFu);  // NaN stays (canonical) NaN
  EXPECT_EQ(to16("cvt.rn.relu.f16.f32", f32_bits(-1.0f)), 0x0000u);
  EXPECT_EQ(to16("cvt.rn.relu.f16.f32", f32_bits(-0.0f)), 0x0000u);
  EXPECT_EQ(to16("cvt.rn.relu.f16.f32", b32(0xFFC00001)), 0x7FFFu);
  EXPECT_EQ(to16("cvt.rn.relu.f16.f32", f32_bits(2.0f)), 0x4000u);
  // An f32 subnormal rounds up to the smallest f16 subnormal under .rp, unless .ftz flushes it.
  EXPECT_EQ(to16("cvt.rp.f16.f32", b32(0x000116C2)), 0x0001u);
  EXPECT_EQ(to16("cvt.rp.ftz.f16.f32", b32(0x000116C2)), 0x0000u);
}

TEST(SmallFloatConvert, F16x2AndBf16x2PackTheFirstSourceIntoTheUpperHalf) {
  EXPECT_EQ(to32("cvt.rn.f16x2.f32", f32_bits(1.0f), f32_bits(2.0f), "%fa, %fb"), 0x3C004000u);
  EXPECT_EQ(to32("cvt.rz.f16x2.f32", f32_bits(70000.0f), f32_bits(-70000.0f), "%fa, %fb"),
            0x7BFFFBFFu);
  EXPECT_EQ(to32("cvt.rn.relu.satfinite.f16x2.f32", f32_bits(-1.0f), f32_bits(1e6f), "%fa, %fb"),
            0x00007BFFu);
  EXPECT_EQ(to32("cvt.rn.bf16x2.f32", f32_bits(1.0f), f32_bits(-2.0f), "%fa, %fb"), 0x3F80C000u);
  // Each half rounds on its own: upper 1 + 2^-8 (tie, even -> 0x3F80), lower 1 + 2^-7 + 2^-8 (tie
  // -> 0x3F82).
  EXPECT_EQ(to32("cvt.rn.bf16x2.f32", 0x3F808000, 0x3F818000, "%fa, %fb"), 0x3F803F82u);
}

TEST(SmallFloatConvert, F32ToBf16RoundsOnceAndSaturatesFinite) {
  EXPECT_EQ(to16("cvt.rn.bf16.f32", f32_bits(1.0f)), 0x3F80u);
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x3F808000)), 0x3F80u);  // tie, even
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x3F818000)), 0x3F82u);  // tie, even
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x3F808001)), 0x3F81u);  // above the tie
  EXPECT_EQ(to16("cvt.rz.bf16.f32", b32(0x3F80FFFF)), 0x3F80u);
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x7F7FFFFF)), 0x7F80u);  // f32 max rounds to inf
  EXPECT_EQ(to16("cvt.rn.satfinite.bf16.f32", b32(0x7F7FFFFF)), 0x7F7Fu);
  EXPECT_EQ(to16("cvt.rz.bf16.f32", b32(0x7F7FFFFF)), 0x7F7Fu);
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x7FC00001)), 0x7FFFu);
  // Subnormals: f32 2^-133 is the smallest bf16 subnormal; 2^-134 is a tie with zero.
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x00010000)), 0x0001u);
  EXPECT_EQ(to16("cvt.rn.bf16.f32", b32(0x00008000)), 0x0000u);
  EXPECT_EQ(to16("cvt.rn.ftz.bf16.f32", b32(0x00010000)), 0x0000u);
}

TEST(SmallFloatConvert, HalfToWiderFloatsIsExact) {
  auto f32_of = [](const std::string& cvt, uint64_t h) {
    return run1(cvt + " %f1, %ha;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", h).o;
  };
  EXPECT_EQ(f32_of("cvt.f32.bf16", 0x3F80), 0x3F800000u);
  EXPECT_EQ(f32_of("cvt.f32.bf16", 0x0001), 0x00010000u);  // bf16 subnormal stays an f32 subnormal
  EXPECT_EQ(f32_of("cvt.ftz.f32.bf16", 0x8001), 0x80000000u);
  EXPECT_EQ(f32_of("cvt.f32.bf16", 0xFF80), 0xFF800000u);
  EXPECT_EQ(run1("cvt.f64.f16 %da, %ha;\n mov.b64 %o, %da;", 0x3C01).o,
            f64_bits(1.0 + std::ldexp(1.0, -10)));
  EXPECT_EQ(run1("cvt.f64.bf16 %da, %ha;\n mov.b64 %o, %da;", 0xC000).o, f64_bits(-2.0));
}

// from_f16/from_bf16 take a short path for finite values; every one of the 65536 encodings of
// each gives decode_float's value (and sign of zero), NaN staying NaN.
TEST(SmallFloatConvert, HalfDecodesAgreeWithTheGeneralDecoderOnEveryEncoding) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const double f16 = sem::from_f16(static_cast<uint16_t>(h)),
                 f16_ref = sem::decode_float(h, sem::kF16);
    const double bf16 = sem::from_bf16(static_cast<uint16_t>(h)),
                 bf16_ref = sem::decode_float(h, sem::kBF16);
    if (std::isnan(f16_ref)) {
      EXPECT_TRUE(std::isnan(f16)) << std::hex << h;
    } else {
      EXPECT_EQ(f64_bits(f16), f64_bits(f16_ref)) << std::hex << h;
    }
    if (std::isnan(bf16_ref)) {
      EXPECT_TRUE(std::isnan(bf16)) << std::hex << h;
    } else {
      EXPECT_EQ(f64_bits(bf16), f64_bits(bf16_ref)) << std::hex << h;
    }
  }
}

TEST(SmallFloatConvert, F64ToF16RoundsOnceNotThroughF32) {
  // 1 + 2^-11 + 2^-40: via f32 it would become the tie 1 + 2^-11 and round to even 0x3C00.
  const uint64_t d = f64_bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(run1("cvt.rn.f16.f64 %hc, %da;\n cvt.u64.u16 %o, %hc;", d).o, 0x3C01u);
  EXPECT_EQ(run1("cvt.rn.bf16.f64 %hc, %da;\n cvt.u64.u16 %o, %hc;", f64_bits(-1.0)).o, 0xBF80u);
}

TEST(SmallFloatConvert, F16AndBf16ConvertIntoEachOther) {
  auto h = [](const std::string& cvt, uint64_t a) {
    return run1(cvt + " %hc, %ha;\n cvt.u64.u16 %o, %hc;", a).o;
  };
  EXPECT_EQ(h("cvt.rn.bf16.f16", 0x3C01), 0x3F80u);  // 1 + 2^-10 -> 1
  EXPECT_EQ(h("cvt.rp.bf16.f16", 0x3C01), 0x3F81u);
  EXPECT_EQ(h("cvt.rn.f16.bf16", 0x3F81), 0x3C08u);  // 1 + 2^-7 exactly
  EXPECT_EQ(h("cvt.rn.f16.bf16", 0x4780), 0x7C00u);  // 65536 overflows f16
  EXPECT_EQ(h("cvt.rn.satfinite.f16.bf16", 0x4780), 0x7BFFu);
  EXPECT_EQ(h("cvt.rni.f16.f16", 0x4100), 0x4000u);    // 2.5 -> 2 (even)
  EXPECT_EQ(h("cvt.rni.f16.f16", 0x4300), 0x4400u);    // 3.5 -> 4
  EXPECT_EQ(h("cvt.rmi.bf16.bf16", 0xBFC0), 0xC000u);  // -1.5 -> -2
}

TEST(SmallFloatConvert, IntegersToHalvesRoundOnce) {
  auto h = [](const std::string& cvt, uint64_t a) {
    return run1(cvt + " %hc, %ra;\n cvt.u64.u16 %o, %hc;", a).o;
  };
  EXPECT_EQ(h("cvt.rn.f16.u32", 2049), 0x6800u);  // ulp(2048) = 2: tie, even 2048
  EXPECT_EQ(h("cvt.rn.f16.u32", 2051), 0x6802u);  // tie, even 2052
  EXPECT_EQ(h("cvt.rz.f16.u32", 2051), 0x6801u);
  EXPECT_EQ(h("cvt.rn.f16.s32", static_cast<uint32_t>(-2051)), 0xE802u);
  EXPECT_EQ(h("cvt.rn.f16.s32", 65519), 0x7BFFu);
  EXPECT_EQ(h("cvt.rn.f16.s32", 65520), 0x7C00u);
  // 2^63 + 2^55 + 1: just above the bf16 tie between 2^63 (0x5F00) and 2^63 + 2^56 (0x5F01). A
  // conversion through double would drop the +1 and round the tie to even.
  auto h64 = [](const std::string& cvt, uint64_t a) {
    return run1(cvt + " %hc, %a;\n cvt.u64.u16 %o, %hc;", a).o;
  };
  EXPECT_EQ(h64("cvt.rn.bf16.u64", (uint64_t{1} << 63) + (uint64_t{1} << 55) + 1), 0x5F01u);
  EXPECT_EQ(h64("cvt.rn.bf16.u64", (uint64_t{1} << 63) + (uint64_t{1} << 55)), 0x5F00u);
  EXPECT_EQ(h64("cvt.rn.bf16.s64", static_cast<uint64_t>(-1)), 0xBF80u);
}

TEST(SmallFloatConvert, HalvesToIntegersRoundAndSaturate) {
  EXPECT_EQ(to_s64("cvt.rni.s32.f16", 0x4100), 2);   // 2.5 -> 2
  EXPECT_EQ(to_s64("cvt.rni.s32.f16", 0xC100), -2);  // -2.5 -> -2
  EXPECT_EQ(to_s64("cvt.rni.s32.f16", 0x4300), 4);   // 3.5 -> 4
  EXPECT_EQ(to_s64("cvt.rmi.s32.f16", 0xC100), -3);
  EXPECT_EQ(to_s64("cvt.rpi.s32.bf16", 0x3FC0), 2);                                    // 1.5 -> 2
  EXPECT_EQ(to_s64("cvt.rzi.s32.f16", 0x7E00), 0);                                     // NaN -> 0
  EXPECT_EQ(run1("cvt.rzi.u8.f16 %hc, %ha;\n cvt.u64.u16 %o, %hc;", 0x5CB0).o, 255u);  // 300 -> 255
  EXPECT_EQ(run1("cvt.rzi.s8.f16 %hc, %ha;\n cvt.s64.s16 %o, %hc;", 0xDCB0).o,
            static_cast<uint64_t>(-128));
  EXPECT_EQ(run1("cvt.rzi.s64.bf16 %o, %ha;", 0x7F80).o, static_cast<uint64_t>(INT64_MAX));
  EXPECT_EQ(run1("cvt.rzi.u64.bf16 %o, %ha;", 0xBF80).o, 0u);
}

TEST(SmallFloatConvert, Tf32RoundsTheMantissaToTenBits) {
  EXPECT_EQ(to32("cvt.rna.tf32.f32", 0x3F801000), 0x3F802000u);  // tie: away from zero
  EXPECT_EQ(to32("cvt.rna.tf32.f32", 0xBF801000), 0xBF802000u);
  EXPECT_EQ(to32("cvt.rna.tf32.f32", 0x3F800FFF), 0x3F800000u);
  EXPECT_EQ(to32("cvt.rna.tf32.f32", 0x3F803000), 0x3F804000u);
  EXPECT_EQ(to32("cvt.rn.tf32.f32", 0x3F801000), 0x3F800000u);  // tie: even
  EXPECT_EQ(to32("cvt.rn.tf32.f32", 0x3F803000), 0x3F804000u);
  EXPECT_EQ(to32("cvt.rz.tf32.f32", 0x3F801FFF), 0x3F800000u);
  EXPECT_EQ(to32("cvt.rna.tf32.f32", 0x7F7FFFFF), 0x7F800000u);  // rounds past the max
  EXPECT_EQ(to32("cvt.rna.satfinite.tf32.f32", 0x7F7FFFFF), 0x7F7FE000u);
  EXPECT_EQ(to32("cvt.rna.satfinite.tf32.f32", f32_bits(-kInf)), 0xFF7FE000u);
  EXPECT_EQ(to32("cvt.rna.tf32.f32", b32(0x7FC00001)), 0x7FFFFFFFu);
}

// cvt.rna.tf32.f32 takes a path of its own (bit rounding): it gives to_tf32's value for a spread
// of bit patterns, every exponent, both signs, the ties and the values next to them.
TEST(SmallFloatConvert, Tf32RoundingOnTheBitsIsToTf32sForEveryExponent) {
  std::string body, expect;
  std::vector<uint32_t> inputs;
  for (uint32_t e = 0; e < 256; e += 5)
    for (const uint32_t m : {0x000000u, 0x000FFFu, 0x001000u, 0x001001u, 0x003000u, 0x7FEFFFu,
                             0x7FF000u, 0x7FFFFFu, 0x2AB5A5u})
      for (const uint32_t sign : {0u, 0x80000000u}) inputs.push_back(sign | e << 23 | m);
  inputs.push_back(0x7F800000u);  // infinity
  inputs.push_back(0xFF800000u);
  for (const uint32_t a : inputs) {
    const double v = bits_f32(a);
    const uint32_t want =
        std::isnan(v) ? func::sem::kF32.nan : func::sem::to_tf32(v, isa::Round::Rna);
    EXPECT_EQ(to32("cvt.rna.tf32.f32", b32(a)), want) << std::hex << a;
  }
}

TEST(SmallFloatConvert, E4m3x2PacksSaturatesAtFourFortyEight) {
  const std::string e4 = "cvt.rn.satfinite.e4m3x2.f32";
  EXPECT_EQ(to16x2(e4, 448.0f, -448.0f), 0x7EFEu);
  EXPECT_EQ(to16x2(e4, 464.0f, -464.0f), 0x7EFEu);  // would round to 480 = the NaN encoding
  EXPECT_EQ(to16x2(e4, 1000.0f, kInf), 0x7E7Eu);
  EXPECT_EQ(to16x2(e4, -kInf, 0.0f), 0xFE00u);
  EXPECT_EQ(to16x2(e4, kNaN, 1.0f), 0x7F38u);
  EXPECT_EQ(to16x2(e4, 1.0625f, 1.1875f), 0x383Au);  // ties to even: 1.0 and 1.25
  EXPECT_EQ(to16x2(e4, std::ldexp(1.0f, -9), std::ldexp(1.0f, -10)),
            0x0100u);  // min subnormal; tie -> 0
  EXPECT_EQ(to16x2("cvt.rn.satfinite.relu.e4m3x2.f32", -1.0f, 2.0f), 0x0040u);
}

TEST(SmallFloatConvert, E5m2x2PacksSaturatesAtFiftySevenThousand) {
  const std::string e5 = "cvt.rn.satfinite.e5m2x2.f32";
  EXPECT_EQ(to16x2(e5, 57344.0f, 1.0f), 0x7B3Cu);
  EXPECT_EQ(to16x2(e5, 61440.0f, 1e9f), 0x7B7Bu);  // 61440 is the tie with 65536: overflows
  EXPECT_EQ(to16x2(e5, kInf, kNaN), 0x7B7Fu);
  EXPECT_EQ(to16x2(e5, 1.125f, 1.375f), 0x3C3Eu);  // ties to even: 1.0 and 1.5
  EXPECT_EQ(to16x2(e5, std::ldexp(1.0f, -16), -std::ldexp(1.0f, -16)), 0x0181u);
}

TEST(SmallFloatConvert, Fp8x2ToF16x2IsExactElementByElement) {
  auto f = [](const std::string& cvt, uint64_t a) { return to32(cvt, a, 0, "%ha"); };
  EXPECT_EQ(f("cvt.rn.f16x2.e4m3x2", 0x7E38), 0x5F003C00u);  // 448, 1.0
  EXPECT_EQ(f("cvt.rn.f16x2.e4m3x2", 0x7F01), 0x7FFF1800u);  // NaN, 2^-9
  EXPECT_EQ(f("cvt.rn.f16x2.e4m3x2", 0xFE80), 0xDF008000u);  // -448, -0
  EXPECT_EQ(f("cvt.rn.relu.f16x2.e4m3x2", 0xB838), 0x00003C00u);
  EXPECT_EQ(f("cvt.rn.f16x2.e5m2x2", 0x7C7B), 0x7C007B00u);  // inf, 57344
  EXPECT_EQ(f("cvt.rn.f16x2.e5m2x2", 0x0001), 0x00000100u);  // 2^-16
}

TEST(SmallFloatConvert, F16x2ToFp8x2KeepsTheElementOrder) {
  auto f = [](const std::string& cvt, uint64_t a) { return to16(cvt, a, 0, "%ra"); };
  EXPECT_EQ(f("cvt.rn.satfinite.e4m3x2.f16x2", 0x5F003C00), 0x7E38u);
  EXPECT_EQ(f("cvt.rn.satfinite.e4m3x2.f16x2", 0x7C00FC00), 0x7EFEu);
  EXPECT_EQ(f("cvt.rn.satfinite.e4m3x2.f16x2", 0x7E000000), 0x7F00u);
  EXPECT_EQ(f("cvt.rn.satfinite.e5m2x2.f16x2", 0x7BFF3C00), 0x7B3Cu);  // 65504 rounds past 57344
}

TEST(SmallFloatConvert, FormsTheIsaDoesNotDefineAreRejected) {
  EXPECT_THROW(to16x2("cvt.rn.e4m3x2.f32", 1.0f, 1.0f), SourceError);  // .satfinite is mandatory
  EXPECT_THROW(to16x2("cvt.rz.satfinite.e4m3x2.f32", 1.0f, 1.0f), SourceError);
  EXPECT_THROW(to16("cvt.rna.f16.f32", f32_bits(1.0f)), SourceError);
  EXPECT_THROW(to32("cvt.rm.tf32.f32", f32_bits(1.0f)), SourceError);
  EXPECT_THROW(to16("cvt.rn.f16.f32", f32_bits(1.0f), f32_bits(1.0f), "%fa, %fb"), SourceError);
}

// small_float.h itself: every finite encoding decodes and re-encodes to itself in every mode,
// and the documented edges.
TEST(SmallFloatConvert, EveryFiniteEncodingRoundTripsInEveryMode) {
  const Round modes[] = {Round::Rn, Round::Rz, Round::Rm, Round::Rp, Round::Rna};
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const double f16 = sem::from_f16(static_cast<uint16_t>(h)),
                 bf = sem::from_bf16(static_cast<uint16_t>(h));
    for (Round r : modes) {
      if (!std::isnan(f16)) {
        ASSERT_EQ(sem::to_f16(f16, r), h) << std::hex << h;
      }
      if (!std::isnan(bf)) {
        ASSERT_EQ(sem::to_bf16(bf, r), h) << std::hex << h;
      }
    }
  }
  for (uint32_t v = 0; v < 0x100; ++v) {
    const double e4 = sem::from_e4m3(static_cast<uint8_t>(v)),
                 e5 = sem::from_e5m2(static_cast<uint8_t>(v));
    if (!std::isnan(e4)) {
      EXPECT_EQ(sem::to_e4m3(e4), v) << std::hex << v;
    }
    if (!std::isnan(e5) && !std::isinf(e5)) {
      EXPECT_EQ(sem::to_e5m2(e5), v) << std::hex << v;
    }
  }
  EXPECT_EQ(sem::from_e4m3(0x7E), 448.0);
  EXPECT_TRUE(std::isnan(sem::from_e4m3(0x7F)));
  EXPECT_EQ(sem::from_e4m3(0x78), 256.0);  // S.1111.000 is a number in e4m3
  EXPECT_EQ(sem::from_e5m2(0x7B), 57344.0);
  EXPECT_TRUE(std::isinf(sem::from_e5m2(0x7C)));
  EXPECT_EQ(sem::to_e4m3(1e6, Round::Rn, false), 0x7Fu);  // no infinity: overflow is NaN
  EXPECT_EQ(sem::to_tf32(1.0 + std::ldexp(1.0, -11)), 0x3F802000u);
  EXPECT_EQ(sem::to_f32(1.0 + std::ldexp(1.0, -24), Round::Rp), 1.0f + std::ldexp(1.0f, -23));
}

TEST(SmallFloatConvert, RoundToOddHelpersKeepTheStickyBit) {
  // 1 + 2^-60 rounds to 1.0 in double; rounded to odd it is the next double above 1.
  EXPECT_EQ(sem::add_odd(1.0, std::ldexp(1.0, -60)), std::nextafter(1.0, 2.0));
  EXPECT_EQ(sem::add_odd(1.0, -std::ldexp(1.0, -60)), std::nextafter(1.0, 0.0));
  EXPECT_EQ(sem::add_odd(1.0, 2.0), 3.0);  // exact sums are unchanged
  EXPECT_EQ(
      sem::to_f16(sem::fma_odd(1.0, 1.0 + std::ldexp(1.0, -11), std::ldexp(1.0, -70)), Round::Rn),
      0x3C01u);
}

}  // namespace
}  // namespace gputlm::test
