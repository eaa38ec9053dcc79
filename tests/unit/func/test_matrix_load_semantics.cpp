// ldmatrix, stmatrix, movmatrix (PTX ISA 9.7.9.x "ldmatrix", "stmatrix", "movmatrix") and the
// wmma.load / wmma.mma / wmma.store round trip (PTX ISA 9.7.14.4). Expected values come from the
// ISA's rules: threads 8i..8i+7 give the row addresses of matrix i; in the fragment of an 8x8
// .b16 matrix, row = %laneid >> 2 and col = (%laneid % 4) * 2 + i (i = 0 in the low half).
#include <gtest/gtest.h>

#include "models/func/semantics/small_float.h"
#include "models/vgiw/mapper/kernel_map.h"
#include "tensor_warp_harness.h"

namespace gputlm {
namespace {

using test::LaneWords;

std::vector<LaneWords> random_words(uint32_t seed) {
  std::vector<LaneWords> in(32);
  for (auto& lane : in)
    for (auto& w : lane) w = seed = seed * 1664525u + 1013904223u;
  return in;
}
unsigned row_of_lane(unsigned l, unsigned rows) { return (l * 37 + 5) % rows; }  // a permutation

// Every lane copies its words 0..15 to smem + 64 * lane; lane l's row address is
// smem + 16 * row_of_lane(l, rows).
std::string fill_shared_and_point(unsigned rows) {
  return R"(cvt.u64.u32 %rd0, %tid;
  mul.lo.u64 %rd0, %rd0, 64;
  mov.u64 %rd1, smem;
  add.u64 %rd0, %rd0, %rd1;
  st.shared.v4.b32 [%rd0], {%r0, %r1, %r2, %r3};
  st.shared.v4.b32 [%rd0+16], {%r4, %r5, %r6, %r7};
  st.shared.v4.b32 [%rd0+32], {%r8, %r9, %r10, %r11};
  st.shared.v4.b32 [%rd0+48], {%r12, %r13, %r14, %r15};
  bar.sync 0;
  mad.lo.u32 %r36, %tid, 37, 5;
  rem.u32 %r36, %r36, )" +
         std::to_string(rows) + R"(;
  mul.wide.u32 %rd2, %r36, 16;
  add.u64 %rd2, %rd2, %rd1;
)";
}
// Halfword j of shared memory as fill_shared_and_point leaves it.
uint16_t shared_half(const std::vector<LaneWords>& in, unsigned j) {
  const uint32_t w = in[j / 32][(j % 32) / 2];
  return static_cast<uint16_t>(w >> (16 * (j % 2)));
}

void check_ldmatrix(bool trans) {
  const auto in = random_words(trans ? 7 : 3);
  const auto out = test::run_tensor_warp(
      fill_shared_and_point(128) + "ldmatrix.sync.aligned.m8n8.x4" + (trans ? ".trans" : "") +
          ".shared.b16 {%r32, %r33, %r34, %r35}, [%rd2];",
      in);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned r = l >> 2, c0 = (l % 4) * 2;
      // Element (row, col) of matrix i: halfword col of the row whose address thread 8i + row gave.
      auto elem = [&](unsigned row, unsigned col) {
        return shared_half(in, row_of_lane(8 * i + row, 128) * 8 + col);
      };
      const uint32_t want = trans ? (elem(c0, r) | uint32_t{elem(c0 + 1, r)} << 16)
                                  : (elem(r, c0) | uint32_t{elem(r, c0 + 1)} << 16);
      EXPECT_EQ(out[l][i], want) << "lane " << l << " matrix " << i;
    }
}

TEST(TensorSemantics, LdmatrixX4GivesEachThreadItsRowAndColumnPairOfEachMatrix) {
  check_ldmatrix(false);
}
TEST(TensorSemantics, LdmatrixTransGivesTheTransposedFragments) { check_ldmatrix(true); }

TEST(TensorSemantics, LdmatrixX1TakesTheRowAddressesOfThreadsZeroToSeven) {
  const auto in = random_words(11);
  const auto out = test::run_tensor_warp(
      fill_shared_and_point(128) + "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%r32}, [%rd2];",
      in);
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned row = row_of_lane(l >> 2, 128) * 8, c0 = (l % 4) * 2;
    EXPECT_EQ(out[l][0], shared_half(in, row + c0) | uint32_t{shared_half(in, row + c0 + 1)} << 16)
        << "lane " << l;
  }
}

TEST(TensorSemantics, MovmatrixTransposesTheFragmentInRegisters) {
  const auto in = random_words(5);
  const auto out = test::run_tensor_warp("movmatrix.sync.aligned.m8n8.trans.b16 %r32, %r0;", in);
  // Source element (row, col) is in thread row * 4 + col / 2, half col % 2.
  auto src = [&](unsigned row, unsigned col) {
    return static_cast<uint16_t>(in[row * 4 + col / 2][0] >> (16 * (col % 2)));
  };
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned r = l >> 2, c0 = (l % 4) * 2;  // destination (r, c0) is source (c0, r)
    EXPECT_EQ(out[l][0], src(c0, r) | uint32_t{src(c0 + 1, r)} << 16) << "lane " << l;
  }
}

void check_stmatrix(bool trans) {
  const auto in = random_words(trans ? 13 : 17);
  // Rows go to the first 1024 bytes (64 rows); each lane then reads back its 32 bytes of them.
  const std::string body = R"(mov.u64 %rd1, smem;
  cvt.u64.u32 %rd0, %tid;
  mul.lo.u64 %rd0, %rd0, 64;
  add.u64 %rd0, %rd0, %rd1;
  mov.b32 %r36, 0;
  st.shared.v4.b32 [%rd0], {%r36, %r36, %r36, %r36};
  st.shared.v4.b32 [%rd0+16], {%r36, %r36, %r36, %r36};
  st.shared.v4.b32 [%rd0+32], {%r36, %r36, %r36, %r36};
  st.shared.v4.b32 [%rd0+48], {%r36, %r36, %r36, %r36};
  bar.sync 0;
  mad.lo.u32 %r36, %tid, 37, 5;
  rem.u32 %r36, %r36, 64;
  mul.wide.u32 %rd2, %r36, 16;
  add.u64 %rd2, %rd2, %rd1;
  stmatrix.sync.aligned.m8n8.x2)" +
                           std::string(trans ? ".trans" : "") + R"(.shared.b16 [%rd2], {%r0, %r1};
  bar.sync 0;
  cvt.u64.u32 %rd0, %tid;
  mul.lo.u64 %rd0, %rd0, 32;
  add.u64 %rd0, %rd0, %rd1;
  ld.shared.v4.b32 {%r32, %r33, %r34, %r35}, [%rd0];
  ld.shared.v4.b32 {%r36, %r37, %r38, %r39}, [%rd0+16];)";
  const auto out = test::run_tensor_warp(body, in);
  std::vector<uint16_t> want(512, 0);
  for (unsigned i = 0; i < 2; ++i)
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned col = 0; col < 8; ++col) {
        // Matrix i's fragment: element (row, col) in thread row * 4 + col / 2, register i.
        auto frag = [&](unsigned row, unsigned cc) {
          return static_cast<uint16_t>(in[row * 4 + cc / 2][i] >> (16 * (cc % 2)));
        };
        want[row_of_lane(8 * i + r, 64) * 8 + col] = trans ? frag(col, r) : frag(r, col);
      }
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned w = 0; w < 8; ++w)
      EXPECT_EQ(out[l][w], want[l * 16 + 2 * w] | uint32_t{want[l * 16 + 2 * w + 1]} << 16)
          << "lane " << l << " word " << w;
}

TEST(TensorSemantics, StmatrixWritesRowIOfMatrixJToTheAddressOfThread8jPlusI) {
  check_stmatrix(false);
}
TEST(TensorSemantics, StmatrixTransWritesTheTransposedMatrix) { check_stmatrix(true); }

// wmma: the whole-warp result in memory is fixed by the ISA whatever the fragment layout:
// D (row-major, stride 16) = A x B + C, with A row-major, B column-major (stride `bstride`).
TEST(TensorSemantics, WmmaM16n16k16F16LoadMmaStoreComputesTheGemm) {
  std::vector<LaneWords> in(32, LaneWords{});
  auto* bytes = reinterpret_cast<uint8_t*>(in.data());
  std::vector<int> A(256), B(256), C(256);
  for (unsigned i = 0; i < 256; ++i)
    A[i] = static_cast<int>(i * 7 % 9) - 4, B[i] = static_cast<int>(i * 5 % 7) - 3,
    C[i] = static_cast<int>(i % 23) - 11;
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 16; ++c) {
      const uint16_t a = func::sem::to_f16(A[r * 16 + c]), b = func::sem::to_f16(B[r * 16 + c]);
      std::memcpy(bytes + 2 * (r * 16 + c), &a, 2);        // A[r][c] row-major at 0
      std::memcpy(bytes + 512 + 2 * (c * 16 + r), &b, 2);  // B[r][c] column-major at 512
      const float cf = static_cast<float>(C[r * 16 + c]);
      std::memcpy(bytes + 1024 + 4 * (r * 16 + c), &cf, 4);  // C[r][c] row-major f32 at 1024
    }
  const auto out = test::run_tensor_warp(R"(ld.param.u64 %rd0, [pin];
  ld.param.u64 %rd1, [pout];
  add.u64 %rd2, %rd0, 512;
  add.u64 %rd3, %rd0, 1024;
  mov.u32 %r39, 16;
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd0], %r39;
  wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [%rd2], %r39;
  wmma.load.c.sync.aligned.row.m16n16k16.f32 {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, [%rd3];
  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23};
  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31}, %r39;
  bar.sync 0;
  ld.global.v4.b32 {%r32, %r33, %r34, %r35}, [%out];
  ld.global.v4.b32 {%r36, %r37, %r38, %r39}, [%out+16];)",
                                         in);
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 16; ++c) {
      int want = C[r * 16 + c];
      for (unsigned k = 0; k < 16; ++k) want += A[r * 16 + k] * B[k * 16 + c];
      const unsigned idx = r * 16 + c;
      EXPECT_EQ(test::bits_f32(out[idx / 8][idx % 8]), static_cast<float>(want))
          << "D[" << r << "][" << c << "]";
    }
}

// Integer wmma with a column-major A of stride 20 and the default strides elsewhere.
TEST(TensorSemantics, WmmaM16n16k16S8HonoursLayoutAndStride) {
  std::vector<LaneWords> in(32, LaneWords{});
  auto* bytes = reinterpret_cast<uint8_t*>(in.data());
  std::vector<int> A(256), B(256), C(256);
  for (unsigned i = 0; i < 256; ++i)
    A[i] = static_cast<int>(i * 37 % 256) - 128, B[i] = static_cast<int>(i * 11 % 200) - 100,
    C[i] = static_cast<int>(i * 1001) - 100000;
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 16; ++c) {
      bytes[c * 20 + r] = static_cast<uint8_t>(A[r * 16 + c]);  // A column-major, stride 20, at 0
      bytes[512 + r * 16 + c] = static_cast<uint8_t>(B[r * 16 + c]);  // B row-major at 512
      const int32_t cv = C[r * 16 + c];
      std::memcpy(bytes + 1024 + 4 * (r * 16 + c), &cv, 4);
    }
  const auto out = test::run_tensor_warp(R"(ld.param.u64 %rd0, [pin];
  ld.param.u64 %rd1, [pout];
  add.u64 %rd2, %rd0, 512;
  add.u64 %rd3, %rd0, 1024;
  wmma.load.a.sync.aligned.col.m16n16k16.global.s8 {%r0, %r1}, [%rd0], 20;
  wmma.load.b.sync.aligned.row.m16n16k16.global.s8 {%r2, %r3}, [%rd2];
  wmma.load.c.sync.aligned.row.m16n16k16.global.s32 {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, [%rd3];
  wmma.mma.sync.aligned.col.row.m16n16k16.s32.s8.s8.s32 {%r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31}, {%r0, %r1}, {%r2, %r3}, {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23};
  wmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%rd1], {%r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31};
  bar.sync 0;
  ld.global.v4.b32 {%r32, %r33, %r34, %r35}, [%out];
  ld.global.v4.b32 {%r36, %r37, %r38, %r39}, [%out+16];)",
                                         in);
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 16; ++c) {
      int64_t want = C[r * 16 + c];
      for (unsigned k = 0; k < 16; ++k) want += A[r * 16 + k] * B[k * 16 + c];
      const unsigned idx = r * 16 + c;
      EXPECT_EQ(static_cast<int32_t>(out[idx / 8][idx % 8]), want) << "D[" << r << "][" << c << "]";
    }
}

TEST(TensorSemantics, TensorInstructionsAreWarpCollectives) {
  auto m = test::parse(test::tensor_warp_kernel(
      R"(mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r32, %r33}, {%r0}, {%r4}, {%r8, %r9};
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r32}, [%rd2];
  movmatrix.sync.aligned.m8n8.trans.b16 %r32, %r0;
  wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r0}, [%rd0];)"));
  unsigned n = 0;
  for (const auto& in : m->kernels.at(0)->code)
    if (in.op == isa::Opcode::Mma || in.op == isa::Opcode::Ldmatrix ||
        in.op == isa::Opcode::Movmatrix || in.op == isa::Opcode::Wmma) {
      EXPECT_TRUE(isa::is_warp_collective(in)) << isa::opcode_name(in.op);
      ++n;
    }
  EXPECT_EQ(n, 4u);
}

// VGIW and SGMF have no warps: a kernel with a tensor instruction is refused before it runs,
// naming the instruction (models/vgiw/mapper/block_graph.cpp). The warp formations issue a warp
// collective with its logical warp whole (large_warp_formation.cpp, block_formation.cpp).
TEST(TensorSemantics, VgiwRefusesKernelsWithTensorInstructionsNamingThem) {
  for (const std::string line :
       {"mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r32, %r33}, {%r0}, {%r4}, {%r8, %r9};",
        "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r32}, [%rd2];",
        "movmatrix.sync.aligned.m8n8.trans.b16 %r32, %r0;",
        "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd2], {%r0};",
        "wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r0}, [%rd0];"}) {
    auto m = test::parse(test::tensor_warp_kernel(line));
    try {
      vgiw::map_kernel(*m->kernels.at(0));
      ADD_FAILURE() << "VGIW mapped " << line;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(line.substr(0, line.find('.'))), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("warp collective"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gputlm
