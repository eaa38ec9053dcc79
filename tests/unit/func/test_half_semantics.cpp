// Half-precision arithmetic and comparison (PTX ISA 9.7.4 "Half Precision Floating-Point
// Instructions", 9.7.4.6/9.7.4.7 set/setp) and f16/bf16 atomics (9.7.13.5 atom). Expected
// values are binary16 / bfloat16 bit patterns worked out by hand from the ISA rules: one
// rounding to nearest even, each half of an x2 value separate (element 0 in bits 0..15),
// .ftz flushing subnormal inputs and results to sign-preserving zero, .sat clamping to
// [0, 1] with NaN -> +0, .relu clamping negatives to +0 with NaN -> canonical NaN 0x7FFF.
//
// Encodings used: f16 1.0 = 0x3C00, 2.0 = 0x4000, 0.5 = 0x3800, -1.0 = 0xBC00, ulp(1) = 2^-10
// so 1 + 2^-10 = 0x3C01, 2^-11 = 0x1000, 1.5 * 2^-11 = 0x1200, max 65504 = 0x7BFF, inf 0x7C00,
// smallest subnormal 2^-24 = 0x0001, smallest normal 2^-14 = 0x0400. bf16 1.0 = 0x3F80.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/common/error.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

// A scalar half instruction on %ha %hb %hc (low 16 bits of a, b, c) writing %hc.
uint64_t h1(const std::string& op, uint64_t a, uint64_t b = 0, uint64_t c = 0,
            const std::string& srcs = "%ha, %hb") {
  return run1(op + " %hc, " + srcs + ";\n cvt.u64.u16 %o, %hc;", a, b, c).o;
}
uint64_t h3(const std::string& op, uint64_t a, uint64_t b, uint64_t c) {
  return h1(op, a, b, c, "%ha, %hb, %hc");
}
uint64_t u1(const std::string& op, uint64_t a) { return h1(op, a, 0, 0, "%ha"); }  // unary
// A packed (x2) instruction on %ra %rb %rc writing %r1.
uint64_t h2(const std::string& op, uint64_t a, uint64_t b = 0, uint64_t c = 0,
            const std::string& srcs = "%ra, %rb") {
  return run1(op + " %r1, " + srcs + ";\n cvt.u64.u32 %o, %r1;", a, b, c).o;
}
uint64_t u2(const std::string& op, uint64_t a) { return h2(op, a, 0, 0, "%ra"); }  // unary

TEST(HalfSemantics, AddF16RoundsToNearestEvenAtATieAndUpAboveIt) {
  EXPECT_EQ(h1("add.rn.f16", 0x3C00, 0x1000), 0x3C00u);  // 1 + 2^-11: tie, even is 1.0
  EXPECT_EQ(h1("add.rn.f16", 0x3C01, 0x1000), 0x3C02u);  // tie, even is 1 + 2^-9
  EXPECT_EQ(h1("add.f16", 0x3C00, 0x1200), 0x3C01u);     // 0.75 ulp above 1: up (default .rn)
  EXPECT_EQ(h1("sub.rn.f16", 0x3C00, 0x9200), 0x3C01u);  // 1 - (-1.5 * 2^-11)
  EXPECT_EQ(h1("add.rn.f16", 0x7BFF, 0x7BFF), 0x7C00u);  // overflow to +inf
}

TEST(HalfSemantics, AddF16x2RoundsEachHalfSeparately) {
  // low: 1 + 2^-11 -> 0x3C00; high: (1 + 2^-10) + 2^-11 -> 0x3C02.
  EXPECT_EQ(h2("add.rn.f16x2", 0x3C013C00, 0x10001000), 0x3C023C00u);
  // A NaN in one half leaves the other alone.
  EXPECT_EQ(h2("add.rn.f16x2", 0x7E003C00, 0x3C003C00), 0x7FFF4000u);
  EXPECT_EQ(h2("mul.rn.f16x2", 0x40003C01, 0xBC003C01), 0xC0003C02u);
}

TEST(HalfSemantics, NaNResultsAreTheCanonicalNaN) {
  EXPECT_EQ(h1("add.rn.f16", 0x7E01, 0x3C00), 0x7FFFu);  // payload not kept
  EXPECT_EQ(h1("mul.rn.f16", 0x7C00, 0x0000), 0x7FFFu);  // inf * 0
  EXPECT_EQ(h1("add.rn.bf16", 0x7FC1, 0x3F80), 0x7FFFu);
}

TEST(HalfSemantics, MulF16IsRoundedOnce) {
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9.
  EXPECT_EQ(h1("mul.rn.f16", 0x3C01, 0x3C01), 0x3C02u);
  EXPECT_EQ(h1("mul.rn.f16", 0x7BFF, 0x4000), 0x7C00u);
  EXPECT_EQ(h1("mul.rn.bf16", 0x3F81, 0x3F81), 0x3F82u);  // (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14
}

TEST(HalfSemantics, FmaF16RoundsOnceNotAfterTheProduct) {
  // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly: subnormal 0x0010; an unfused product would
  // have rounded to 1 + 2^-9 and given 0.
  EXPECT_EQ(h3("fma.rn.f16", 0x3C01, 0x3C01, 0xBC02), 0x0010u);
  EXPECT_EQ(h3("fma.rn.ftz.f16", 0x3C01, 0x3C01, 0xBC02), 0x0000u);  // subnormal result flushed
}

TEST(HalfSemantics, FmaBf16RoundsTheExactSumNotADoubleRoundedOne) {
  // a = b = 2^50 (1 + 2^-4) (0x5888), c = 2^-100 (0x0D80): a*b + c = 2^100 (1 + 2^-3 + 2^-8) +
  // 2^-100, just above the tie between 2^100 (1 + 2^-3) (0x7190) and the next bf16 (0x7191).
  // Rounding the sum to double first would land on the tie and give the even 0x7190.
  EXPECT_EQ(h3("fma.rn.bf16", 0x5888, 0x5888, 0x0D80), 0x7191u);
  EXPECT_EQ(h3("fma.rn.bf16", 0x5888, 0x5888, 0x8D80), 0x7190u);  // just below the tie
}

TEST(HalfSemantics, FmaReluClampsNegativesToZeroAndNaNToCanonicalNaN) {
  EXPECT_EQ(h3("fma.rn.relu.f16", 0xBC00, 0x4000, 0x3800), 0x0000u);  // -1 * 2 + 0.5 = -1.5
  EXPECT_EQ(h3("fma.rn.relu.f16", 0x3C00, 0x4000, 0x3800), 0x4100u);  // 2.5
  EXPECT_EQ(h3("fma.rn.relu.f16", 0x7E01, 0x4000, 0x3800), 0x7FFFu);
  EXPECT_EQ(h3("fma.rn.relu.bf16", 0xBF80, 0x4000, 0x3F00), 0x0000u);  // -2 + 0.5
  EXPECT_EQ(h2("fma.rn.relu.f16x2", 0xBC003C00, 0x40004000, 0x38003800, "%ra, %rb, %rc"),
            0x00004100u);
}

TEST(HalfSemantics, SatClampsToZeroOneAndNaNToZero) {
  EXPECT_EQ(h1("add.rn.sat.f16", 0x3C00, 0x3C00), 0x3C00u);  // 2 -> 1
  EXPECT_EQ(h1("add.rn.sat.f16", 0xBC00, 0x3800), 0x0000u);  // -0.5 -> 0
  EXPECT_EQ(h1("add.rn.sat.f16", 0x7E00, 0x3C00), 0x0000u);  // NaN -> +0
  EXPECT_EQ(h1("mul.rn.sat.f16", 0x3800, 0x3800), 0x3400u);  // 0.25 unchanged
  EXPECT_EQ(h2("fma.rn.sat.f16x2", 0x40003800, 0x3C003C00, 0x00000000, "%ra, %rb, %rc"),
            0x3C003800u);
}

TEST(HalfSemantics, FtzFlushesSubnormalInputsAndResultsKeepingTheSign) {
  EXPECT_EQ(h1("add.rn.f16", 0x0001, 0x0001), 0x0002u);
  EXPECT_EQ(h1("add.rn.ftz.f16", 0x0001, 0x0001), 0x0000u);
  EXPECT_EQ(h1("sub.rn.f16", 0x0600, 0x0400), 0x0200u);  // 2^-15: subnormal result
  EXPECT_EQ(h1("sub.rn.ftz.f16", 0x0600, 0x0400), 0x0000u);
  EXPECT_EQ(h1("sub.rn.ftz.f16", 0x0400, 0x0600), 0x8000u);  // -2^-15 -> -0
  EXPECT_EQ(u1("neg.ftz.f16", 0x0001), 0x8000u);
  EXPECT_EQ(u1("neg.f16", 0x0001), 0x8001u);
}

TEST(HalfSemantics, MinMaxFollowTheNaNAndSignedZeroRules) {
  EXPECT_EQ(h1("min.f16", 0x7E00, 0x3C00), 0x3C00u);  // NaN operand: the other one
  EXPECT_EQ(h1("max.f16", 0x3C00, 0x7E00), 0x3C00u);
  EXPECT_EQ(h1("min.f16", 0x7E00, 0x7D00), 0x7FFFu);  // both NaN: canonical NaN
  EXPECT_EQ(h1("min.NaN.f16", 0x7E00, 0x3C00), 0x7FFFu);
  EXPECT_EQ(h1("max.NaN.bf16", 0x3F80, 0x7FC0), 0x7FFFu);
  EXPECT_EQ(h1("min.f16", 0x0000, 0x8000), 0x8000u);  // -0 < +0
  EXPECT_EQ(h1("max.f16", 0x8000, 0x0000), 0x0000u);
  EXPECT_EQ(h1("min.f16", 0xC000, 0x3C00), 0xC000u);
  EXPECT_EQ(h1("max.bf16", 0xC000, 0x3F80), 0x3F80u);
  // low: min(1, 2) = 1; high: min(NaN, 3) = 3.
  EXPECT_EQ(h2("min.f16x2", 0x7E003C00, 0x42004000), 0x42003C00u);
  EXPECT_EQ(h1("min.ftz.f16", 0x8001, 0x0000), 0x8000u);  // -2^-24 flushed to -0, below +0
}

TEST(HalfSemantics, MinMaxXorsignAbsCompareMagnitudesAndXorTheSigns) {
  EXPECT_EQ(h1("min.xorsign.abs.f16", 0xC000, 0x3C00), 0xBC00u);  // |-2|,|1| -> 1, sign - ^ + = -
  EXPECT_EQ(h1("max.xorsign.abs.f16", 0xC000, 0x3C00), 0xC000u);
  EXPECT_EQ(h1("max.xorsign.abs.f16", 0xC000, 0xBC00), 0x4000u);  // - ^ - = +
  EXPECT_EQ(h1("min.xorsign.abs.bf16", 0x3F80, 0xC000), 0xBF80u);
}

TEST(HalfSemantics, NegAbsChangeOnlyTheSignBit) {
  EXPECT_EQ(u1("neg.f16", 0x3C00), 0xBC00u);
  EXPECT_EQ(u1("abs.f16", 0xBC00), 0x3C00u);
  EXPECT_EQ(u1("abs.bf16", 0xBF80), 0x3F80u);
  EXPECT_EQ(u1("neg.bf16", 0x7FC1), 0xFFC1u);
  EXPECT_EQ(u2("neg.f16x2", 0x3C00BC00), 0xBC003C00u);
  EXPECT_EQ(u2("abs.bf16x2", 0xBF80C000), 0x3F804000u);
}

TEST(HalfSemantics, Ex2AndTanhApproxOnHalves) {
  EXPECT_EQ(u1("ex2.approx.f16", 0x4000), 0x4400u);            // 2^2 = 4
  EXPECT_EQ(u2("ex2.approx.f16x2", 0xBC003C00), 0x38004000u);  // hi 2^-1, lo 2^1
  EXPECT_EQ(u1("ex2.approx.ftz.bf16", 0x3F80), 0x4000u);       // 2^1 = 2 in bf16
  EXPECT_EQ(u1("tanh.approx.f16", 0x4C00), 0x3C00u);           // tanh(16) rounds to 1
  const uint64_t t = u1("tanh.approx.f16", 0x3800);            // tanh(0.5) = 0.46212 ~ 0x3765
  EXPECT_LE(t > 0x3765 ? t - 0x3765 : 0x3765 - t, 1u);
  EXPECT_EQ(u2("tanh.approx.bf16x2", 0x80000000), 0x80000000u);  // tanh(+-0) = +-0
}

TEST(HalfSemantics, HalfFormsTheIsaDoesNotDefineAreRejected) {
  EXPECT_THROW(h1("add.rz.f16", 0x3C00, 0x3C00), SourceError);       // .rn is the only rounding
  EXPECT_THROW(h1("add.ftz.bf16", 0x3F80, 0x3F80), SourceError);     // no .ftz for bf16
  EXPECT_THROW(h1("add.rn.relu.f16", 0x3C00, 0x3C00), SourceError);  // .relu is fma only
  EXPECT_THROW(u1("ex2.approx.bf16", 0x3F80), SourceError);          // bf16 needs .ftz
}

TEST(HalfSemantics, SetpF16x2WritesOnePredicatePerHalf) {
  // a = (lo 1, hi 3), b = (lo 2, hi 2): lo 1 < 2 true, hi 3 < 2 false.
  const std::string s =
      "setp.lt.f16x2 %q1|%q2, %ra, %rb;\n selp.u64 %o, 1, 0, %q1;\n mov.pred %p, %q2;";
  LaneOut r = run1(s, 0x42003C00, 0x40004000);
  EXPECT_EQ(r.o, 1u);
  EXPECT_FALSE(r.p);
  r = run1(s, 0x3C004200, 0x40004000);  // lo 3 < 2 false, hi 1 < 2 true: q is not !p
  EXPECT_EQ(r.o, 0u);
  EXPECT_TRUE(r.p);
  // With a BoolOp each half combines with c: and with false gives false for both.
  r = run1(
      "setp.eq.u32 %q3, %ra, %ra;\n setp.lt.and.bf16x2 %q1|%q2, %ra, %rb, !%q3;\n"
      " selp.u64 %o, 1, 0, %q1;\n mov.pred %p, %q2;",
      0x3F803F80, 0x40004000);
  EXPECT_EQ(r.o, 0u);
  EXPECT_FALSE(r.p);
}

TEST(HalfSemantics, SetpF16HandlesNaNAndFtz) {
  const std::string lt =
      "setp.lt.f16 %q1|%q2, %ha, %hb;\n selp.u64 %o, 1, 0, %q1;\n mov.pred %p, %q2;";
  LaneOut r = run1(lt, 0x7E00, 0x3C00);  // NaN: ordered lt false, the complement true
  EXPECT_EQ(r.o, 0u);
  EXPECT_TRUE(r.p);
  EXPECT_EQ(run1("setp.ltu.f16 %p, %ha, %hb;", 0x7E00, 0x3C00).p, true);
  EXPECT_EQ(run1("setp.eq.f16 %p, %ha, %hb;", 0x0001, 0x0000).p, false);
  EXPECT_EQ(run1("setp.eq.ftz.f16 %p, %ha, %hb;", 0x0001, 0x0000).p, true);  // 2^-24 flushed
  EXPECT_EQ(run1("setp.gt.bf16 %p, %ha, %hb;", 0x4000, 0x3F80).p, true);
}

TEST(HalfSemantics, SetWritesOnePointZeroOrAllOnesPerHalf) {
  EXPECT_EQ(h2("set.lt.f16x2.f16x2", 0x42003C00, 0x40004000), 0x00003C00u);
  EXPECT_EQ(h2("set.lt.u32.f16x2", 0x42003C00, 0x40004000), 0x0000FFFFu);
  EXPECT_EQ(h2("set.eq.bf16x2.bf16x2", 0x3F804000, 0x3F803F80), 0x3F800000u);
  EXPECT_EQ(h1("set.lt.f16.f16", 0x3C00, 0x4000), 0x3C00u);
  EXPECT_EQ(h1("set.gt.bf16.bf16", 0x3C00, 0x4000), 0x0000u);
  EXPECT_EQ(
      run1("set.lt.f16.f32 %hc, %fa, %fb;\n cvt.u64.u16 %o, %hc;", f32_bits(1.0f), f32_bits(2.0f))
          .o,
      0x3C00u);
  EXPECT_EQ(run1("set.lt.f32.f16 %f1, %ha, %hb;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", 0x3C00,
                 0x4000)
                .o,
            0x3F800000u);
}

TEST(HalfSemantics, SelpAndMovCarryPackedHalvesUnchanged) {
  EXPECT_EQ(run1("setp.ne.u32 %q1, %rc, 0;\n selp.f16x2 %r1, %ra, %rb, %q1;\n cvt.u64.u32 %o, %r1;",
                 0x7E013C00, 0x11112222, 1)
                .o,
            0x7E013C00u);
  EXPECT_EQ(run1("selp.bf16 %hc, %ha, %hb, %p;\n cvt.u64.u16 %o, %hc;", 0x3F80, 0x4000).o, 0x4000u);
  // mov.b32 packs two halves, element 0 low; unpacking gives them back.
  EXPECT_EQ(run1(".reg .f16 %x<2>;\n .reg .f16x2 %y;\n mov.b16 %x0, %ha;\n mov.b16 %x1, %hb;\n"
                 " mov.b32 %y, {%x0, %x1};\n add.rn.f16x2 %r1, %y, %y;\n cvt.u64.u32 %o, %r1;",
                 0x3C00, 0x4000)
                .o,
            0x44004000u);
}

TEST(HalfSemantics, RegisterDeclarationsOfTheNarrowTypesParse) {
  EXPECT_EQ(run1(".reg .f16x2 %x<4>;\n .reg .bf16 %y;\n .reg .bf16x2 %z;\n .reg .b16 %w;\n"
                 " mov.b32 %x3, %ra;\n mov.b16 %y, %hb;\n fma.rn.bf16 %y, %y, %y, %y;\n"
                 " mov.b32 %z, {%y, %y};\n cvt.u64.u32 %o, %z;",
                 0, 0x3F80)
                .o,
            0x40004000u);  // 1 * 1 + 1 = 2 in both halves
}

TEST(HalfSemantics, NvccInlineAsmPackingFormsParseAndPack) {
  // cuda_bf16.hpp writes ".reg.b16" without a space and packs constants: mov.b32 a, {0, %h}.
  const LaneOut r = run1(
      "{.reg.b16 hl, hu;\n mov.b32 {hl, hu}, %ra;\n mov.b32 %r1, {0, hl};\n"
      " mov.b32 %r2, {hu, 0x3C00};}\n mov.b64 %o, {%r1, %r2};",
      0x40003F80);
  EXPECT_EQ(r.o, 0x3C0040003F800000u);  // %r1 = hl << 16, %r2 = 0x3C00 << 16 | hu
}

// atom/red.add.noftz on halves: the memory slot of the thread is its input %a (offset 0).
uint64_t atom_after(const std::string& insn, uint64_t a, uint64_t b, unsigned bytes) {
  const std::string ld = bytes == 2 ? " ld.global.u16 %hc, [%in];\n cvt.u64.u16 %o, %hc;"
                                    : " ld.global.u32 %r2, [%in];\n cvt.u64.u32 %o, %r2;";
  return run1(insn + "\n" + ld, a, b).o;
}

TEST(HalfSemantics, AtomAddNoftzF16RoundsToNearestAndKeepsSubnormals) {
  EXPECT_EQ(atom_after("atom.global.add.noftz.f16 %hc, [%in], %hb;", 0x0001, 0x0001, 2), 0x0002u);
  EXPECT_EQ(atom_after("atom.global.add.noftz.f16 %hc, [%in], %hb;", 0x3C01, 0x1000, 2), 0x3C02u);
  EXPECT_EQ(atom_after("red.global.add.noftz.f16x2 [%in], %rb;", 0x3C013C00, 0x10001000, 4),
            0x3C023C00u);
  EXPECT_EQ(atom_after("atom.global.add.noftz.bf16 %hc, [%in], %hb;", 0x3F80, 0x3F80, 2), 0x4000u);
  EXPECT_EQ(atom_after("red.global.add.noftz.bf16x2 [%in], %rb;", 0x3F80BF80, 0x3F803F80, 4),
            0x40000000u);
  // atom returns the old value.
  EXPECT_EQ(run1("atom.global.add.noftz.f16x2 %r1, [%in], %rb;\n cvt.u64.u32 %o, %r1;", 0x3C004000,
                 0x3C003C00)
                .o,
            0x3C004000u);
  EXPECT_THROW(run1("atom.global.add.f16 %hc, [%in], %hb;", 0, 0),
               SourceError);  // .noftz is required
}

TEST(HalfSemantics, AtomCasB16SwapsOnlyOnAMatch) {
  // What CUDA's bf16 atomicAdd compiles to on sm_80: a 16-bit compare-and-swap loop.
  const std::string cas =
      "atom.global.cas.b16 %hc, [%in], %hb, %hc;\n ld.global.u16 %ha, [%in];\n"
      " cvt.u64.u16 %o, %ha;\n setp.eq.u16 %p, %hc, %hb;";
  LaneOut r = run1(cas, 0x3C00, 0x3C00, 0x4000);
  EXPECT_EQ(r.o, 0x4000u);  // swapped
  EXPECT_TRUE(r.p);         // the old value is returned
  r = run1(cas, 0x3C01, 0x3C00, 0x4000);
  EXPECT_EQ(r.o, 0x3C01u);
  EXPECT_FALSE(r.p);
}

}  // namespace
}  // namespace gputlm::test
