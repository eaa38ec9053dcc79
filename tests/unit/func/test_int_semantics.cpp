// Integer arithmetic semantics (PTX ISA 9.7.1) on the functional engine: every instruction runs
// over all pairs of a grid of edge values in one launch and is compared against a C++ reference
// written from the PTX definition (wider arithmetic, no reuse of the engine's helpers).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const std::vector<uint64_t> kEdge32 = {
    0,          1,          2,          7,          0xFFFFFFFF, 0xFFFFFFF9, 0x80000000, 0x7FFFFFFF,
    0x80000001, 0x0000FFFF, 0x00010000, 0x00FFFFFF, 0xFF800000, 0x12345678, 0xDEADBEEF, 0x0BADF00D};
const std::vector<uint64_t> kEdge64 = {0,
                                       1,
                                       3,
                                       0xFFFFFFFFFFFFFFFFull,
                                       0xFFFFFFFFFFFFFFFDull,
                                       0x8000000000000000ull,
                                       0x7FFFFFFFFFFFFFFFull,
                                       0xFFFFFFFF,
                                       0x100000000ull,
                                       0xDEADBEEFCAFEBABEull,
                                       0x0123456789ABCDEFull,
                                       0x8000000000000001ull};

// All (a, b) pairs of `vals`; c is a third edge value (32-bit grid) or a 64-bit pattern.
std::vector<Inputs> grid(const std::vector<uint64_t>& vals, bool wide_c = false) {
  std::vector<Inputs> in;
  for (size_t i = 0; i < vals.size(); ++i)
    for (size_t j = 0; j < vals.size(); ++j) {
      uint64_t c = vals[(i * 7 + j * 3 + 1) % vals.size()];
      if (wide_c) c = kEdge64[(i * 5 + j) % kEdge64.size()];
      in.push_back({vals[i], vals[j], c});
    }
  return in;
}

// "op %r1, %ra, %rb[, %rc]" with the 32-bit result zero-extended into %o.
std::string op32(const std::string& op, bool three = false) {
  return op + " %r1, %ra, %rb" + (three ? ", %rc" : "") + ";\n cvt.u64.u32 %o, %r1;";
}

int64_t s32(uint64_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x)); }
uint64_t u32(uint64_t x) { return x & 0xFFFFFFFFull; }
uint64_t z32(int64_t x) { return static_cast<uint64_t>(x) & 0xFFFFFFFFull; }
int64_t s64(uint64_t x) { return static_cast<int64_t>(x); }

TEST(IntSemantics, AddSubWrapModulo2To32) {
  const auto in = grid(kEdge32);
  expect_lanes("add.u32", op32("add.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(u32(a) + u32(b)); });
  expect_lanes("add.s32", op32("add.s32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return z32(s32(a) + s32(b)); });
  expect_lanes("sub.u32", op32("sub.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(u32(a) - u32(b)); });
  expect_lanes("sub.s32", op32("sub.s32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return z32(s32(a) - s32(b)); });
}

TEST(IntSemantics, AddSubOf16And64BitWrap) {
  expect_lanes("add.u16", "add.u16 %hc, %ha, %hb;\n cvt.u64.u16 %o, %hc;", grid(kEdge32),
               [](uint64_t a, uint64_t b, uint64_t) { return (a + b) & 0xFFFF; });
  expect_lanes("sub.s16", "sub.s16 %hc, %ha, %hb;\n cvt.u64.u16 %o, %hc;", grid(kEdge32),
               [](uint64_t a, uint64_t b, uint64_t) { return (a - b) & 0xFFFF; });
  expect_lanes("add.s64", "add.s64 %o, %a, %b;", grid(kEdge64),
               [](uint64_t a, uint64_t b, uint64_t) { return a + b; });
  expect_lanes("sub.u64", "sub.u64 %o, %a, %b;", grid(kEdge64),
               [](uint64_t a, uint64_t b, uint64_t) { return a - b; });
}

TEST(IntSemantics, AddSatS32ClampsToIntRange) {
  auto clamp = [](int64_t v) {
    return z32(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
  };
  const auto in = grid(kEdge32);
  expect_lanes("add.sat.s32", op32("add.sat.s32"), in,
               [&](uint64_t a, uint64_t b, uint64_t) { return clamp(s32(a) + s32(b)); });
  expect_lanes("sub.sat.s32", op32("sub.sat.s32"), in,
               [&](uint64_t a, uint64_t b, uint64_t) { return clamp(s32(a) - s32(b)); });
  EXPECT_EQ(run1(op32("add.sat.s32"), 0x7FFFFFFF, 1).o, 0x7FFFFFFFu);
  EXPECT_EQ(run1(op32("add.sat.s32"), 0x80000000, 0xFFFFFFFF).o, 0x80000000u);
}

TEST(IntSemantics, MulLoKeepsLow32BitsWhateverTheSign) {
  const auto in = grid(kEdge32);
  expect_lanes("mul.lo.u32", op32("mul.lo.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(u32(a) * u32(b)); });
  expect_lanes("mul.lo.s32", op32("mul.lo.s32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return z32(s32(a) * s32(b)); });
}

TEST(IntSemantics, MulHiDependsOnSignedness) {
  const auto in = grid(kEdge32);
  expect_lanes("mul.hi.u32", op32("mul.hi.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return (u32(a) * u32(b)) >> 32; });
  expect_lanes("mul.hi.s32", op32("mul.hi.s32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return z32((s32(a) * s32(b)) >> 32); });
  // -1 * 1: the high word is all ones signed, zero unsigned... and 0xFFFFFFFF^2 unsigned.
  EXPECT_EQ(run1(op32("mul.hi.s32"), 0xFFFFFFFF, 1).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(op32("mul.hi.u32"), 0xFFFFFFFF, 1).o, 0u);
  EXPECT_EQ(run1(op32("mul.hi.u32"), 0xFFFFFFFF, 0xFFFFFFFF).o, 0xFFFFFFFEu);
}

TEST(IntSemantics, MulWideGivesTheFull64BitProduct) {
  const auto in = grid(kEdge32);
  expect_lanes("mul.wide.u32", "mul.wide.u32 %o, %ra, %rb;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(a) * u32(b); });
  expect_lanes(
      "mul.wide.s32", "mul.wide.s32 %o, %ra, %rb;", in,
      [](uint64_t a, uint64_t b, uint64_t) { return static_cast<uint64_t>(s32(a) * s32(b)); });
  EXPECT_EQ(run1("mul.wide.s32 %o, %ra, %rb;", 0x80000000, 0x80000000).o, 0x4000000000000000ull);
  EXPECT_EQ(run1("mul.wide.s32 %o, %ra, %rb;", 0xFFFFFFFF, 2).o, 0xFFFFFFFFFFFFFFFEull);
}

TEST(IntSemantics, MulHi64UsesThe128BitProduct) {
  const auto in = grid(kEdge64);
  expect_lanes("mul.hi.u64", "mul.hi.u64 %o, %a, %b;", in, [](uint64_t a, uint64_t b, uint64_t) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
  });
  expect_lanes("mul.hi.s64", "mul.hi.s64 %o, %a, %b;", in, [](uint64_t a, uint64_t b, uint64_t) {
    return static_cast<uint64_t>((static_cast<__int128>(s64(a)) * s64(b)) >> 64);
  });
  expect_lanes("mul.lo.s64", "mul.lo.s64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return a * b; });
  EXPECT_EQ(run1("mul.hi.s64 %o, %a, %b;", ~0ull, 1).o, ~0ull);
  EXPECT_EQ(run1("mul.hi.u64 %o, %a, %b;", ~0ull, 1).o, 0u);
}

TEST(IntSemantics, MadLoHiWideAddTheThirdOperand) {
  const auto in = grid(kEdge32);
  expect_lanes("mad.lo.s32", op32("mad.lo.s32", true), in,
               [](uint64_t a, uint64_t b, uint64_t c) { return z32(s32(a) * s32(b) + s32(c)); });
  expect_lanes("mad.hi.u32", op32("mad.hi.u32", true), in, [](uint64_t a, uint64_t b, uint64_t c) {
    return u32(((u32(a) * u32(b)) >> 32) + u32(c));
  });
  expect_lanes("mad.hi.s32", op32("mad.hi.s32", true), in, [](uint64_t a, uint64_t b, uint64_t c) {
    return z32(((s32(a) * s32(b)) >> 32) + s32(c));
  });
  const auto wide = grid(kEdge32, true);
  expect_lanes("mad.wide.u32", "mad.wide.u32 %o, %ra, %rb, %c;", wide,
               [](uint64_t a, uint64_t b, uint64_t c) { return u32(a) * u32(b) + c; });
  expect_lanes("mad.wide.s32", "mad.wide.s32 %o, %ra, %rb, %c;", wide,
               [](uint64_t a, uint64_t b, uint64_t c) {
                 return static_cast<uint64_t>(s32(a) * s32(b)) + c;
               });
}

// 24-bit operand as the PTX defines it: bits 23..0, sign bit 23 for .s32.
int64_t op24(uint64_t x, bool is_signed) {
  const int64_t v = static_cast<int64_t>(x & 0xFFFFFF);
  return is_signed && (v & 0x800000) ? v - 0x1000000 : v;
}

TEST(IntSemantics, Mul24UsesTheLow24BitsAndSelectsBits31To0Or47To16) {
  const auto in = grid(kEdge32);
  for (bool sgn : {false, true}) {
    const std::string t = sgn ? ".s32" : ".u32";
    expect_lanes("mul24.lo" + t, op32("mul24.lo" + t), in, [sgn](uint64_t a, uint64_t b, uint64_t) {
      return z32(op24(a, sgn) * op24(b, sgn));
    });
    expect_lanes("mul24.hi" + t, op32("mul24.hi" + t), in, [sgn](uint64_t a, uint64_t b, uint64_t) {
      return (static_cast<uint64_t>(op24(a, sgn) * op24(b, sgn)) >> 16) & 0xFFFFFFFF;
    });
    expect_lanes("mad24.lo" + t, op32("mad24.lo" + t, true), in,
                 [sgn](uint64_t a, uint64_t b, uint64_t c) {
                   return z32(op24(a, sgn) * op24(b, sgn) + static_cast<int64_t>(c));
                 });
    expect_lanes(
        "mad24.hi" + t, op32("mad24.hi" + t, true), in, [sgn](uint64_t a, uint64_t b, uint64_t c) {
          return u32(((static_cast<uint64_t>(op24(a, sgn) * op24(b, sgn)) >> 16) & 0xFFFFFFFF) + c);
        });
  }
  // 0xFFFFFF * 0xFFFFFF = 0xFFFFFE000001: .lo 0xFE000001, .hi 0xFFFFFE00 (unsigned), -1*-1 = 1
  // (signed).
  EXPECT_EQ(run1(op32("mul24.lo.u32"), 0xFFFFFFFF, 0xFFFFFFFF).o, 0xFE000001u);
  EXPECT_EQ(run1(op32("mul24.hi.u32"), 0xFFFFFFFF, 0xFFFFFFFF).o, 0xFFFFFE00u);
  EXPECT_EQ(run1(op32("mul24.lo.s32"), 0xFFFFFFFF, 0xFFFFFFFF).o, 1u);
}

TEST(IntSemantics, MadHiSatS32ClampsTheSumOfHighPartAndC) {
  auto clamp = [](int64_t v) {
    return z32(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
  };
  const auto in = grid(kEdge32);
  expect_lanes("mad.hi.sat.s32", op32("mad.hi.sat.s32", true), in,
               [&](uint64_t a, uint64_t b, uint64_t c) {
                 return clamp(((s32(a) * s32(b)) >> 32) + s32(c));
               });
  expect_lanes("mad24.hi.sat.s32", op32("mad24.hi.sat.s32", true), in,
               [&](uint64_t a, uint64_t b, uint64_t c) {
                 return clamp(((op24(a, true) * op24(b, true)) >> 16) + s32(c));
               });
  // 0x7FFFFFFF^2 = 0x3FFFFFFF00000001: high part 0x3FFFFFFF, + 0x7FFFFFFF overflows -> INT_MAX.
  EXPECT_EQ(run1(op32("mad.hi.sat.s32", true), 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF).o, 0x7FFFFFFFu);
  EXPECT_EQ(run1(op32("mad.hi.s32", true), 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF).o, 0xBFFFFFFEu);
  EXPECT_EQ(run1(op32("mad.hi.sat.s32", true), 0x80000000, 0x7FFFFFFF, 0x80000000).o, 0x80000000u);
}

TEST(IntSemantics, SadAddsTheAbsoluteDifference) {
  const auto in = grid(kEdge32);
  expect_lanes("sad.u32", op32("sad.u32", true), in, [](uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t d = u32(a) > u32(b) ? u32(a) - u32(b) : u32(b) - u32(a);
    return u32(d + c);
  });
  expect_lanes("sad.s32", op32("sad.s32", true), in, [](uint64_t a, uint64_t b, uint64_t c) {
    const int64_t d = s32(a) - s32(b);
    return z32((d < 0 ? -d : d) + s32(c));
  });
  EXPECT_EQ(run1(op32("sad.s32", true), 0xFFFFFFFF, 1, 10).o, 12u);  // |-1 - 1| + 10
  EXPECT_EQ(run1(op32("sad.u32", true), 0xFFFFFFFF, 1, 10).o, 0x100000008ull & 0xFFFFFFFF);
}

// The engine's documented choices where PTX leaves the result undefined: x / 0 is all ones
// (-1 signed), x % 0 is x, INT_MIN / -1 wraps to INT_MIN with remainder 0.
uint64_t div_s(int64_t a, int64_t b, unsigned bits) {
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (b == 0) return mask;
  if (b == -1) return static_cast<uint64_t>(0 - static_cast<uint64_t>(a)) & mask;
  return static_cast<uint64_t>(a / b) & mask;
}
uint64_t rem_s(int64_t a, int64_t b, unsigned bits) {
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (b == 0) return static_cast<uint64_t>(a) & mask;
  if (b == -1) return 0;
  return static_cast<uint64_t>(a % b) & mask;
}

TEST(IntSemantics, DivRemTruncateTowardZero) {
  const auto in = grid(kEdge32);
  expect_lanes("div.u32", op32("div.u32"), in, [](uint64_t a, uint64_t b, uint64_t) {
    return u32(b) ? u32(a) / u32(b) : 0xFFFFFFFF;
  });
  expect_lanes("rem.u32", op32("rem.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(b) ? u32(a) % u32(b) : u32(a); });
  expect_lanes("div.s32", op32("div.s32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return div_s(s32(a), s32(b), 32); });
  expect_lanes("rem.s32", op32("rem.s32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return rem_s(s32(a), s32(b), 32); });
  EXPECT_EQ(run1(op32("div.s32"), static_cast<uint32_t>(-7), 2).o, static_cast<uint32_t>(-3));
  EXPECT_EQ(run1(op32("rem.s32"), static_cast<uint32_t>(-7), 2).o, static_cast<uint32_t>(-1));
  EXPECT_EQ(run1(op32("rem.s32"), 7, static_cast<uint32_t>(-2)).o, 1u);
}

TEST(IntSemantics, DivRem64Bit) {
  const auto in = grid(kEdge64);
  expect_lanes("div.u64", "div.u64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return b ? a / b : ~0ull; });
  expect_lanes("rem.u64", "rem.u64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return b ? a % b : a; });
  expect_lanes("div.s64", "div.s64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return div_s(s64(a), s64(b), 64); });
  expect_lanes("rem.s64", "rem.s64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return rem_s(s64(a), s64(b), 64); });
}

TEST(IntSemantics, DivisionByZeroGivesAllOnesAndRemainderTheDividend) {
  EXPECT_EQ(run1(op32("div.u32"), 1234, 0).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(op32("div.s32"), 1234, 0).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(op32("div.s32"), static_cast<uint32_t>(-1234), 0).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(op32("rem.u32"), 1234, 0).o, 1234u);
  EXPECT_EQ(run1(op32("rem.s32"), static_cast<uint32_t>(-1234), 0).o, static_cast<uint32_t>(-1234));
  EXPECT_EQ(run1("div.u64 %o, %a, %b;", 99, 0).o, ~0ull);
  EXPECT_EQ(run1("rem.s64 %o, %a, %b;", static_cast<uint64_t>(-99), 0).o,
            static_cast<uint64_t>(-99));
}

TEST(IntSemantics, IntMinDividedByMinusOneWrapsToIntMin) {
  EXPECT_EQ(run1(op32("div.s32"), 0x80000000, 0xFFFFFFFF).o, 0x80000000u);
  EXPECT_EQ(run1(op32("rem.s32"), 0x80000000, 0xFFFFFFFF).o, 0u);
  EXPECT_EQ(run1("div.s64 %o, %a, %b;", 0x8000000000000000ull, ~0ull).o, 0x8000000000000000ull);
  EXPECT_EQ(run1("rem.s64 %o, %a, %b;", 0x8000000000000000ull, ~0ull).o, 0u);
  // Unsigned: 0x80000000 / 0xFFFFFFFF is an ordinary 0.
  EXPECT_EQ(run1(op32("div.u32"), 0x80000000, 0xFFFFFFFF).o, 0u);
}

TEST(IntSemantics, AbsAndNegWrapAtIntMin) {
  const auto in = grid(kEdge32);
  expect_lanes("abs.s32", "abs.s32 %r1, %ra;\n cvt.u64.u32 %o, %r1;", in,
               [](uint64_t a, uint64_t, uint64_t) { return z32(s32(a) < 0 ? -s32(a) : s32(a)); });
  expect_lanes("neg.s32", "neg.s32 %r1, %ra;\n cvt.u64.u32 %o, %r1;", in,
               [](uint64_t a, uint64_t, uint64_t) { return z32(-s32(a)); });
  EXPECT_EQ(run1("abs.s32 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0x80000000).o, 0x80000000u);
  EXPECT_EQ(run1("neg.s32 %r1, %ra;\n cvt.u64.u32 %o, %r1;", 0x80000000).o, 0x80000000u);
  EXPECT_EQ(run1("abs.s64 %o, %a;", 0x8000000000000000ull).o, 0x8000000000000000ull);
  EXPECT_EQ(run1("abs.s64 %o, %a;", static_cast<uint64_t>(-5)).o, 5u);
  EXPECT_EQ(run1("neg.s64 %o, %a;", 5).o, static_cast<uint64_t>(-5));
  // abs.s16: -2 (0xFFFE) -> 2
  EXPECT_EQ(run1("abs.s16 %hc, %ha;\n cvt.u64.u16 %o, %hc;", 0xFFFE).o, 2u);
}

TEST(IntSemantics, MinMaxCompareSignedOrUnsignedByType) {
  const auto in = grid(kEdge32);
  expect_lanes("min.s32", op32("min.s32"), in, [](uint64_t a, uint64_t b, uint64_t) {
    return z32(s32(a) < s32(b) ? s32(a) : s32(b));
  });
  expect_lanes("max.s32", op32("max.s32"), in, [](uint64_t a, uint64_t b, uint64_t) {
    return z32(s32(a) > s32(b) ? s32(a) : s32(b));
  });
  expect_lanes("min.u32", op32("min.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(a) < u32(b) ? u32(a) : u32(b); });
  expect_lanes("max.u32", op32("max.u32"), in,
               [](uint64_t a, uint64_t b, uint64_t) { return u32(a) > u32(b) ? u32(a) : u32(b); });
  const auto in64 = grid(kEdge64);
  expect_lanes("min.s64", "min.s64 %o, %a, %b;", in64,
               [](uint64_t a, uint64_t b, uint64_t) { return s64(a) < s64(b) ? a : b; });
  expect_lanes("max.u64", "max.u64 %o, %a, %b;", in64,
               [](uint64_t a, uint64_t b, uint64_t) { return a > b ? a : b; });
  EXPECT_EQ(run1(op32("min.s32"), 0xFFFFFFFF, 1).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(op32("min.u32"), 0xFFFFFFFF, 1).o, 1u);
}

// Carry chains (add.cc/addc, sub.cc/subc, mad.cc/madc): a 64-bit add, subtract and multiply-add
// done in 32-bit halves must equal the 64-bit result.
TEST(IntSemantics, AddCcAddcChainAWideAdditionOf32BitHalves) {
  const char* snippet = R"(
  mov.b64 {%r1, %r2}, %a;
  mov.b64 {%r3, %r4}, %b;
  add.cc.u32 %r5, %r1, %r3;
  addc.cc.u32 %r6, %r2, %r4;
  addc.u32 %r7, 0, 0;
  mov.b64 %o, {%r5, %r6};
  setp.ne.u32 %p, %r7, 0;)";
  const auto in = grid(kEdge64);
  expect_lanes("add.cc/addc", snippet, in, [](uint64_t a, uint64_t b, uint64_t) { return a + b; });
  for (const Inputs& i : in) {  // the carry out of the high half
    const test::LaneOut o = test::run1(snippet, i[0], i[1]);
    EXPECT_EQ(o.p, static_cast<unsigned __int128>(i[0]) + i[1] > 0xFFFFFFFFFFFFFFFFull)
        << std::hex << i[0] << " + " << i[1];
  }
}

TEST(IntSemantics, SubCcSubcBorrowThroughA64BitSubtraction) {
  const char* snippet = R"(
  mov.b64 {%r1, %r2}, %a;
  mov.b64 {%r3, %r4}, %b;
  sub.cc.u32 %r5, %r1, %r3;
  subc.u32 %r6, %r2, %r4;
  mov.b64 %o, {%r5, %r6};)";
  expect_lanes("sub.cc/subc", snippet, grid(kEdge64),
               [](uint64_t a, uint64_t b, uint64_t) { return a - b; });
}

TEST(IntSemantics, MadCcMadcHiFormA64BitProductOf32BitOperands) {
  // (a * b) as 64 bits from mad.lo.cc and madc.hi with c added: lo = a*b + c (carry), hi = hi(a*b)
  // + carry.
  const char* snippet = R"(
  mad.lo.cc.u32 %r5, %ra, %rb, %rc;
  madc.hi.u32 %r6, %ra, %rb, 0;
  mov.b64 %o, {%r5, %r6};)";
  expect_lanes("mad.lo.cc/madc.hi", snippet, grid(kEdge32),
               [](uint64_t a, uint64_t b, uint64_t c) { return u32(a) * u32(b) + u32(c); });
}

}  // namespace
}  // namespace gputlm::test
