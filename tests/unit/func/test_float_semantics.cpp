// Floating-point semantics (PTX ISA 9.7.3): rounding modifiers, single rounding of fma,
// correctly rounded div/sqrt/rcp, the .approx functions within tolerance, NaN and signed-zero
// rules of min/max/abs/neg, .ftz, .sat, testp, copysign and f64. Expected values are exact bit
// patterns worked out by hand (or host IEEE arithmetic in the default rounding mode).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Runs an f32 instruction writing %f1 and returns the bits of %f1.
uint32_t f32op(const std::string& insn, float a, float b = 0, float c = 0) {
  return static_cast<uint32_t>(run1(insn + "\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;",
                                    f32_bits(a), f32_bits(b), f32_bits(c))
                                   .o);
}
uint32_t f32op_bits(const std::string& insn, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
  return static_cast<uint32_t>(
      run1(insn + "\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", a, b, c).o);
}
uint64_t f64op(const std::string& insn, double a, double b = 0, double c = 0) {
  return run1(insn, f64_bits(a), f64_bits(b), f64_bits(c)).o;
}

TEST(FloatSemantics, AddSubMulHonourTheRoundingModifier) {
  // 1 + 1e-8: below half an ulp of 1 (2^-23); only .rp moves up.
  auto op = [](const std::string& base, const std::string& rnd) {
    return base + rnd + ".f32 %f1, %fa, %fb;";
  };
  const std::string add = "add", sub = "sub", mul = "mul";
  EXPECT_EQ(f32op(op(add, ".rn"), 1.0f, 1e-8f), 0x3F800000u);
  EXPECT_EQ(f32op(op(add, ".rz"), 1.0f, 1e-8f), 0x3F800000u);
  EXPECT_EQ(f32op(op(add, ".rm"), 1.0f, 1e-8f), 0x3F800000u);
  EXPECT_EQ(f32op(op(add, ".rp"), 1.0f, 1e-8f), 0x3F800001u);
  EXPECT_EQ(f32op(op(add, ".rm"), -1.0f, -1e-8f), 0xBF800001u);
  EXPECT_EQ(f32op(op(add, ".rp"), -1.0f, -1e-8f), 0xBF800000u);
  EXPECT_EQ(f32op(op(add, ".rz"), -1.0f, -1e-8f), 0xBF800000u);
  // 1 - 1e-8: below 1 the ulp is 2^-24, so .rz/.rm step down to 0x3F7FFFFF.
  EXPECT_EQ(f32op(op(sub, ".rn"), 1.0f, 1e-8f), 0x3F800000u);
  EXPECT_EQ(f32op(op(sub, ".rz"), 1.0f, 1e-8f), 0x3F7FFFFFu);
  EXPECT_EQ(f32op(op(sub, ".rm"), 1.0f, 1e-8f), 0x3F7FFFFFu);
  EXPECT_EQ(f32op(op(sub, ".rp"), 1.0f, 1e-8f), 0x3F800000u);
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46.
  const uint32_t x = 0x3F800001, nx = 0xBF800001;
  EXPECT_EQ(f32op_bits(op(mul, ".rn"), x, x), 0x3F800002u);
  EXPECT_EQ(f32op_bits(op(mul, ".rz"), x, x), 0x3F800002u);
  EXPECT_EQ(f32op_bits(op(mul, ".rm"), x, x), 0x3F800002u);
  EXPECT_EQ(f32op_bits(op(mul, ".rp"), x, x), 0x3F800003u);
  EXPECT_EQ(f32op_bits(op(mul, ".rm"), nx, x), 0xBF800003u);
  EXPECT_EQ(f32op_bits(op(mul, ".rp"), nx, x), 0xBF800002u);
  EXPECT_EQ(f32op_bits(op(mul, ""), x, x), 0x3F800002u);  // default is .rn
}

TEST(FloatSemantics, DirectedRoundingDoesNotLeakIntoLaterInstructions) {
  // add.rp then an unmodified add in the same thread: the second must round to nearest.
  const auto r = run1(
      "add.rp.f32 %f2, %fa, %fb;\n add.f32 %f1, %fa, %fb;\n"
      " mov.b32 %r1, %f1;\n mov.b32 %r2, %f2;\n mov.b64 %o, {%r1, %r2};",
      f32_bits(1.0f), f32_bits(1e-8f));
  EXPECT_EQ(r.o & 0xFFFFFFFF, 0x3F800000u);
  EXPECT_EQ(r.o >> 32, 0x3F800001u);
}

TEST(FloatSemantics, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly; mul.rn first rounds the tie 1 + 2^-11 + 2^-24
  // to even (1 + 2^-11), so the unfused sequence gives 0.
  const uint32_t a = 0x3F800800, c = 0xBF801000;
  EXPECT_EQ(f32op_bits("fma.rn.f32 %f1, %fa, %fb, %fc;", a, a, c), 0x33800000u);
  EXPECT_EQ(f32op_bits("mad.rn.f32 %f1, %fa, %fb, %fc;", a, a, c), 0x33800000u);
  EXPECT_EQ(f32op_bits("mul.rn.f32 %f2, %fa, %fb;\n add.rn.f32 %f1, %f2, %fc;", a, a, c), 0u);
  // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: a tie at the result's precision, so .rn -> 2^-22, .rp up.
  EXPECT_EQ(f32op_bits("fma.rn.f32 %f1, %fa, %fb, %fc;", 0x3F800001, 0x3F800001, 0xBF800000),
            0x34800000u);
  EXPECT_EQ(f32op_bits("fma.rp.f32 %f1, %fa, %fb, %fc;", 0x3F800001, 0x3F800001, 0xBF800000),
            0x34800001u);
  EXPECT_EQ(f32op_bits("fma.rz.f32 %f1, %fa, %fb, %fc;", 0x3F800001, 0x3F800001, 0), 0x3F800002u);
  EXPECT_EQ(f32op_bits("fma.rp.f32 %f1, %fa, %fb, %fc;", 0x3F800001, 0x3F800001, 0), 0x3F800003u);
}

TEST(FloatSemantics, DivRnIsCorrectlyRoundedAndFullApproxAreClose) {
  EXPECT_EQ(f32op("div.rn.f32 %f1, %fa, %fb;", 1.0f, 3.0f), 0x3EAAAAABu);
  EXPECT_EQ(f32op("div.rz.f32 %f1, %fa, %fb;", 1.0f, 3.0f), 0x3EAAAAAAu);
  EXPECT_EQ(f32op("div.rm.f32 %f1, %fa, %fb;", 1.0f, 3.0f), 0x3EAAAAAAu);
  EXPECT_EQ(f32op("div.rp.f32 %f1, %fa, %fb;", 1.0f, 3.0f), 0x3EAAAAABu);
  EXPECT_EQ(f32op("div.rn.f32 %f1, %fa, %fb;", 10.0f, 4.0f), f32_bits(2.5f));
  EXPECT_EQ(f32op("div.rn.f32 %f1, %fa, %fb;", 1.0f, 0.0f), f32_bits(kInf));
  EXPECT_TRUE(std::isnan(bits_f32(f32op("div.rn.f32 %f1, %fa, %fb;", 0.0f, 0.0f))));
  for (const auto& [a, b] :
       std::vector<std::pair<float, float>>{{1, 3}, {7, 1.1f}, {1e10f, 3}, {-2.5f, 7e-3f}}) {
    const double want = double(a) / double(b);
    EXPECT_NEAR(bits_f32(f32op("div.full.f32 %f1, %fa, %fb;", a, b)), want, std::fabs(want) * 1e-6)
        << a << "/" << b;
    EXPECT_NEAR(bits_f32(f32op("div.approx.f32 %f1, %fa, %fb;", a, b)), want,
                std::fabs(want) * 1e-6)
        << a << "/" << b;
  }
}

TEST(FloatSemantics, MinMaxPreferTheNumberOverNaNAndOrderSignedZeros) {
  const std::string mn = "min.f32 %f1, %fa, %fb;", mx = "max.f32 %f1, %fa, %fb;";
  EXPECT_EQ(f32op(mn, kNaN, 2.0f), f32_bits(2.0f));
  EXPECT_EQ(f32op(mn, 2.0f, kNaN), f32_bits(2.0f));
  EXPECT_EQ(f32op(mx, kNaN, -2.0f), f32_bits(-2.0f));
  EXPECT_EQ(f32op(mx, -2.0f, kNaN), f32_bits(-2.0f));
  EXPECT_TRUE(std::isnan(bits_f32(f32op(mn, kNaN, kNaN))));
  EXPECT_TRUE(std::isnan(bits_f32(f32op(mx, kNaN, kNaN))));
  EXPECT_EQ(f32op(mn, -0.0f, 0.0f), 0x80000000u);
  EXPECT_EQ(f32op(mn, 0.0f, -0.0f), 0x80000000u);
  EXPECT_EQ(f32op(mx, -0.0f, 0.0f), 0u);
  EXPECT_EQ(f32op(mx, 0.0f, -0.0f), 0u);
  EXPECT_EQ(f32op(mn, -kInf, 1.0f), f32_bits(-kInf));
  EXPECT_EQ(f32op(mx, 3.0f, -7.0f), f32_bits(3.0f));
  const double dnan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(f64op("min.f64 %o, %da, %db;", dnan, 1.5), f64_bits(1.5));
  EXPECT_EQ(f64op("max.f64 %o, %da, %db;", -0.0, 0.0), f64_bits(0.0));
}

TEST(FloatSemantics, AbsAndNegOnlyTouchTheSign) {
  EXPECT_EQ(f32op("neg.f32 %f1, %fa;", 0.0f), 0x80000000u);  // neg +0 is -0
  EXPECT_EQ(f32op("neg.f32 %f1, %fa;", -0.0f), 0u);
  EXPECT_EQ(f32op("neg.f32 %f1, %fa;", 1.5f), f32_bits(-1.5f));
  EXPECT_EQ(f32op("abs.f32 %f1, %fa;", -0.0f), 0u);
  EXPECT_EQ(f32op("abs.f32 %f1, %fa;", -kInf), f32_bits(kInf));
  EXPECT_EQ(f32op("abs.f32 %f1, %fa;", -2.5f), f32_bits(2.5f));
  EXPECT_TRUE(std::isnan(bits_f32(f32op("neg.f32 %f1, %fa;", kNaN))));
  EXPECT_EQ(f64op("neg.f64 %o, %da;", 0.0), 0x8000000000000000ull);
  EXPECT_EQ(f64op("abs.f64 %o, %da;", -3.25), f64_bits(3.25));
}

TEST(FloatSemantics, FtzFlushesSubnormalInputsAndResults) {
  const float sub = 1e-40f;  // subnormal in f32
  ASSERT_EQ(std::fpclassify(sub), FP_SUBNORMAL);
  EXPECT_EQ(f32op("add.f32 %f1, %fa, %fb;", sub, 0.0f), f32_bits(sub));
  EXPECT_EQ(f32op("add.ftz.f32 %f1, %fa, %fb;", sub, 0.0f), 0u);
  EXPECT_EQ(f32op("add.ftz.f32 %f1, %fa, %fb;", -sub, -0.0f), 0x80000000u);
  // Input flushed: 1e-40 * 1e30 is 1e-10 without .ftz, 0 with it.
  EXPECT_EQ(f32op("mul.f32 %f1, %fa, %fb;", sub, 1e30f), f32_bits(sub * 1e30f));
  EXPECT_EQ(f32op("mul.ftz.f32 %f1, %fa, %fb;", sub, 1e30f), 0u);
  // Result flushed, sign preserved: -1e-20 * 1e-20 = -1e-40.
  EXPECT_EQ(f32op("mul.f32 %f1, %fa, %fb;", -1e-20f, 1e-20f), f32_bits(-1e-20f * 1e-20f));
  EXPECT_EQ(f32op("mul.ftz.f32 %f1, %fa, %fb;", -1e-20f, 1e-20f), 0x80000000u);
  EXPECT_EQ(f32op("fma.rn.ftz.f32 %f1, %fa, %fb, %fc;", 1e-20f, 1e-20f, 0.0f), 0u);
  EXPECT_EQ(f32op("sqrt.rn.ftz.f32 %f1, %fa;", sub), 0u);
  EXPECT_EQ(f32op("min.ftz.f32 %f1, %fa, %fb;", -sub, 0.0f), 0x80000000u);  // min(-0, +0)
  EXPECT_EQ(f32op("max.ftz.f32 %f1, %fa, %fb;", sub, 0.0f), 0u);
  // f64 has no .ftz: subnormal doubles survive.
  EXPECT_EQ(f64op("add.rn.f64 %o, %da, %db;", 1e-310, 0.0), f64_bits(1e-310));
}

TEST(FloatSemantics, SatClampsToTheUnitIntervalAndNaNToZero) {
  EXPECT_EQ(f32op("add.sat.f32 %f1, %fa, %fb;", 0.75f, 0.5f), f32_bits(1.0f));
  EXPECT_EQ(f32op("add.sat.f32 %f1, %fa, %fb;", 0.25f, 0.25f), f32_bits(0.5f));
  EXPECT_EQ(f32op("add.sat.f32 %f1, %fa, %fb;", -2.0f, 0.5f), 0u);
  EXPECT_EQ(f32op("add.sat.f32 %f1, %fa, %fb;", kInf, -kInf), 0u);  // NaN -> +0
  EXPECT_EQ(f32op("sub.sat.f32 %f1, %fa, %fb;", kNaN, 1.0f), 0u);
  EXPECT_EQ(f32op("mul.sat.f32 %f1, %fa, %fb;", 2.0f, 3.0f), f32_bits(1.0f));
  EXPECT_EQ(f32op("fma.rn.sat.f32 %f1, %fa, %fb, %fc;", 2.0f, 3.0f, -5.75f), f32_bits(0.25f));
  EXPECT_EQ(f32op("fma.rn.sat.f32 %f1, %fa, %fb, %fc;", 2.0f, 3.0f, -7.0f), 0u);
}

TEST(FloatSemantics, SqrtAndRcpRnAreCorrectlyRounded) {
  EXPECT_EQ(f32op("sqrt.rn.f32 %f1, %fa;", 2.0f), 0x3FB504F3u);
  EXPECT_EQ(f32op("sqrt.rz.f32 %f1, %fa;", 2.0f), 0x3FB504F3u);
  EXPECT_EQ(f32op("sqrt.rp.f32 %f1, %fa;", 2.0f), 0x3FB504F4u);
  EXPECT_EQ(f32op("sqrt.rn.f32 %f1, %fa;", 16.0f), f32_bits(4.0f));
  EXPECT_EQ(f32op("sqrt.rn.f32 %f1, %fa;", -0.0f), 0x80000000u);
  EXPECT_TRUE(std::isnan(bits_f32(f32op("sqrt.rn.f32 %f1, %fa;", -1.0f))));
  EXPECT_EQ(f32op("sqrt.rn.f32 %f1, %fa;", kInf), f32_bits(kInf));
  EXPECT_EQ(f32op("rcp.rn.f32 %f1, %fa;", 3.0f), 0x3EAAAAABu);
  EXPECT_EQ(f32op("rcp.rz.f32 %f1, %fa;", 3.0f), 0x3EAAAAAAu);
  EXPECT_EQ(f32op("rcp.rn.f32 %f1, %fa;", 0.0f), f32_bits(kInf));
  EXPECT_EQ(f32op("rcp.rn.f32 %f1, %fa;", -0.0f), f32_bits(-kInf));
  EXPECT_EQ(f64op("sqrt.rn.f64 %o, %da;", 2.0), 0x3FF6A09E667F3BCDull);
  EXPECT_EQ(f64op("rcp.rn.f64 %o, %da;", 3.0), 0x3FD5555555555555ull);
}

TEST(FloatSemantics, ApproxFunctionsAreWithinASmallError) {
  struct Case {
    std::string insn;
    float x;
    double want;
    double tol;
  };
  const double pi = 3.14159265358979323846;
  const std::vector<Case> cases = {
      {"rsqrt.approx.f32", 4.0f, 0.5, 1e-6},
      {"rsqrt.approx.f32", 2.0f, 1 / std::sqrt(2.0), 1e-6},
      {"rcp.approx.f32", 3.0f, 1 / 3.0, 1e-6},
      {"sqrt.approx.f32", 2.0f, std::sqrt(2.0), 1e-6},
      {"ex2.approx.f32", 3.5f, std::exp2(3.5), 1e-5},
      {"ex2.approx.ftz.f32", -2.25f, std::exp2(-2.25), 1e-5},
      {"lg2.approx.f32", 10.0f, std::log2(10.0), 1e-5},
      {"lg2.approx.f32", 0.1f, std::log2(double(0.1f)), 1e-5},
      {"sin.approx.f32", 1.0f, std::sin(1.0), 1e-5},
      {"sin.approx.f32", float(pi / 6), 0.5, 1e-5},
      {"cos.approx.f32", 1.0f, std::cos(1.0), 1e-5},
      {"cos.approx.ftz.f32", float(-pi / 3), 0.5, 1e-5},
      {"tanh.approx.f32", 0.5f, std::tanh(0.5), 1e-3},
  };
  for (const Case& c : cases) {
    const double got = bits_f32(f32op(c.insn + " %f1, %fa;", c.x));
    EXPECT_NEAR(got, c.want, c.tol * std::max(1.0, std::fabs(c.want)))
        << c.insn << "(" << c.x << ")";
  }
  EXPECT_EQ(f32op("ex2.approx.f32 %f1, %fa;", -kInf), 0u);
  EXPECT_EQ(f32op("lg2.approx.f32 %f1, %fa;", 0.0f), f32_bits(-kInf));
}

TEST(FloatSemantics, TestpClassifiesAndCountsZeroAsNormal) {
  const std::vector<float> vals = {1.0f, 0.0f, -0.0f, kInf, -kInf, kNaN, 1e-40f, -1e-40f, 3.4e38f};
  //                                 1    0     -0     inf   -inf  nan   sub    -sub    max
  const std::vector<std::pair<std::string, std::vector<bool>>> want = {
      {"finite", {1, 1, 1, 0, 0, 0, 1, 1, 1}}, {"infinite", {0, 0, 0, 1, 1, 0, 0, 0, 0}},
      {"number", {1, 1, 1, 1, 1, 0, 1, 1, 1}}, {"notanumber", {0, 0, 0, 0, 0, 1, 0, 0, 0}},
      {"normal", {1, 1, 1, 0, 0, 0, 0, 0, 1}}, {"subnormal", {0, 0, 0, 0, 0, 0, 1, 1, 0}},
  };
  std::vector<Inputs> in;
  for (float v : vals) in.push_back({f32_bits(v), 0, 0});
  for (const auto& [op, w] : want) {
    const auto out = run_snippet("testp." + op + ".f32 %p, %fa;", in);
    for (size_t i = 0; i < vals.size(); ++i)
      EXPECT_EQ(out[i].p, w[i]) << "testp." << op << ".f32 of " << vals[i];
  }
  // f64: 1e-310 is subnormal as a double, 1e-40 is normal.
  EXPECT_TRUE(run1("testp.subnormal.f64 %p, %da;", f64_bits(1e-310)).p);
  EXPECT_TRUE(run1("testp.normal.f64 %p, %da;", f64_bits(1e-40)).p);
  EXPECT_TRUE(run1("testp.normal.f64 %p, %da;", f64_bits(0.0)).p);
  EXPECT_TRUE(
      run1("testp.infinite.f64 %p, %da;", f64_bits(-std::numeric_limits<double>::infinity())).p);
}

TEST(FloatSemantics, CopysignTakesTheSignOfTheFirstOperand) {
  EXPECT_EQ(f32op("copysign.f32 %f1, %fa, %fb;", -1.0f, 2.0f), f32_bits(-2.0f));
  EXPECT_EQ(f32op("copysign.f32 %f1, %fa, %fb;", 1.0f, -2.0f), f32_bits(2.0f));
  EXPECT_EQ(f32op("copysign.f32 %f1, %fa, %fb;", -0.0f, 0.0f), 0x80000000u);
  EXPECT_EQ(f32op_bits("copysign.f32 %f1, %fa, %fb;", 0x80000000, 0x7FC00000), 0xFFC00000u);
  EXPECT_EQ(f64op("copysign.f64 %o, %da, %db;", -5.0, 3.0), f64_bits(-3.0));
}

TEST(FloatSemantics, F64AddMulFmaDiv) {
  EXPECT_EQ(f64op("add.rn.f64 %o, %da, %db;", 1.0, 1e-17), f64_bits(1.0));
  EXPECT_EQ(f64op("add.rp.f64 %o, %da, %db;", 1.0, 1e-17), 0x3FF0000000000001ull);
  EXPECT_EQ(f64op("add.rm.f64 %o, %da, %db;", -1.0, -1e-17), 0xBFF0000000000001ull);
  EXPECT_EQ(f64op("sub.rz.f64 %o, %da, %db;", 1.0, 1e-17), 0x3FEFFFFFFFFFFFFFull);
  EXPECT_EQ(f64op("mul.rn.f64 %o, %da, %db;", 1.5, -4.0), f64_bits(-6.0));
  // (1 + 2^-27)^2 - (1 + 2^-26) = 2^-54 exactly; unfused, the product rounds it away.
  const double a = 1.0 + std::ldexp(1.0, -27), c = -(1.0 + std::ldexp(1.0, -26));
  EXPECT_EQ(f64op("fma.rn.f64 %o, %da, %db, %dc;", a, a, c), 0x3C90000000000000ull);
  EXPECT_EQ(f64op("mad.rn.f64 %o, %da, %db, %dc;", a, a, c), 0x3C90000000000000ull);
  EXPECT_EQ(f64op("mul.rn.f64 %rd1, %da, %db;\n add.rn.f64 %o, %rd1, %dc;", a, a, c), 0u);
  EXPECT_EQ(f64op("div.rn.f64 %o, %da, %db;", 1.0, 3.0), 0x3FD5555555555555ull);
  EXPECT_EQ(f64op("div.rz.f64 %o, %da, %db;", 1.0, 3.0), 0x3FD5555555555555ull);
  EXPECT_EQ(f64op("div.rp.f64 %o, %da, %db;", 1.0, 3.0), 0x3FD5555555555556ull);
  EXPECT_EQ(f64op("div.rn.f64 %o, %da, %db;", 7.0, 2.0), f64_bits(3.5));
}

TEST(FloatSemantics, MinMaxNaNAndXorsignAbsOnF32) {
  EXPECT_EQ(f32op("min.f32 %f1, %fa, %fb;", kNaN, 1.0f), f32_bits(1.0f));
  EXPECT_EQ(f32op("min.NaN.f32 %f1, %fa, %fb;", kNaN, 1.0f), 0x7FFFFFFFu);  // canonical NaN
  EXPECT_EQ(f32op("max.NaN.f32 %f1, %fa, %fb;", 1.0f, kNaN), 0x7FFFFFFFu);
  EXPECT_EQ(f32op("min.xorsign.abs.f32 %f1, %fa, %fb;", -2.0f, 1.0f),
            f32_bits(-1.0f));  // min(|a|,|b|), sign a^b
  EXPECT_EQ(f32op("max.xorsign.abs.f32 %f1, %fa, %fb;", -2.0f, 1.0f), f32_bits(-2.0f));
  EXPECT_EQ(f32op("max.xorsign.abs.f32 %f1, %fa, %fb;", -2.0f, -1.0f), f32_bits(2.0f));
}

// Mixed precision (PTX ISA 9.7.3 add/sub/fma .f32.f16/.bf16): half sources, one f32 rounding.
uint32_t mixed(const std::string& insn, uint64_t a, uint64_t b, uint64_t c = 0) {
  return static_cast<uint32_t>(
      run1(insn + "\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", a, b, c).o);
}

TEST(FloatSemantics, MixedPrecisionHalfSourcesRoundOnceToF32) {
  // f16 (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 exactly, plus 2^-30: below half an f32 ulp (2^-24).
  const uint64_t c = f32_bits(std::ldexp(1.0f, -30));
  EXPECT_EQ(mixed("fma.rn.f32.f16 %f1, %ha, %hb, %fc;", 0x3C01, 0x3C01, c), 0x3F804008u);
  EXPECT_EQ(mixed("fma.rp.f32.f16 %f1, %ha, %hb, %fc;", 0x3C01, 0x3C01, c), 0x3F804009u);
  // bf16 1.0 + 2^-24: a tie in f32, even is 1.0; .rp goes up.
  const uint64_t t = f32_bits(std::ldexp(1.0f, -24));
  EXPECT_EQ(mixed("add.rn.f32.bf16 %f1, %ha, %fb;", 0x3F80, t), 0x3F800000u);
  EXPECT_EQ(mixed("add.rp.f32.bf16 %f1, %ha, %fb;", 0x3F80, t), 0x3F800001u);
  EXPECT_EQ(mixed("sub.rz.f32.f16 %f1, %ha, %fb;", 0x3C00, c), 0x3F7FFFFFu);
  EXPECT_EQ(mixed("add.rn.sat.f32.f16 %f1, %ha, %fb;", 0x4000, f32_bits(1.0f)), 0x3F800000u);
}

}  // namespace
}  // namespace gputlm::test
