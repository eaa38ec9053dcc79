// Logic, shift and bit-field semantics (PTX ISA 9.7.7, 9.7.8) on the functional engine, each
// compared against a C++ reference written from the PTX pseudocode, over grids of edge values
// run in one launch, plus hand-computed spot values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

const std::vector<uint64_t> kVals = {0,
                                     1,
                                     0x80000000,
                                     0x7FFFFFFF,
                                     0xFFFFFFFF,
                                     0x0000FFFF,
                                     0x00F0F00F,
                                     0x12345678,
                                     0xDEADBEEF,
                                     0xFFFFFFFF00000000ull,
                                     0x8000000000000000ull,
                                     0xFFFFFFFFFFFFFFFFull,
                                     0x0123456789ABCDEFull,
                                     0x7FFF,
                                     0x8001};

std::vector<Inputs> grid(const std::vector<uint64_t>& as, const std::vector<uint64_t>& bs,
                         uint64_t c = 0) {
  std::vector<Inputs> in;
  for (uint64_t a : as)
    for (uint64_t b : bs) in.push_back({a, b, c});
  return in;
}

const char* kTo64 = "\n cvt.u64.u32 %o, %r1;";
uint64_t lo32(uint64_t x) { return x & 0xFFFFFFFF; }

TEST(BitSemantics, AndOrXorNotCnotOn32And64Bits) {
  const auto in = grid(kVals, kVals);
  expect_lanes("and.b32", std::string("and.b32 %r1, %ra, %rb;") + kTo64, in,
               [](uint64_t a, uint64_t b, uint64_t) { return lo32(a & b); });
  expect_lanes("or.b32", std::string("or.b32 %r1, %ra, %rb;") + kTo64, in,
               [](uint64_t a, uint64_t b, uint64_t) { return lo32(a | b); });
  expect_lanes("xor.b32", std::string("xor.b32 %r1, %ra, %rb;") + kTo64, in,
               [](uint64_t a, uint64_t b, uint64_t) { return lo32(a ^ b); });
  expect_lanes("not.b32", std::string("not.b32 %r1, %ra;") + kTo64, in,
               [](uint64_t a, uint64_t, uint64_t) { return lo32(~a); });
  expect_lanes("cnot.b32", std::string("cnot.b32 %r1, %ra;") + kTo64, in,
               [](uint64_t a, uint64_t, uint64_t) { return lo32(a) == 0 ? 1u : 0u; });
  expect_lanes("and.b64", "and.b64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return a & b; });
  expect_lanes("or.b64", "or.b64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return a | b; });
  expect_lanes("xor.b64", "xor.b64 %o, %a, %b;", in,
               [](uint64_t a, uint64_t b, uint64_t) { return a ^ b; });
  expect_lanes("not.b64", "not.b64 %o, %a;", in, [](uint64_t a, uint64_t, uint64_t) { return ~a; });
  // cnot.b64 looks at all 64 bits: 0xFFFFFFFF00000000 is not zero.
  expect_lanes("cnot.b64", "cnot.b64 %o, %a;", in,
               [](uint64_t a, uint64_t, uint64_t) { return a == 0 ? 1u : 0u; });
}

TEST(BitSemantics, PredicateLogic) {
  const std::vector<Inputs> in = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}};
  const std::string pre = "setp.ne.u32 %q1, %ra, 0;\n setp.ne.u32 %q2, %rb, 0;\n";
  for (const auto& [op, f] : std::vector<std::pair<std::string, std::function<bool(bool, bool)>>>{
           {"and", [](bool x, bool y) { return x && y; }},
           {"or", [](bool x, bool y) { return x || y; }},
           {"xor", [](bool x, bool y) { return x != y; }}}) {
    const auto out = run_snippet(pre + op + ".pred %p, %q1, %q2;", in);
    for (size_t i = 0; i < in.size(); ++i)
      EXPECT_EQ(out[i].p, f(in[i][0], in[i][1])) << op << ".pred " << i;
  }
  const auto n = run_snippet(pre + "not.pred %p, %q1;", in);
  const auto m = run_snippet(pre + "and.pred %p, %q1, !%q2;", in);
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(n[i].p, in[i][0] == 0) << "not.pred " << i;
    EXPECT_EQ(m[i].p, in[i][0] && !in[i][1]) << "and.pred with !q2 " << i;
  }
}

const std::vector<uint64_t> kShifts = {0,  1,  7,  15, 16,  17,         31,        32,
                                       33, 63, 64, 65, 255, 0x80000000, 0xFFFFFFFF};

TEST(BitSemantics, ShlByWidthOrMoreGivesZero) {
  const auto in = grid(kVals, kShifts);
  expect_lanes("shl.b16", "shl.b16 %hc, %ha, %rb;\n cvt.u64.u16 %o, %hc;", in,
               [](uint64_t a, uint64_t n, uint64_t) { return n >= 16 ? 0 : (a << n) & 0xFFFF; });
  expect_lanes("shl.b32", std::string("shl.b32 %r1, %ra, %rb;") + kTo64, in,
               [](uint64_t a, uint64_t n, uint64_t) { return n >= 32 ? 0 : lo32(a << n); });
  expect_lanes("shl.b64", "shl.b64 %o, %a, %rb;", in,
               [](uint64_t a, uint64_t n, uint64_t) { return n >= 64 ? 0 : a << n; });
}

TEST(BitSemantics, ShrUnsignedByWidthOrMoreGivesZero) {
  const auto in = grid(kVals, kShifts);
  expect_lanes("shr.u16", "shr.u16 %hc, %ha, %rb;\n cvt.u64.u16 %o, %hc;", in,
               [](uint64_t a, uint64_t n, uint64_t) { return n >= 16 ? 0 : (a & 0xFFFF) >> n; });
  expect_lanes("shr.u32", std::string("shr.u32 %r1, %ra, %rb;") + kTo64, in,
               [](uint64_t a, uint64_t n, uint64_t) { return n >= 32 ? 0 : lo32(a) >> n; });
  expect_lanes("shr.b64", "shr.b64 %o, %a, %rb;", in,
               [](uint64_t a, uint64_t n, uint64_t) { return n >= 64 ? 0 : a >> n; });
}

// Arithmetic right shift written bit by bit: bit i of the result is bit min(i + n, w - 1).
uint64_t sra(uint64_t a, uint64_t n, unsigned w) {
  uint64_t d = 0;
  for (unsigned i = 0; i < w; ++i) {
    const uint64_t src = std::min<uint64_t>(i + n, w - 1);
    d |= ((a >> src) & 1) << i;
  }
  return d;
}

TEST(BitSemantics, ShrSignedByWidthOrMoreGivesTheSignFill) {
  const auto in = grid(kVals, kShifts);
  expect_lanes("shr.s16", "shr.s16 %hc, %ha, %rb;\n cvt.u64.u16 %o, %hc;", in,
               [](uint64_t a, uint64_t n, uint64_t) { return sra(a, n, 16); });
  expect_lanes("shr.s32", std::string("shr.s32 %r1, %ra, %rb;") + kTo64, in,
               [](uint64_t a, uint64_t n, uint64_t) { return sra(a, n, 32); });
  expect_lanes("shr.s64", "shr.s64 %o, %a, %rb;", in,
               [](uint64_t a, uint64_t n, uint64_t) { return sra(a, n, 64); });
  EXPECT_EQ(run1(std::string("shr.s32 %r1, %ra, %rb;") + kTo64, 0x80000000, 40).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(std::string("shr.s32 %r1, %ra, %rb;") + kTo64, 0x7FFFFFFF, 40).o, 0u);
}

TEST(BitSemantics, PopcClzBrevCountAndReverse) {
  auto popc = [](uint64_t v) {
    unsigned n = 0;
    for (; v; v >>= 1) n += v & 1;
    return n;
  };
  auto clz = [](uint64_t v, unsigned w) {
    unsigned n = 0;
    for (int i = int(w) - 1; i >= 0 && !((v >> i) & 1); --i) ++n;
    return n;
  };
  auto brev = [](uint64_t v, unsigned w) {
    uint64_t r = 0;
    for (unsigned i = 0; i < w; ++i)
      if ((v >> i) & 1) r |= 1ull << (w - 1 - i);
    return r;
  };
  const auto in = grid(kVals, {0});
  expect_lanes("popc.b32", std::string("popc.b32 %r1, %ra;") + kTo64, in,
               [&](uint64_t a, uint64_t, uint64_t) { return popc(lo32(a)); });
  expect_lanes("popc.b64", std::string("popc.b64 %r1, %a;") + kTo64, in,
               [&](uint64_t a, uint64_t, uint64_t) { return popc(a); });
  expect_lanes("clz.b32", std::string("clz.b32 %r1, %ra;") + kTo64, in,
               [&](uint64_t a, uint64_t, uint64_t) { return clz(lo32(a), 32); });
  expect_lanes("clz.b64", std::string("clz.b64 %r1, %a;") + kTo64, in,
               [&](uint64_t a, uint64_t, uint64_t) { return clz(a, 64); });
  expect_lanes("brev.b32", std::string("brev.b32 %r1, %ra;") + kTo64, in,
               [&](uint64_t a, uint64_t, uint64_t) { return brev(lo32(a), 32); });
  expect_lanes("brev.b64", "brev.b64 %o, %a;", in,
               [&](uint64_t a, uint64_t, uint64_t) { return brev(a, 64); });
  EXPECT_EQ(run1(std::string("clz.b32 %r1, %ra;") + kTo64, 0).o, 32u);
  EXPECT_EQ(run1(std::string("clz.b64 %r1, %a;") + kTo64, 0).o, 64u);
  EXPECT_EQ(run1(std::string("brev.b32 %r1, %ra;") + kTo64, 1).o, 0x80000000u);
}

TEST(BitSemantics, BfindFindsTheMostSignificantNonSignBit) {
  const std::string u = std::string("bfind.u32 %r1, %ra;") + kTo64,
                    s = std::string("bfind.s32 %r1, %ra;") + kTo64;
  const std::string us = std::string("bfind.shiftamt.u32 %r1, %ra;") + kTo64;
  const std::string ss = std::string("bfind.shiftamt.s32 %r1, %ra;") + kTo64;
  EXPECT_EQ(run1(u, 0).o, 0xFFFFFFFFu);  // no bit set
  EXPECT_EQ(run1(u, 1).o, 0u);
  EXPECT_EQ(run1(u, 0x80000000).o, 31u);
  EXPECT_EQ(run1(u, 0x00012345).o, 16u);
  EXPECT_EQ(run1(s, 0xFFFFFFFF).o, 0xFFFFFFFFu);  // -1: no non-sign bit
  EXPECT_EQ(run1(s, 0).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(s, 0x80000000).o, 30u);  // ~INT_MIN = 0x7FFFFFFF
  EXPECT_EQ(run1(s, 0xFFFFFFF0).o, 3u);   // -16: ~ = 15
  EXPECT_EQ(run1(s, 0x7FFFFFFF).o, 30u);
  EXPECT_EQ(run1(us, 1).o, 31u);
  EXPECT_EQ(run1(us, 0x80000000).o, 0u);
  EXPECT_EQ(run1(us, 0).o, 0xFFFFFFFFu);  // none stays 0xFFFFFFFF
  EXPECT_EQ(run1(ss, 0xFFFFFFF0).o, 28u);
  EXPECT_EQ(run1(ss, 0xFFFFFFFF).o, 0xFFFFFFFFu);
  EXPECT_EQ(run1(std::string("bfind.u64 %r1, %a;") + kTo64, 0x8000000000000000ull).o, 63u);
  EXPECT_EQ(run1(std::string("bfind.s64 %r1, %a;") + kTo64, 0x8000000000000000ull).o, 62u);
  EXPECT_EQ(run1(std::string("bfind.shiftamt.u64 %r1, %a;") + kTo64, 1).o, 63u);
}

// bfe from the PTX pseudocode.
uint64_t bfe_ref(uint64_t a, uint64_t b, uint64_t c, unsigned w, bool is_signed) {
  const unsigned msb = w - 1, pos = b & 0xFF, len = c & 0xFF;
  const unsigned sbit = (!is_signed || len == 0) ? 0 : (a >> std::min(pos + len - 1, msb)) & 1;
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    const uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

TEST(BitSemantics, BfeExtractsWithZeroOrSignExtension) {
  std::vector<Inputs> in;
  for (uint64_t a :
       {0x12345678ull, 0xDEADBEEFull, 0x80000000ull, 0xFFFFFFFFFFFFFFFFull, 0x8123456789ABCDEFull})
    for (uint64_t pos : {0, 1, 4, 16, 28, 31, 32, 40, 63, 64, 255, 0x104})
      for (uint64_t len : {0, 1, 4, 8, 16, 31, 32, 33, 64, 255, 0x108}) in.push_back({a, pos, len});
  expect_lanes(
      "bfe.u32", std::string("bfe.u32 %r1, %ra, %rb, %rc;") + kTo64, in,
      [](uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(lo32(a), b, c, 32, false); });
  expect_lanes("bfe.s32", std::string("bfe.s32 %r1, %ra, %rb, %rc;") + kTo64, in,
               [](uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(lo32(a), b, c, 32, true); });
  expect_lanes("bfe.u64", "bfe.u64 %o, %a, %rb, %rc;", in,
               [](uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(a, b, c, 64, false); });
  expect_lanes("bfe.s64", "bfe.s64 %o, %a, %rb, %rc;", in,
               [](uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(a, b, c, 64, true); });
  const std::string u = std::string("bfe.u32 %r1, %ra, %rb, %rc;") + kTo64,
                    s = std::string("bfe.s32 %r1, %ra, %rb, %rc;") + kTo64;
  EXPECT_EQ(run1(u, 0xDEADBEEF, 8, 8).o, 0xBEu);
  EXPECT_EQ(run1(s, 0xDEADBEEF, 8, 8).o, 0xFFFFFFBEu);   // bit 15 set: sign-extended
  EXPECT_EQ(run1(s, 0xDEADBEEF, 0, 0).o, 0u);            // len 0 gives 0 even signed
  EXPECT_EQ(run1(u, 0xDEADBEEF, 28, 8).o, 0xDu);         // pos + len beyond the width
  EXPECT_EQ(run1(s, 0xDEADBEEF, 28, 8).o, 0xFFFFFFFDu);  // sign from bit 31
  EXPECT_EQ(run1(s, 0x80000000, 40, 4).o, 0xFFFFFFFFu);  // pos beyond the width: all sign bits
  EXPECT_EQ(run1(u, 0x80000000, 40, 4).o, 0u);
  EXPECT_EQ(run1(u, 0xDEADBEEF, 0x104, 0x104).o, 0xEu);  // only the low 8 bits of pos/len count
}

TEST(BitSemantics, BfiInsertsTheLowBitsOfA) {
  auto bfi = [](uint64_t a, uint64_t b, unsigned pos, unsigned len, unsigned w) {
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i <= w - 1; ++i)
      f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return f;
  };
  std::vector<Inputs> in;
  for (uint64_t a : {0xFFFFFFFFFFFFFFFFull, 0x5ull, 0xABCDEF0123456789ull})
    for (uint64_t b : {0x0ull, 0x1234567887654321ull})
      for (uint64_t pos : {0, 3, 16, 30, 31, 32, 60, 64, 0x102})
        for (uint64_t len : {0, 1, 4, 8, 32, 33, 64, 0x104})
          in.push_back({a, b, pos | (len << 32)});
  const std::string unpack = "mov.b64 {%r2, %r3}, %c;\n";
  expect_lanes("bfi.b32", unpack + "bfi.b32 %r1, %ra, %rb, %r2, %r3;" + kTo64, in,
               [&](uint64_t a, uint64_t b, uint64_t c) {
                 return bfi(lo32(a), lo32(b), c & 0xFF, (c >> 32) & 0xFF, 32);
               });
  expect_lanes("bfi.b64", unpack + "bfi.b64 %o, %a, %b, %r2, %r3;", in,
               [&](uint64_t a, uint64_t b, uint64_t c) {
                 return bfi(a, b, c & 0xFF, (c >> 32) & 0xFF, 64);
               });
  EXPECT_EQ(
      run1(unpack + "bfi.b32 %r1, %ra, %rb, %r2, %r3;" + kTo64, 0xF, 0x12345678, 8 | (4ull << 32))
          .o,
      0x12345F78u);
}

TEST(BitSemantics, Lop3AppliesTheLookupTable) {
  std::vector<Inputs> in;
  for (uint64_t a : {0x0ull, 0xFFFFFFFFull, 0xF0F0F0F0ull, 0x12345678ull})
    for (uint64_t b : {0x0ull, 0xFF00FF00ull, 0xDEADBEEFull})
      for (uint64_t c : {0x0ull, 0xCCCCCCCCull, 0x0BADF00Dull, 0xFFFFFFFFull})
        in.push_back({a, b, c});
  const std::vector<std::pair<unsigned, std::function<uint64_t(uint64_t, uint64_t, uint64_t)>>>
      luts = {
          {0x96, [](uint64_t a, uint64_t b, uint64_t c) { return a ^ b ^ c; }},
          {0xE8, [](uint64_t a, uint64_t b, uint64_t c) { return (a & b) | (a & c) | (b & c); }},
          {0xCA, [](uint64_t a, uint64_t b, uint64_t c) { return (a & b) | (~a & c); }},
          {0x80, [](uint64_t a, uint64_t b, uint64_t c) { return a & b & c; }},
          {0xFE, [](uint64_t a, uint64_t b, uint64_t c) { return a | b | c; }},
          {0xF0, [](uint64_t a, uint64_t, uint64_t) { return a; }},
          {0xCC, [](uint64_t, uint64_t b, uint64_t) { return b; }},
          {0xAA, [](uint64_t, uint64_t, uint64_t c) { return c; }},
          {0x00, [](uint64_t, uint64_t, uint64_t) { return uint64_t{0}; }},
          {0xFF, [](uint64_t, uint64_t, uint64_t) { return ~uint64_t{0}; }},
          {0x1E, [](uint64_t a, uint64_t b, uint64_t c) { return a ^ (b | c); }},
      };
  for (const auto& [lut, fn] : luts) {
    const auto& f = fn;  // C++17 lambdas cannot capture a structured binding (clang rejects it)
    expect_lanes("lop3 " + std::to_string(lut),
                 "lop3.b32 %r1, %ra, %rb, %rc, " + std::to_string(lut) + ";" + kTo64, in,
                 [&](uint64_t a, uint64_t b, uint64_t c) { return lo32(f(a, b, c)); });
  }
}

// shf from the PTX pseudocode; n in 0..32 (0 and 32 written out to avoid C++ shifts by 32).
uint64_t shf_ref(bool left, bool clamp, uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t n = clamp ? std::min<uint32_t>(c, 32) : c & 31;
  if (left) return n == 0 ? b : n == 32 ? a : static_cast<uint32_t>((b << n) | (a >> (32 - n)));
  return n == 0 ? a : n == 32 ? b : static_cast<uint32_t>((b << (32 - n)) | (a >> n));
}

TEST(BitSemantics, ShfFunnelShiftsWithWrapOrClamp) {
  std::vector<Inputs> in;
  for (uint64_t a : {0x89ABCDEFull, 0xFFFFFFFFull, 0x1ull})
    for (uint64_t b : {0x01234567ull, 0x80000000ull})
      for (uint64_t c : {0ull, 1ull, 4ull, 31ull, 32ull, 33ull, 36ull, 63ull, 64ull, 0xFFFFFFFFull})
        in.push_back({a, b, c});
  for (bool left : {true, false})
    for (bool clamp : {true, false}) {
      const std::string op =
          std::string("shf.") + (left ? "l" : "r") + (clamp ? ".clamp" : ".wrap") + ".b32";
      expect_lanes(op, op + " %r1, %ra, %rb, %rc;" + kTo64, in,
                   [=](uint64_t a, uint64_t b, uint64_t c) {
                     return shf_ref(left, clamp, uint32_t(a), uint32_t(b), uint32_t(c));
                   });
    }
  EXPECT_EQ(
      run1(std::string("shf.l.wrap.b32 %r1, %ra, %rb, %rc;") + kTo64, 0x89ABCDEF, 0x01234567, 36).o,
      0x12345678u);
  EXPECT_EQ(
      run1(std::string("shf.l.clamp.b32 %r1, %ra, %rb, %rc;") + kTo64, 0x89ABCDEF, 0x01234567, 36)
          .o,
      0x89ABCDEFu);
  EXPECT_EQ(
      run1(std::string("shf.r.clamp.b32 %r1, %ra, %rb, %rc;") + kTo64, 0x89ABCDEF, 0x01234567, 40)
          .o,
      0x01234567u);
  EXPECT_EQ(
      run1(std::string("shf.r.wrap.b32 %r1, %ra, %rb, %rc;") + kTo64, 0x89ABCDEF, 0x01234567, 8).o,
      0x6789ABCDu);
}

TEST(BitSemantics, PrmtSelectsBytesAndReplicatesSigns) {
  const std::string p = std::string("prmt.b32 %r1, %ra, %rb, %rc;") + kTo64;
  const uint64_t a = 0x44332211, b = 0x88776655;
  EXPECT_EQ(run1(p, a, b, 0x3210).o, 0x44332211u);
  EXPECT_EQ(run1(p, a, b, 0x7654).o, 0x88776655u);
  EXPECT_EQ(run1(p, a, b, 0x0123).o, 0x11223344u);
  EXPECT_EQ(run1(p, a, b, 0x4040).o, 0x55115511u);
  EXPECT_EQ(run1(p, a, b, 0xF8F8).o, 0xFF00FF00u);      // 8: sign of 0x11, F: sign of 0x88
  EXPECT_EQ(run1(p, a, b, 0xFFFF3210).o, 0x44332211u);  // selector bits above 15 are ignored
  EXPECT_EQ(run1(p, 0x00800000, 0, 0xAAAA).o, 0xFFFFFFFFu);
  // Grid against a byte-array reference.
  std::vector<Inputs> in;
  for (uint64_t sel : {0x3210ull, 0x7531ull, 0xB9A8ull, 0xFEDCull, 0x8E4Aull, 0x1F3Bull, 0xC0D6ull})
    for (uint64_t x : {0x807F01FFull, 0x12345678ull}) in.push_back({x, 0xF0E1D2C3ull, sel});
  expect_lanes("prmt", p, in, [](uint64_t x, uint64_t y, uint64_t sel) {
    uint8_t bytes[8];
    for (int i = 0; i < 4; ++i)
      bytes[i] = uint8_t(x >> (8 * i)), bytes[4 + i] = uint8_t(y >> (8 * i));
    uint64_t d = 0;
    for (int i = 0; i < 4; ++i) {
      const unsigned s = (sel >> (4 * i)) & 0xF;
      const uint8_t v = bytes[s & 7];
      d |= uint64_t((s & 8) ? (v >= 0x80 ? 0xFF : 0x00) : v) << (8 * i);
    }
    return d;
  });
}

}  // namespace
}  // namespace gputlm::test
