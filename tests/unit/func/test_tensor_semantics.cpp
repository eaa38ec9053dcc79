// mma.sync (PTX ISA 9.7.14.5): each test builds the host matrices, places each element in the
// lane and register the ISA's fragment-layout figures name (written out here per shape, in the
// ISA's own words: groupID = %laneid >> 2, threadID_in_group = %laneid % 4), runs one warp and
// checks every lane's destination registers against the host product, element by element.
// The values are small integers, so every format and every order of summation is exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>

#include "models/func/semantics/small_float.h"
#include "tensor_warp_harness.h"

namespace gputlm {
namespace {

using test::LaneWords;
using Coord = std::pair<unsigned, unsigned>;                     // (row, col)
using Layout = std::function<Coord(unsigned lane, unsigned i)>;  // element i of a lane's fragment
using Encode = std::function<uint64_t(int64_t)>;

unsigned g_of(unsigned lane) { return lane >> 2; }  // groupID
unsigned t_of(unsigned lane) { return lane % 4; }   // threadID_in_group

std::vector<int64_t> values(size_t n, uint32_t seed, int lo, int hi) {
  std::vector<int64_t> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = lo + static_cast<int>((seed >> 8) % static_cast<uint32_t>(hi - lo + 1));
  }
  return v;
}

// A fragment: `count` elements of `bits` bits from word `word` of each lane's words, element i
// at bit i * bits (element 0 in the low bits of the first register).
struct Frag {
  unsigned word, count, bits;
  Layout at;
  Encode enc;
};
void place(std::vector<LaneWords>& in, const Frag& f, const std::vector<int64_t>& m,
           unsigned cols) {
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < f.count; ++i) {
      const auto [r, c] = f.at(l, i);
      const uint64_t bits = f.enc(m[r * cols + c]);
      const unsigned bit = i * f.bits;
      if (f.bits == 64) {
        in[l][f.word + bit / 32] = static_cast<uint32_t>(bits);
        in[l][f.word + bit / 32 + 1] = static_cast<uint32_t>(bits >> 32);
      } else {
        in[l][f.word + bit / 32] |=
            static_cast<uint32_t>((bits & ((uint64_t{1} << f.bits) - 1)) << (bit % 32));
      }
    }
}
uint64_t read_out(const test::LaneResult& out, unsigned i, unsigned bits) {
  const unsigned bit = i * bits;
  if (bits == 64) return out[bit / 32] | uint64_t{out[bit / 32 + 1]} << 32;
  return (out[bit / 32] >> (bit % 32)) & ((uint64_t{1} << bits) - 1);
}

void expect_d(const std::vector<test::LaneResult>& out, unsigned n, unsigned k, const Frag& d,
              const std::vector<int64_t>& A, const std::vector<int64_t>& B,
              const std::vector<int64_t>& C, std::function<int64_t(int64_t, int64_t)> combine,
              bool saturate);

// Runs `body` with A, B, C placed by their fragments and checks D (the host's A x B + C, passed
// through `combine` for .b1, saturated for .satfinite) lane by lane through fragment `d`.
void check_mma(const std::string& body, unsigned m, unsigned n, unsigned k, const Frag& a,
               const Frag& b, const Frag& c, const Frag& d, const std::vector<int64_t>& A,
               const std::vector<int64_t>& B, const std::vector<int64_t>& C,
               std::function<int64_t(int64_t, int64_t)> combine = nullptr, bool saturate = false) {
  std::vector<LaneWords> in(32, LaneWords{});
  place(in, a, A, k);
  place(in, b, B, n);
  place(in, c, C, n);
  expect_d(test::run_tensor_warp(body, in), n, k, d, A, B, C, combine, saturate);
}

// Checks D lane by lane through fragment `d` against A x B + C (A: rows x k, B: k x n).
void expect_d(const std::vector<test::LaneResult>& out, unsigned n, unsigned k, const Frag& d,
              const std::vector<int64_t>& A, const std::vector<int64_t>& B,
              const std::vector<int64_t>& C, std::function<int64_t(int64_t, int64_t)> combine,
              bool saturate) {
  int bad = 0;
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < d.count; ++i) {
      const auto [r, col] = d.at(l, i);
      int64_t want = C[r * n + col];
      for (unsigned x = 0; x < k; ++x)
        want += combine ? combine(A[r * k + x], B[x * n + col]) : A[r * k + x] * B[x * n + col];
      if (saturate)
        want = std::clamp<int64_t>(want, std::numeric_limits<int32_t>::min(),
                                   std::numeric_limits<int32_t>::max());
      const uint64_t want_bits =
          d.enc(want) & (d.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << d.bits) - 1);
      const uint64_t got = read_out(out[l], i, d.bits);
      if (got != want_bits && ++bad <= 6)
        ADD_FAILURE() << "lane " << l << " d" << i << " (row " << r << ", col " << col
                      << "): got 0x" << std::hex << got << " want 0x" << want_bits;
    }
  EXPECT_EQ(bad, 0);
}

const Encode kF16 = [](int64_t x) { return func::sem::to_f16(static_cast<double>(x)); };
const Encode kBF16 = [](int64_t x) { return func::sem::to_bf16(static_cast<double>(x)); };
const Encode kF32 = [](int64_t x) { return test::f32_bits(static_cast<float>(x)); };
const Encode kF64 = [](int64_t x) { return test::f64_bits(static_cast<double>(x)); };
const Encode kInt = [](int64_t x) { return static_cast<uint64_t>(x); };

// C/D of the m16n8 shapes (9.7.14.5.7-.12, "fragment layout for accumulator matrix C/D"):
// row = groupID for c0, c1 and groupID + 8 for c2, c3; col = threadID_in_group * 2 + (i & 0x1).
Coord c_m16n8(unsigned l, unsigned i) { return {g_of(l) + (i < 2 ? 0 : 8), t_of(l) * 2 + (i & 1)}; }
// C/D of the m8n8 shapes (9.7.14.5.4-.6 and .1 for .f64): row = groupID, col = threadID_in_group *
// 2 + i.
Coord c_m8n8(unsigned l, unsigned i) { return {g_of(l), t_of(l) * 2 + i}; }

// 9.7.14.5.8, m16n8k16 with .f16: A: row = groupID for a0, a1, a4, a5, groupID + 8 for a2, a3,
// a6, a7; col = threadID_in_group * 2 + (i & 0x1) for a0..a3, + 8 for a4..a7. B: row =
// threadID_in_group * 2 + (i & 0x1) for b0, b1, + 8 for b2, b3; col = groupID.
Coord a_m16n8k16_f16(unsigned l, unsigned i) {
  const bool low = i < 2 || (i >= 4 && i < 6);
  return {g_of(l) + (low ? 0 : 8), t_of(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
}
Coord b_m16n8k16_f16(unsigned l, unsigned i) {
  return {t_of(l) * 2 + (i & 1) + (i >= 2 ? 8 : 0), g_of(l)};
}

TEST(TensorSemantics, MmaM16n8k16F16FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 16, 1, -3, 3), B = values(16 * 8, 2, -3, 3),
             C = values(16 * 8, 3, -40, 40);
  check_mma(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1, %r2, "
      "%r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 16, {0, 8, 16, a_m16n8k16_f16, kF16}, {4, 4, 16, b_m16n8k16_f16, kF16},
      {8, 4, 32, c_m16n8, kF32}, {32, 4, 32, c_m16n8, kF32}, A, B, C);
}

TEST(TensorSemantics, MmaM16n8k16WithF16AccumulatorPacksTwoElementsPerRegister) {
  const auto A = values(16 * 16, 4, -3, 3), B = values(16 * 8, 5, -3, 3),
             C = values(16 * 8, 6, -40, 40);
  check_mma(
      "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r32, %r33}, {%r0, %r1, %r2, %r3}, {%r4, "
      "%r5}, {%r8, %r9};",
      16, 8, 16, {0, 8, 16, a_m16n8k16_f16, kF16}, {4, 4, 16, b_m16n8k16_f16, kF16},
      {8, 4, 16, c_m16n8, kF16}, {32, 4, 16, c_m16n8, kF16}, A, B, C);
}

TEST(TensorSemantics, MmaM16n8k16Bf16FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 16, 7, -3, 3), B = values(16 * 8, 8, -3, 3),
             C = values(16 * 8, 9, -40, 40);
  check_mma(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1, "
      "%r2, %r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 16, {0, 8, 16, a_m16n8k16_f16, kBF16}, {4, 4, 16, b_m16n8k16_f16, kBF16},
      {8, 4, 32, c_m16n8, kF32}, {32, 4, 32, c_m16n8, kF32}, A, B, C);
}

// 9.7.14.5.1, m8n8k4 with .f16: four products, product q by lanes 4q..4q+3 (low group) and
// 4q+16..4q+19 (high group); with t = %laneid % 4 and h = 0 for the low group, 4 for the high:
// A row-major (t + h, i), column-major (i % 4 + h, t); B row-major (t, i + h), column-major
// (i, t + h); C/D .f16 (t + h, i); C/D .f32 ((%laneid & 0b1) + (i & 0b10) + h, (i & 0b100) +
// (%laneid & 0b10) + (i & 0b1)). check_mma sees the four as one block-diagonal product: A_q at
// rows 8q.., columns 4q.. of a 32x16 A; B_q at rows 4q.. of a 16x8 B; C_q, D_q at rows 8q.. of
// 32x8.
unsigned q_of(unsigned l) { return (l & 15) / 4; }
unsigned h_of(unsigned l) { return l >= 16 ? 4 : 0; }
Layout a_m8n8k4(bool col) {
  return [col](unsigned l, unsigned i) {
    const Coord x = col ? Coord{i % 4 + h_of(l), t_of(l)} : Coord{t_of(l) + h_of(l), i};
    return Coord{8 * q_of(l) + x.first, 4 * q_of(l) + x.second};
  };
}
Layout b_m8n8k4(bool col) {
  return [col](unsigned l, unsigned i) {
    const Coord x = col ? Coord{i, t_of(l) + h_of(l)} : Coord{t_of(l), i + h_of(l)};
    return Coord{4 * q_of(l) + x.first, x.second};
  };
}
Coord c_m8n8k4_f16(unsigned l, unsigned i) { return {8 * q_of(l) + t_of(l) + h_of(l), i}; }
Coord c_m8n8k4_f32(unsigned l, unsigned i) {
  return {8 * q_of(l) + (l & 1) + (i & 2) + h_of(l), (i & 4) + (l & 2) + (i & 1)};
}
// Block-diagonal operands: zero outside the four products' blocks.
std::vector<int64_t> blocks(std::vector<int64_t> m, unsigned cols, unsigned block_rows,
                            unsigned block_cols) {
  for (unsigned r = 0; r < m.size() / cols; ++r)
    for (unsigned c = 0; c < cols; ++c)
      if (block_cols < cols && r / block_rows != c / block_cols) m[r * cols + c] = 0;
  return m;
}

TEST(TensorSemantics, MmaM8n8k4F16ComputesFourQuadPairProductsRowColIntoF32) {
  const auto A = blocks(values(32 * 16, 40, -3, 3), 16, 8, 4), B = values(16 * 8, 41, -3, 3),
             C = values(32 * 8, 42, -40, 40);
  check_mma(
      "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, %r35, %r36, %r37, %r38, "
      "%r39}, {%r0, %r1}, {%r2, %r3}, "
      "{%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15};",
      32, 8, 16, {0, 4, 16, a_m8n8k4(false), kF16}, {2, 4, 16, b_m8n8k4(true), kF16},
      {8, 8, 32, c_m8n8k4_f32, kF32}, {32, 8, 32, c_m8n8k4_f32, kF32}, A, B, C);
}

TEST(TensorSemantics, MmaM8n8k4F16ComputesFourQuadPairProductsColRowIntoF16) {
  const auto A = blocks(values(32 * 16, 43, -3, 3), 16, 8, 4), B = values(16 * 8, 44, -3, 3),
             C = values(32 * 8, 45, -40, 40);
  check_mma(
      "mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%r32, %r33, %r34, %r35}, {%r0, %r1}, {%r2, "
      "%r3}, {%r8, %r9, %r10, %r11};",
      32, 8, 16, {0, 4, 16, a_m8n8k4(true), kF16}, {2, 4, 16, b_m8n8k4(false), kF16},
      {8, 8, 16, c_m8n8k4_f16, kF16}, {32, 8, 16, c_m8n8k4_f16, kF16}, A, B, C);
}

TEST(TensorSemantics, MmaM8n8k4F16TakesF16AccumulatorsIntoF32Results) {
  const auto A = blocks(values(32 * 16, 46, -3, 3), 16, 8, 4), B = values(16 * 8, 47, -3, 3),
             C = values(32 * 8, 48, -40, 40);
  check_mma(
      "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f16 {%r32, %r33, %r34, %r35, %r36, %r37, %r38, "
      "%r39}, {%r0, %r1}, {%r2, %r3}, "
      "{%r8, %r9, %r10, %r11};",
      32, 8, 16, {0, 4, 16, a_m8n8k4(false), kF16}, {2, 4, 16, b_m8n8k4(false), kF16},
      {8, 8, 16, c_m8n8k4_f16, kF16}, {32, 8, 32, c_m8n8k4_f32, kF32}, A, B, C);
}

// 9.7.14.5.7, m16n8k8 with .f16/.bf16: A: row = groupID for a0, a1, groupID + 8 for a2, a3;
// col = threadID_in_group * 2 + (i & 0x1). B: row = threadID_in_group * 2 + i, col = groupID.
TEST(TensorSemantics, MmaM16n8k8F16FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 8, 10, -3, 3), B = values(8 * 8, 11, -3, 3),
             C = values(16 * 8, 12, -40, 40);
  auto a = [](unsigned l, unsigned i) {
    return Coord{g_of(l) + (i < 2 ? 0 : 8), t_of(l) * 2 + (i & 1)};
  };
  auto b = [](unsigned l, unsigned i) { return Coord{t_of(l) * 2 + i, g_of(l)}; };
  check_mma(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1}, "
      "{%r4}, {%r8, %r9, %r10, %r11};",
      16, 8, 8, {0, 4, 16, a, kF16}, {4, 2, 16, b, kF16}, {8, 4, 32, c_m16n8, kF32},
      {32, 4, 32, c_m16n8, kF32}, A, B, C);
}

// 9.7.14.5.7, m16n8k8 with .tf32: A: row = groupID for a0, a2, groupID + 8 for a1, a3; col =
// threadID_in_group for a0, a1, threadID_in_group + 4 for a2, a3. B: row = threadID_in_group for
// b0, + 4 for b1; col = groupID. The inputs carry noise in the 13 low bits that .tf32 ignores.
TEST(TensorSemantics, MmaM16n8k8Tf32FragmentsFollowTheIsaLaneLayoutAndIgnoreTheLowBits) {
  const auto A = values(16 * 8, 13, -5, 5), B = values(8 * 8, 14, -5, 5),
             C = values(16 * 8, 15, -40, 40);
  auto a = [](unsigned l, unsigned i) {
    return Coord{g_of(l) + (i % 2 ? 8 : 0), t_of(l) + (i >= 2 ? 4 : 0)};
  };
  auto b = [](unsigned l, unsigned i) { return Coord{t_of(l) + 4 * i, g_of(l)}; };
  const Encode tf32 = [](int64_t x) {
    return test::f32_bits(static_cast<float>(x)) | (x ? 0x1FFFu : 0u);
  };
  check_mma(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1, "
      "%r2, %r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 8, {0, 4, 32, a, tf32}, {4, 2, 32, b, tf32}, {8, 4, 32, c_m16n8, kF32},
      {32, 4, 32, c_m16n8, kF32}, A, B, C);
}

// 9.7.14.5.6, m16n8k4 with .tf32: A: row = groupID for a0, groupID + 8 for a1; col =
// threadID_in_group. B: row = threadID_in_group, col = groupID.
TEST(TensorSemantics, MmaM16n8k4Tf32FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 4, 16, -5, 5), B = values(4 * 8, 17, -5, 5),
             C = values(16 * 8, 18, -40, 40);
  auto a = [](unsigned l, unsigned i) { return Coord{g_of(l) + 8 * i, t_of(l)}; };
  auto b = [](unsigned l, unsigned) { return Coord{t_of(l), g_of(l)}; };
  check_mma(
      "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1}, "
      "{%r4}, {%r8, %r9, %r10, %r11};",
      16, 8, 4, {0, 2, 32, a, kF32}, {4, 1, 32, b, kF32}, {8, 4, 32, c_m16n8, kF32},
      {32, 4, 32, c_m16n8, kF32}, A, B, C);
}

// 9.7.14.5.9, m16n8k32 with .s8/.u8: A: row = groupID for a0..a3 and a8..a11, groupID + 8 for
// a4..a7 and a12..a15; col = threadID_in_group * 4 + (i & 0x3) for a0..a7, + 16 for a8..a15.
// B: row = threadID_in_group * 4 + (i & 0x3) for b0..b3, + 16 for b4..b7; col = groupID.
Coord a_m16n8k32(unsigned l, unsigned i) {
  const bool low = i < 4 || (i >= 8 && i < 12);
  return Coord{g_of(l) + (low ? 0 : 8), t_of(l) * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
}
Coord b_m16n8k32(unsigned l, unsigned i) {
  return Coord{t_of(l) * 4 + (i & 3) + (i >= 4 ? 16 : 0), g_of(l)};
}

TEST(TensorSemantics, MmaM16n8k32S8U8FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 32, 19, -128, 127), B = values(32 * 8, 20, 0, 255),
             C = values(16 * 8, 21, -100000, 100000);
  check_mma(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 {%r32, %r33, %r34, %r35}, {%r0, %r1, %r2, "
      "%r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 32, {0, 16, 8, a_m16n8k32, kInt}, {4, 8, 8, b_m16n8k32, kInt},
      {8, 4, 32, c_m16n8, kInt}, {32, 4, 32, c_m16n8, kInt}, A, B, C);
}

// m16n8k32 with .e4m3/.e5m2 (sm_89): the .s8 fragment layout (9.7.14.5.9), each byte an fp8 value;
// small integers are exact in both formats, so the products and sums are exact in .f32.
TEST(TensorSemantics, MmaM16n8k32Fp8FragmentsFollowTheS8LayoutAndAccumulateIntoF32) {
  const auto A = values(16 * 32, 24, -3, 3), B = values(32 * 8, 25, -3, 3),
             C = values(16 * 8, 26, -40, 40);
  const Encode e4m3 = [](int64_t x) {
    return uint64_t{func::sem::to_e4m3(static_cast<double>(x))};
  };
  const Encode e5m2 = [](int64_t x) {
    return uint64_t{func::sem::to_e5m2(static_cast<double>(x))};
  };
  check_mma(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1, "
      "%r2, %r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 32, {0, 16, 8, a_m16n8k32, e4m3}, {4, 8, 8, b_m16n8k32, e5m2},
      {8, 4, 32, c_m16n8, kF32}, {32, 4, 32, c_m16n8, kF32}, A, B, C);
}

// 9.7.14.5.4, m8n8k16 with .s8: A: row = groupID, col = threadID_in_group * 4 + i. B: row =
// threadID_in_group * 4 + i, col = groupID. With .satfinite the s32 result clamps.
TEST(TensorSemantics, MmaM8n8k16S8SatfiniteClampsToTheS32Range) {
  auto A = values(8 * 16, 22, 100, 127), B = values(16 * 8, 23, 100, 127);
  std::vector<int64_t> C(64);
  for (size_t i = 0; i < C.size(); ++i) C[i] = i % 2 ? std::numeric_limits<int32_t>::max() - 5 : -7;
  auto a = [](unsigned l, unsigned i) { return Coord{g_of(l), t_of(l) * 4 + i}; };
  auto b = [](unsigned l, unsigned i) { return Coord{t_of(l) * 4 + i, g_of(l)}; };
  check_mma(
      "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32 {%r32, %r33}, {%r0}, {%r4}, {%r8, "
      "%r9};",
      8, 8, 16, {0, 4, 8, a, kInt}, {4, 4, 8, b, kInt}, {8, 2, 32, c_m8n8, kInt},
      {32, 2, 32, c_m8n8, kInt}, A, B, C, nullptr, true);
}

// 9.7.14.5.11, m16n8k64 with .s4/.u4: A: row = groupID for a0..a7 and a16..a23, groupID + 8 for
// a8..a15 and a24..a31; col = threadID_in_group * 8 + (i & 0x7) for a0..a15, + 32 for a16..a31.
// B: row = threadID_in_group * 8 + (i & 0x7) for b0..b7, + 32 for b8..b15; col = groupID.
TEST(TensorSemantics, MmaM16n8k64S4FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 64, 24, -8, 7), B = values(64 * 8, 25, -8, 7),
             C = values(16 * 8, 26, -1000, 1000);
  auto a = [](unsigned l, unsigned i) {
    const bool low = i < 8 || (i >= 16 && i < 24);
    return Coord{g_of(l) + (low ? 0 : 8), t_of(l) * 8 + (i & 7) + (i >= 16 ? 32 : 0)};
  };
  auto b = [](unsigned l, unsigned i) {
    return Coord{t_of(l) * 8 + (i & 7) + (i >= 8 ? 32 : 0), g_of(l)};
  };
  check_mma(
      "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r32, %r33, %r34, %r35}, {%r0, %r1, %r2, "
      "%r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 64, {0, 32, 4, a, kInt}, {4, 16, 4, b, kInt}, {8, 4, 32, c_m16n8, kInt},
      {32, 4, 32, c_m16n8, kInt}, A, B, C);
}

// 9.7.14.5.5, m8n8k32 with .u4: A: row = groupID, col = threadID_in_group * 8 + i; B: row =
// threadID_in_group * 8 + i, col = groupID.
TEST(TensorSemantics, MmaM8n8k32U4FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(8 * 32, 27, 0, 15), B = values(32 * 8, 28, 0, 15),
             C = values(64, 29, -1000, 1000);
  auto a = [](unsigned l, unsigned i) { return Coord{g_of(l), t_of(l) * 8 + i}; };
  auto b = [](unsigned l, unsigned i) { return Coord{t_of(l) * 8 + i, g_of(l)}; };
  check_mma(
      "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32 {%r32, %r33}, {%r0}, {%r4}, {%r8, %r9};", 8,
      8, 32, {0, 8, 4, a, kInt}, {4, 8, 4, b, kInt}, {8, 2, 32, c_m8n8, kInt},
      {32, 2, 32, c_m8n8, kInt}, A, B, C);
}

// 9.7.14.5.12, m16n8k256 with .b1: A: row = groupID for a0..a31 and a64..a95, groupID + 8 for
// a32..a63 and a96..a127; col = threadID_in_group * 32 + (i & 0x1F), + 128 for a64..a127. B:
// row = threadID_in_group * 32 + (i & 0x1F), + 128 for b32..b63; col = groupID. D = C + the
// population count of (A row XOR B column) (9.7.14.5.14: .xor.popc).
TEST(TensorSemantics, MmaM16n8k256B1XorPopcFragmentsFollowTheIsaLaneLayout) {
  const auto A = values(16 * 256, 30, 0, 1), B = values(256 * 8, 31, 0, 1),
             C = values(16 * 8, 32, -50, 50);
  auto a = [](unsigned l, unsigned i) {
    const bool low = i < 32 || (i >= 64 && i < 96);
    return Coord{g_of(l) + (low ? 0 : 8), t_of(l) * 32 + (i & 31) + (i >= 64 ? 128 : 0)};
  };
  auto b = [](unsigned l, unsigned i) {
    return Coord{t_of(l) * 32 + (i & 31) + (i >= 32 ? 128 : 0), g_of(l)};
  };
  check_mma(
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%r32, %r33, %r34, %r35}, {%r0, "
      "%r1, %r2, %r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      16, 8, 256, {0, 128, 1, a, kInt}, {4, 64, 1, b, kInt}, {8, 4, 32, c_m16n8, kInt},
      {32, 4, 32, c_m16n8, kInt}, A, B, C, [](int64_t x, int64_t y) { return x ^ y; });
}

// 9.7.14.5.6, m8n8k128 with .b1 and .and.popc: A: row = groupID, col = threadID_in_group * 32 + i.
TEST(TensorSemantics, MmaM8n8k128B1AndPopcCountsCommonBits) {
  const auto A = values(8 * 128, 33, 0, 1), B = values(128 * 8, 34, 0, 1),
             C = values(64, 35, -50, 50);
  auto a = [](unsigned l, unsigned i) { return Coord{g_of(l), t_of(l) * 32 + i}; };
  auto b = [](unsigned l, unsigned i) { return Coord{t_of(l) * 32 + i, g_of(l)}; };
  check_mma(
      "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {%r32, %r33}, {%r0}, {%r4}, {%r8, "
      "%r9};",
      8, 8, 128, {0, 32, 1, a, kInt}, {4, 32, 1, b, kInt}, {8, 2, 32, c_m8n8, kInt},
      {32, 2, 32, c_m8n8, kInt}, A, B, C, [](int64_t x, int64_t y) { return x & y; });
}

// 9.7.14.5.1, m8n8k4 with .f64: A: row = groupID, col = threadID_in_group; B: row =
// threadID_in_group, col = groupID; C/D: row = groupID, col = threadID_in_group * 2 + i.
TEST(TensorSemantics, MmaM8n8k4F64FragmentsFollowTheIsaLaneLayout) {
  const auto A = values(8 * 4, 36, -9, 9), B = values(4 * 8, 37, -9, 9),
             C = values(64, 38, -100, 100);
  auto a = [](unsigned l, unsigned) { return Coord{g_of(l), t_of(l)}; };
  auto b = [](unsigned l, unsigned) { return Coord{t_of(l), g_of(l)}; };
  check_mma(R"(mov.b64 %fd0, {%r0, %r1};
  mov.b64 %fd1, {%r4, %r5};
  mov.b64 %fd2, {%r8, %r9};
  mov.b64 %fd3, {%r10, %r11};
  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd4, %fd5}, {%fd0}, {%fd1}, {%fd2, %fd3};
  mov.b64 {%r32, %r33}, %fd4;
  mov.b64 {%r34, %r35}, %fd5;)",
            8, 8, 4, {0, 1, 64, a, kF64}, {4, 1, 64, b, kF64}, {8, 2, 64, c_m8n8, kF64},
            {32, 2, 64, c_m8n8, kF64}, A, B, C);
}

// mma.sp (PTX ISA 9.7.14.6). A dense 16 x K A with, per chunk of each row, the kept positions;
// packed: the kept elements in order, 16 x K/2, placed as the ISA's sparse A formulas say
// (9.7.14.6.2.x); metadata: per chunk a nibble, the first kept position in its low two bits
// (9.7.14.6.1: 0b0100 keeps 0 and 1), for .tf32 (1:2) 0b0100 or 0b1110 for element 0 or 1 of a
// pair. The holders of a quad (h = 1, 2 or 4 by shape; `sel` the selector) each hold 4 chunks:
// row groupID's in bits 0-15, row groupID + 8's in bits 16-31, the lower thread the lower columns
// (the reading sparse_mma_ops.cpp states; the ISA draws it in figures 119-139 only).
struct Sparse {
  std::vector<int64_t> dense, packed;
  std::vector<unsigned> nibble;  // per row and chunk
  unsigned chunks = 0;
};
// `width` positions per chunk (4; 2 for .tf32), `keep` kept (2; 1 for .tf32), a position being
// `epu` elements (2 for .u4/.s4: their 4:8 sparsity keeps pairs); `reversed`: the second kept
// position first (.sp allows it, ::ordered_metadata does not).
Sparse sparse_a(unsigned k, unsigned width, unsigned keep, uint32_t seed, int lo, int hi,
                bool reversed = false, unsigned epu = 1) {
  Sparse s;
  s.chunks = k / width / epu;
  s.dense.assign(16 * k, 0);
  const auto v = values(16 * k / 2, seed, lo, hi);
  static constexpr unsigned kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned ch = 0; ch < s.chunks; ++ch) {
      const unsigned pick = (r * 7 + ch * 3 + seed) % (keep == 2 ? 6 : 2);
      unsigned pos[2] = {keep == 2 ? kPairs[pick][0] : pick, keep == 2 ? kPairs[pick][1] : 0};
      if (reversed && keep == 2) std::swap(pos[0], pos[1]);
      for (unsigned j = 0; j < keep; ++j)
        for (unsigned e = 0; e < epu; ++e) {
          const int64_t x = v[((r * s.chunks + ch) * keep + j) * epu + e];
          s.dense[r * k + (ch * width + pos[j]) * epu + e] = x;
          s.packed.push_back(x);
        }
      s.nibble.push_back(keep == 2 ? pos[0] | pos[1] << 2 : (pos[0] ? 0b1110 : 0b0100));
    }
  return s;
}
// The metadata word of each lane in word 12 of its inputs.
void place_metadata(std::vector<LaneWords>& in, const Sparse& s, unsigned holders, unsigned sel) {
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned q = t_of(l), g = g_of(l);
    if (q < sel * holders || q >= (sel + 1) * holders) continue;
    const unsigned j = q - sel * holders;
    for (unsigned c = 0; c < 4; ++c) {
      in[l][12] |= s.nibble[g * s.chunks + 4 * j + c] << (4 * c);
      in[l][12] |= s.nibble[(g + 8) * s.chunks + 4 * j + c] << (16 + 4 * c);
    }
  }
}
std::vector<test::LaneResult> run_sparse(const std::string& body, unsigned k, const Sparse& s,
                                         unsigned holders, unsigned sel, const Frag& a,
                                         const Frag& b, const Frag& c,
                                         const std::vector<int64_t>& B,
                                         const std::vector<int64_t>& C) {
  std::vector<LaneWords> in(32, LaneWords{});
  place(in, a, s.packed, k / 2);
  place(in, b, B, 8);
  place(in, c, C, 8);
  place_metadata(in, s, holders, sel);
  return test::run_tensor_warp(body, in);
}

// 9.7.14.6.2.1, sparse m16n8k16 .f16: A row = groupID for a0, a1, groupID + 8 for a2, a3; columns
// threadID_in_group * 4 .. + 3 (packed: threadID_in_group * 2 + (i & 1)); B, C, D as dense
// m16n8k16.
TEST(SparseMmaSemantics, M16n8k16F16WithSelector1TakesTheMetadataOfThread1OfEachQuad) {
  const Sparse s = sparse_a(16, 4, 2, 40, -3, 3);
  const auto B = values(16 * 8, 41, -3, 3), C = values(16 * 8, 42, -40, 40);
  auto a = [](unsigned l, unsigned i) {
    return Coord{g_of(l) + (i >= 2 ? 8 : 0), t_of(l) * 2 + (i & 1)};
  };
  const Frag d{32, 4, 32, c_m16n8, kF32};
  expect_d(run_sparse("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, "
                      "%r35}, {%r0, %r1}, {%r4, %r5}, "
                      "{%r8, %r9, %r10, %r11}, %r12, 1;",
                      16, s, 1, 1, {0, 4, 16, a, kF16}, {4, 4, 16, b_m16n8k16_f16, kF16},
                      {8, 4, 32, c_m16n8, kF32}, B, C),
           8, 16, d, s.dense, B, C, nullptr, false);
}

// 9.7.14.6.2.2, sparse m16n8k32 .bf16: A row = groupID for a0, a1, a4, a5, else groupID + 8;
// columns threadID_in_group * 4 (+ 16 for a4..a7); B b0..b7: rows threadID_in_group * 2 + (i & 1)
// + 8 * (i / 2); selector 1: threads 2 and 3 of each quad.
TEST(SparseMmaSemantics, M16n8k32Bf16WithSelector1TakesTheMetadataOfThreads2And3) {
  const Sparse s = sparse_a(32, 4, 2, 43, -3, 3);
  const auto B = values(32 * 8, 44, -3, 3), C = values(16 * 8, 45, -40, 40);
  auto a = [](unsigned l, unsigned i) {
    const bool low = i < 2 || (i >= 4 && i < 6);
    return Coord{g_of(l) + (low ? 0 : 8), t_of(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  };
  auto b = [](unsigned l, unsigned i) {
    return Coord{t_of(l) * 2 + (i & 1) + 8 * (i / 2), g_of(l)};
  };
  const Frag d{32, 4, 32, c_m16n8, kF32};
  expect_d(
      run_sparse("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%r32, "
                 "%r33, %r34, %r35}, "
                 "{%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11}, %r12, 1;",
                 32, s, 2, 1, {0, 8, 16, a, kBF16}, {4, 8, 16, b, kBF16}, {8, 4, 32, c_m16n8, kF32},
                 B, C),
      8, 32, d, s.dense, B, C, nullptr, false);
}

// 9.7.14.6.2.4, sparse m16n8k8 .tf32 (1:2): A a0 row groupID, a1 groupID + 8, columns
// threadID_in_group * 2 .. + 1 (packed: threadID_in_group); B as dense m16n8k8 .tf32.
TEST(SparseMmaSemantics, M16n8k8Tf32KeepsOneOfEachPair) {
  const Sparse s = sparse_a(8, 2, 1, 46, -5, 5);
  const auto B = values(8 * 8, 47, -5, 5), C = values(16 * 8, 48, -40, 40);
  auto a = [](unsigned l, unsigned i) { return Coord{g_of(l) + 8 * i, t_of(l)}; };
  auto b = [](unsigned l, unsigned i) { return Coord{t_of(l) + 4 * i, g_of(l)}; };
  const Frag d{32, 4, 32, c_m16n8, kF32};
  expect_d(run_sparse("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%r32, %r33, %r34, "
                      "%r35}, {%r0, %r1}, {%r4, %r5}, "
                      "{%r8, %r9, %r10, %r11}, %r12, 2;",
                      8, s, 1, 2, {0, 2, 32, a, kF32}, {4, 2, 32, b, kF32},
                      {8, 4, 32, c_m16n8, kF32}, B, C),
           8, 8, d, s.dense, B, C, nullptr, false);
}

// 9.7.14.6.2.6, sparse m16n8k64 .s8/.u8: A row = groupID for a0..a3 and a8..a11, else groupID + 8;
// columns threadID_in_group * 8 (+ 32 for a8..a15); B as dense m16n8k32 extended to 64 rows;
// all four threads of a quad hold metadata (selector 0). .sp takes the positions in either order.
TEST(SparseMmaSemantics, M16n8k64S8TakesTheMetadataOfAllFourThreadsInEitherOrder) {
  const Sparse s = sparse_a(64, 4, 2, 49, -128, 127, true);
  const auto B = values(64 * 8, 50, 0, 255), C = values(16 * 8, 51, -100000, 100000);
  auto a = [](unsigned l, unsigned i) {
    const bool low = i < 4 || (i >= 8 && i < 12);
    return Coord{g_of(l) + (low ? 0 : 8), t_of(l) * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  };
  auto b = [](unsigned l, unsigned i) {
    return Coord{t_of(l) * 4 + (i & 3) + 16 * (i / 4), g_of(l)};
  };
  const Frag d{32, 4, 32, c_m16n8, kInt};
  expect_d(
      run_sparse(
          "mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.u8.s32 {%r32, %r33, %r34, %r35}, "
          "{%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11}, %r12, 0;",
          64, s, 4, 0, {0, 16, 8, a, kInt}, {4, 16, 8, b, kInt}, {8, 4, 32, c_m16n8, kInt}, B, C),
      8, 64, d, s.dense, B, C, nullptr, true);
}

// 9.7.14.6.2.7, sparse m16n8k64 .u4/.s4 (pair-wise 4:8): A row = groupID for a0..a7, else
// groupID + 8, columns threadID_in_group * 16 .. + 15 (packed: threadID_in_group * 8 + i % 8); B as
// dense m16n8k64 .s4; a thread pair of each quad holds the metadata (selector 1: threads 2, 3).
TEST(SparseMmaSemantics, M16n8k64U4KeepsPairsOfElements) {
  const Sparse s = sparse_a(64, 4, 2, 52, 0, 15, false, 2);
  const auto B = values(64 * 8, 53, -8, 7), C = values(16 * 8, 54, -1000, 1000);
  auto a = [](unsigned l, unsigned i) {
    return Coord{g_of(l) + (i >= 8 ? 8 : 0), t_of(l) * 8 + (i & 7)};
  };
  auto b = [](unsigned l, unsigned i) {
    return Coord{t_of(l) * 8 + (i & 7) + (i >= 8 ? 32 : 0), g_of(l)};
  };
  const Frag d{32, 4, 32, c_m16n8, kInt};
  expect_d(run_sparse("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32 {%r32, "
                      "%r33, %r34, %r35}, "
                      "{%r0, %r1}, {%r4, %r5}, {%r8, %r9, %r10, %r11}, %r12, 1;",
                      64, s, 2, 1, {0, 16, 4, a, kInt}, {4, 16, 4, b, kInt},
                      {8, 4, 32, c_m16n8, kInt}, B, C),
           8, 64, d, s.dense, B, C, nullptr, false);
}

TEST(SparseMmaSemantics, MetadataTheIsaLeavesUndefinedIsAFaultAndBadFormsAreRefused) {
  const std::string f16 =
      "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1}, "
      "{%r4, %r5}, "
      "{%r8, %r9, %r10, %r11}, %r12, 0;";
  std::vector<LaneWords> in(32, LaneWords{});
  for (auto& w : in) w[12] = 0x44444444u;
  EXPECT_NO_THROW(test::run_tensor_warp(f16, in));
  in[4][12] = 0x44454444u;  // lane 4 (row 1): chunk 0 of row 9 names position 1 twice
  try {
    test::run_tensor_warp(f16, in);
    ADD_FAILURE() << "ran";
  } catch (const func::KernelFault& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "mma.sp metadata 0x5 (lane 4, bits 19..16, row 9) names one position twice"),
              std::string::npos)
        << e.what();
  }
  in[4][12] = 0x44414444u;  // positions 1 then 0: .sp takes it, ::ordered_metadata does not
  EXPECT_NO_THROW(test::run_tensor_warp(f16, in));
  std::string ordered = f16;
  ordered.replace(ordered.find(".sp."), 4, ".sp::ordered_metadata.");
  EXPECT_THROW(test::run_tensor_warp(ordered, in), func::KernelFault);
  // m16n8k32 has two holders a quad: selector 0 or 1 (9.7.14.6.1); d and c types must match.
  EXPECT_ANY_THROW(test::run_tensor_warp(
      "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, %r35}, "
      "{%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11}, %r12, 2;",
      in));
  EXPECT_ANY_THROW(test::run_tensor_warp(
      "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%r32, %r33, %r34, %r35}, "
      "{%r0, %r1}, {%r4, %r5}, {%r8, %r9}, %r12, 0;",
      in));
  EXPECT_ANY_THROW(test::run_tensor_warp(
      "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, %r35}, "
      "{%r0, %r1}, {%r4, %r5}, {%r8, %r9, %r10, %r11}, %r12;",
      in));  // no selector
}

TEST(TensorSemantics, MmaFormsTheIsaDoesNotDefineAreRefusedAtBindTime) {
  std::vector<LaneWords> in(32, LaneWords{});
  // m16n8k16 .f16 takes four A registers, not two.
  EXPECT_ANY_THROW(
      test::run_tensor_warp("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r32, %r33, %r34, "
                            "%r35}, {%r0, %r1}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
                            in));
  // .tf32 has no m16n8k16 shape; integer mma needs .row.col.
  EXPECT_ANY_THROW(test::run_tensor_warp(
      "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%r32, %r33, %r34, %r35}, {%r0, %r1, "
      "%r2, %r3}, {%r4, %r5}, {%r8, %r9, %r10, %r11};",
      in));
  EXPECT_ANY_THROW(test::run_tensor_warp(
      "mma.sync.aligned.m8n8k16.col.row.s32.s8.s8.s32 {%r32, %r33}, {%r0}, {%r4}, {%r8, %r9};",
      in));
}

}  // namespace
}  // namespace gputlm
