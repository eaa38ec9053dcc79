// Comparison and selection semantics (PTX ISA 9.7.5): setp (integer and float, boolean
// combination, negated and dual predicates), selp, slct, set. Expected values come from C++
// comparisons written out per operator.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const std::vector<uint64_t> kInts = {0,          1,          2,          0xFFFFFFFF, 0xFFFFFFFE,
                                     0x80000000, 0x7FFFFFFF, 0x12345678, 0xDEADBEEF};

std::vector<Inputs> pairs(const std::vector<uint64_t>& v) {
  std::vector<Inputs> in;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < v.size(); ++j) in.push_back({v[i], v[j], (i + j) & 1});
  return in;
}

// Runs `snippet` (which sets %p) over `in` and checks %p against want(a, b, c).
void check_p(const std::string& what, const std::string& snippet, const std::vector<Inputs>& in,
             const std::function<bool(uint64_t, uint64_t, uint64_t)>& want) {
  const auto out = run_snippet(snippet, in);
  int bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const bool w = want(in[i][0], in[i][1], in[i][2]);
    if (out[i].p == w) continue;
    if (++bad <= 6)
      ADD_FAILURE() << what << std::hex << ": a=0x" << in[i][0] << " b=0x" << in[i][1] << " c=0x"
                    << in[i][2] << " got " << out[i].p << " want " << w;
  }
  EXPECT_EQ(bad, 0) << what;
}

int32_t s32(uint64_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x)); }
uint32_t u32(uint64_t x) { return static_cast<uint32_t>(x); }

TEST(CompareSemantics, SetpSignedAndUnsignedOrderDiffer) {
  EXPECT_TRUE(run1("setp.lt.s32 %p, %ra, %rb;", 0xFFFFFFFF, 1).p);   // -1 < 1
  EXPECT_FALSE(run1("setp.lt.u32 %p, %ra, %rb;", 0xFFFFFFFF, 1).p);  // 0xFFFFFFFF > 1
  EXPECT_FALSE(run1("setp.lo.u32 %p, %ra, %rb;", 0xFFFFFFFF, 1).p);
  EXPECT_TRUE(run1("setp.hi.u32 %p, %ra, %rb;", 0xFFFFFFFF, 1).p);
  const auto in = pairs(kInts);
  using F = std::function<bool(uint64_t, uint64_t, uint64_t)>;
  const std::vector<std::pair<std::string, F>> cases = {
      {"eq.s32", [](uint64_t a, uint64_t b, uint64_t) { return s32(a) == s32(b); }},
      {"ne.s32", [](uint64_t a, uint64_t b, uint64_t) { return s32(a) != s32(b); }},
      {"lt.s32", [](uint64_t a, uint64_t b, uint64_t) { return s32(a) < s32(b); }},
      {"le.s32", [](uint64_t a, uint64_t b, uint64_t) { return s32(a) <= s32(b); }},
      {"gt.s32", [](uint64_t a, uint64_t b, uint64_t) { return s32(a) > s32(b); }},
      {"ge.s32", [](uint64_t a, uint64_t b, uint64_t) { return s32(a) >= s32(b); }},
      {"lt.u32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) < u32(b); }},
      {"ge.u32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) >= u32(b); }},
      {"lo.u32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) < u32(b); }},
      {"ls.u32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) <= u32(b); }},
      {"hi.u32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) > u32(b); }},
      {"hs.u32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) >= u32(b); }},
      {"ne.b32", [](uint64_t a, uint64_t b, uint64_t) { return u32(a) != u32(b); }},
  };
  for (const auto& [op, f] : cases) check_p("setp." + op, "setp." + op + " %p, %ra, %rb;", in, f);
  // 64-bit and 16-bit compare the whole operand width.
  check_p("setp.lt.s64", "setp.lt.s64 %p, %a, %b;",
          pairs({0, 1, ~0ull, 0x8000000000000000ull, 0x100000000ull}),
          [](uint64_t a, uint64_t b, uint64_t) {
            return static_cast<int64_t>(a) < static_cast<int64_t>(b);
          });
  check_p("setp.hi.u64", "setp.hi.u64 %p, %a, %b;",
          pairs({0, 1, ~0ull, 0x8000000000000000ull, 0x100000000ull}),
          [](uint64_t a, uint64_t b, uint64_t) { return a > b; });
  check_p("setp.lt.s16", "setp.lt.s16 %p, %ha, %hb;",
          pairs({0, 1, 0xFFFF, 0x8000, 0x7FFF, 0x18000}),
          [](uint64_t a, uint64_t b, uint64_t) { return int16_t(a) < int16_t(b); });
}

TEST(CompareSemantics, SetpBoolOpCombinesWithANegatedPredicate) {
  const auto in = pairs(kInts);  // c alternates 0/1
  const std::string q = "setp.ne.u32 %q1, %rc, 0;\n";
  check_p("and", q + "setp.lt.and.s32 %p, %ra, %rb, %q1;", in,
          [](uint64_t a, uint64_t b, uint64_t c) { return s32(a) < s32(b) && c; });
  check_p("and !", q + "setp.lt.and.s32 %p, %ra, %rb, !%q1;", in,
          [](uint64_t a, uint64_t b, uint64_t c) { return s32(a) < s32(b) && !c; });
  check_p("or !", q + "setp.gt.or.u32 %p, %ra, %rb, !%q1;", in,
          [](uint64_t a, uint64_t b, uint64_t c) { return u32(a) > u32(b) || !c; });
  check_p("xor", q + "setp.eq.xor.s32 %p, %ra, %rb, %q1;", in,
          [](uint64_t a, uint64_t b, uint64_t c) { return (s32(a) == s32(b)) != (c != 0); });
  check_p("xor !", q + "setp.eq.xor.s32 %p, %ra, %rb, !%q1;", in,
          [](uint64_t a, uint64_t b, uint64_t c) { return (s32(a) == s32(b)) != (c == 0); });
}

TEST(CompareSemantics, SetpDualDestinationGetsTheComplementCombined) {
  const auto in = pairs(kInts);
  const std::string out_q = "\n selp.u64 %o, 1, 0, %q1;";
  const auto plain = run_snippet("setp.lt.s32 %p|%q1, %ra, %rb;" + out_q, in);
  const auto anded =
      run_snippet("setp.ne.u32 %q2, %rc, 0;\n setp.lt.and.s32 %p|%q1, %ra, %rb, %q2;" + out_q, in);
  const auto ored =
      run_snippet("setp.ne.u32 %q2, %rc, 0;\n setp.lt.or.s32 %p|%q1, %ra, %rb, !%q2;" + out_q, in);
  for (size_t i = 0; i < in.size(); ++i) {
    const bool t = s32(in[i][0]) < s32(in[i][1]), c = in[i][2] != 0;
    EXPECT_EQ(plain[i].p, t) << i;
    EXPECT_EQ(plain[i].o, t ? 0u : 1u) << i;
    EXPECT_EQ(anded[i].p, t && c) << i;
    EXPECT_EQ(anded[i].o, (!t && c) ? 1u : 0u) << i;
    EXPECT_EQ(ored[i].p, t || !c) << i;
    EXPECT_EQ(ored[i].o, (!t || !c) ? 1u : 0u) << i;
  }
}

TEST(CompareSemantics, FloatSetpOrderedIsFalseAndUnorderedTrueOnNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  const std::vector<float> vals = {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, nan, 1e-40f};
  std::vector<Inputs> in;
  for (float a : vals)
    for (float b : vals) in.push_back({f32_bits(a), f32_bits(b), 0});
  auto fa = [](uint64_t a) { return bits_f32(a); };
  auto un = [&](uint64_t a, uint64_t b) { return std::isnan(fa(a)) || std::isnan(fa(b)); };
  using F = std::function<bool(uint64_t, uint64_t, uint64_t)>;
  const std::vector<std::pair<std::string, F>> cases = {
      {"eq", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b) && fa(a) == fa(b); }},
      {"ne", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b) && fa(a) != fa(b); }},
      {"lt", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b) && fa(a) < fa(b); }},
      {"le", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b) && fa(a) <= fa(b); }},
      {"gt", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b) && fa(a) > fa(b); }},
      {"ge", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b) && fa(a) >= fa(b); }},
      {"equ", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b) || fa(a) == fa(b); }},
      {"neu", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b) || fa(a) != fa(b); }},
      {"ltu", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b) || fa(a) < fa(b); }},
      {"leu", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b) || fa(a) <= fa(b); }},
      {"gtu", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b) || fa(a) > fa(b); }},
      {"geu", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b) || fa(a) >= fa(b); }},
      {"num", [&](uint64_t a, uint64_t b, uint64_t) { return !un(a, b); }},
      {"nan", [&](uint64_t a, uint64_t b, uint64_t) { return un(a, b); }},
  };
  for (const auto& [op, f] : cases)
    check_p("setp." + op + ".f32", "setp." + op + ".f32 %p, %fa, %fb;", in, f);
  // Spot checks: -0 == +0; NaN != NaN is false ordered, true unordered.
  EXPECT_TRUE(run1("setp.eq.f32 %p, %fa, %fb;", f32_bits(-0.0f), f32_bits(0.0f)).p);
  EXPECT_FALSE(run1("setp.ne.f32 %p, %fa, %fb;", f32_bits(nan), f32_bits(nan)).p);
  EXPECT_TRUE(run1("setp.neu.f32 %p, %fa, %fb;", f32_bits(nan), f32_bits(nan)).p);
  EXPECT_FALSE(run1("setp.lt.f32 %p, %fa, %fb;", f32_bits(nan), f32_bits(1.0f)).p);
  EXPECT_TRUE(run1("setp.ltu.f32 %p, %fa, %fb;", f32_bits(nan), f32_bits(1.0f)).p);
  // .ftz: a subnormal compares as zero.
  EXPECT_TRUE(run1("setp.gt.f32 %p, %fa, %fb;", f32_bits(0.0f), f32_bits(-1e-40f)).p);
  EXPECT_FALSE(run1("setp.gt.ftz.f32 %p, %fa, %fb;", f32_bits(0.0f), f32_bits(-1e-40f)).p);
  // f64
  const double dnan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(run1("setp.lt.f64 %p, %da, %db;", f64_bits(1.0), f64_bits(1.0 + 1e-15)).p);
  EXPECT_FALSE(run1("setp.ge.f64 %p, %da, %db;", f64_bits(dnan), f64_bits(1.0)).p);
  EXPECT_TRUE(run1("setp.geu.f64 %p, %da, %db;", f64_bits(dnan), f64_bits(1.0)).p);
}

TEST(CompareSemantics, SelpPicksAWhenThePredicateHolds) {
  const std::vector<Inputs> in = {{0x11111111, 0x22222222, 0},
                                  {0x11111111, 0x22222222, 1},
                                  {0xAAAAAAAABBBBBBBBull, 0xCCCCCCCCDDDDDDDDull, 1},
                                  {0xAAAAAAAABBBBBBBBull, 0xCCCCCCCCDDDDDDDDull, 0}};
  const std::string q = "setp.ne.u32 %q1, %rc, 0;\n";
  const auto b32 = run_snippet(q + "selp.b32 %r1, %ra, %rb, %q1;\n cvt.u64.u32 %o, %r1;", in);
  const auto b64 = run_snippet(q + "selp.b64 %o, %a, %b, %q1;", in);
  const auto neg = run_snippet(q + "selp.b64 %o, %a, %b, !%q1;", in);
  const auto imm = run_snippet(q + "selp.s32 %r1, -5, 7, %q1;\n cvt.s64.s32 %o, %r1;", in);
  for (size_t i = 0; i < in.size(); ++i) {
    const bool p = in[i][2] != 0;
    EXPECT_EQ(b32[i].o, (p ? in[i][0] : in[i][1]) & 0xFFFFFFFF) << i;
    EXPECT_EQ(b64[i].o, p ? in[i][0] : in[i][1]) << i;
    EXPECT_EQ(neg[i].o, p ? in[i][1] : in[i][0]) << i;
    EXPECT_EQ(imm[i].o, p ? static_cast<uint64_t>(-5) : 7u) << i;
  }
}

TEST(CompareSemantics, SlctPicksAWhenTheSelectorIsNotNegative) {
  const std::string s = "slct.b32.s32 %r1, %ra, %rb, %rc;\n cvt.u64.u32 %o, %r1;";
  EXPECT_EQ(run1(s, 111, 222, 0).o, 111u);
  EXPECT_EQ(run1(s, 111, 222, 5).o, 111u);
  EXPECT_EQ(run1(s, 111, 222, 0xFFFFFFFF).o, 222u);
  EXPECT_EQ(run1(s, 111, 222, 0x80000000).o, 222u);
  EXPECT_EQ(run1(s, 111, 222, 0x7FFFFFFF).o, 111u);
  const std::string f = "slct.b64.f32 %o, %a, %b, %fc;";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(run1(f, 111, 222, f32_bits(1.5f)).o, 111u);
  EXPECT_EQ(run1(f, 111, 222, f32_bits(-1.5f)).o, 222u);
  EXPECT_EQ(run1(f, 111, 222, f32_bits(0.0f)).o, 111u);
  EXPECT_EQ(run1(f, 111, 222, f32_bits(-0.0f)).o, 111u);  // -0 equals 0
  EXPECT_EQ(run1(f, 111, 222, f32_bits(nan)).o, 222u);    // NaN: ordered compare fails, b
  EXPECT_EQ(run1(f, 111, 222, f32_bits(-1e-40f)).o, 222u);
  // .ftz flushes a subnormal selector to a sign-preserving zero, which selects a.
  EXPECT_EQ(run1("slct.ftz.b64.f32 %o, %a, %b, %fc;", 111, 222, f32_bits(-1e-40f)).o, 111u);
  EXPECT_EQ(run1("slct.f32.s32 %f1, %fa, %fb, %rc;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;",
                 f32_bits(2.0f), f32_bits(3.0f), 0xFFFFFFFF)
                .o,
            f32_bits(3.0f));
}

TEST(CompareSemantics, SetWritesAllOnesOrOnePointZero) {
  const auto in = pairs(kInts);
  const auto u = run_snippet("set.lt.u32.s32 %r1, %ra, %rb;\n cvt.u64.u32 %o, %r1;", in);
  const auto f =
      run_snippet("set.lt.f32.s32 %f1, %fa, %fb;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;", in);
  const auto c = run_snippet(
      "setp.ne.u32 %q1, %rc, 0;\n set.hi.and.u32.u32 %r1, %ra, %rb, !%q1;\n cvt.u64.u32 %o, %r1;",
      in);
  for (size_t i = 0; i < in.size(); ++i) {
    const bool t = s32(in[i][0]) < s32(in[i][1]);
    EXPECT_EQ(u[i].o, t ? 0xFFFFFFFFu : 0u) << i;
    EXPECT_EQ(f[i].o, t ? f32_bits(1.0f) : 0u) << i;
    EXPECT_EQ(c[i].o, (u32(in[i][0]) > u32(in[i][1]) && in[i][2] == 0) ? 0xFFFFFFFFu : 0u) << i;
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(
      run1("set.equ.u32.f32 %r1, %fa, %fb;\n cvt.u64.u32 %o, %r1;", f32_bits(nan), f32_bits(1.0f))
          .o,
      0xFFFFFFFFu);
  EXPECT_EQ(
      run1("set.eq.u32.f32 %r1, %fa, %fb;\n cvt.u64.u32 %o, %r1;", f32_bits(nan), f32_bits(nan)).o,
      0u);
  EXPECT_EQ(run1("set.ge.f32.f32 %f1, %fa, %fb;\n mov.b32 %r1, %f1;\n cvt.u64.u32 %o, %r1;",
                 f32_bits(2.0f), f32_bits(2.0f))
                .o,
            f32_bits(1.0f));
}

}  // namespace
}  // namespace gputlm::test
