// cp.async.bulk.tensor on the functional engine (PTX ISA 9.7.9.25.5; func/tensor_map.h):
// a box of a tensor in global memory lands densely in shared memory, elements outside the tensor
// read zero (NaN with the NaN fill), the swizzle moves 16-byte chunks, a store writes the inside
// elements only, and a map of the wrong rank or no map at all is a fault. im2col mode's loads,
// stores and reductions (the walk itself: test_tensor_box.cpp). Also the generic
// addresses of kernel parameters (cvta.param) that tensor maps are passed by.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "models/func/kernel_fault.h"
#include "models/func/reference_executor.h"
#include "models/func/tensor_map.h"
#include "support/ptx_harness.h"

namespace gputlm::test {
namespace {

constexpr uint32_t kW = 8, kH = 6;  // a tensor of 8 x 6 u32, element (x, y) = 100 y + x

// A map of the tensor at `base`: box bw x bh, the given swizzle and fill.
func::TensorMap map2d(uint64_t base, uint16_t bw, uint16_t bh, uint8_t swizzle = 0,
                      bool nan = false) {
  func::TensorMap m;
  m.magic = func::TensorMap::kMagic;
  m.data_type = nan ? 7 : 2;  // FLOAT32 or UINT32
  m.rank = 2;
  m.swizzle = swizzle;
  m.nan_fill = nan;
  m.is_float = nan;
  m.element_bytes = 4;
  m.address = base;
  m.dim_minus_1[0] = kW - 1;
  m.dim_minus_1[1] = kH - 1;
  m.stride[0] = kW * 4;
  m.box[0] = bw;
  m.box[1] = bh;
  m.element_stride[0] = m.element_stride[1] = 1;
  return m;
}

// Runs `body` on one thread with %rd8 = the map's global address, %rd7 = the tensor's, and a
// 1024-aligned shared `tile` (%r1) with an 8-byte mbarrier `bar` (%r2) set up for one arrival.
struct TensorRun {
  explicit TensorRun(const std::string& body)
      : launch(
            ".shared .align 1024 .b8 tile[2048];\n .shared .align 8 .b64 bar;\n mov.u32 %r1, "
            "tile;\n mov.u32 %r2, bar;\n"
            "mbarrier.init.shared.b64 [%r2], 1;\n mov.u64 %rd8, %a;\n mov.u64 %rd7, %b;\n" +
                body,
            {Inputs{0, 0, 0}}) {
    tensor = launch.memory.allocate(kW * kH * 4, "tensor");
    map = launch.memory.allocate(128, "map");
    std::vector<uint32_t> t(kW * kH);
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x) t[y * kW + x] = 100 * y + x;
    launch.memory.write(tensor, t.data(), t.size() * 4);
    const uint64_t in[3] = {map, tensor, 0};
    launch.memory.write(launch.in, in, sizeof in);
  }
  void set_map(const func::TensorMap& m) { launch.memory.write(map, &m, sizeof m); }
  uint64_t run() {
    func::run_reference(*launch.bound, launch.launch);
    return launch.outputs()[0].o;
  }
  SnippetLaunch launch;
  uint64_t tensor = 0, map = 0;
};

// Loads the box (of `bytes`) at (x, y), waits for the mbarrier's phase, and reads shared word
// `word` into %o.
std::string load_then_read(int x, int y, unsigned word, unsigned bytes = 64) {
  return "mov.u32 %r3, " + std::to_string(x) + ";\n mov.u32 %r4, " + std::to_string(y) +
         ";\n"
         "mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r2], " +
         std::to_string(bytes) +
         ";\n"
         "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], "
         "[%rd8, {%r3, %r4}], [%r2];\n"
         "mbarrier.try_wait.parity.shared.b64 %p, [%r2], 0;\n ld.shared.u32 %r5, [%r1+" +
         std::to_string(4 * word) +
         "];\n"
         "cvt.u64.u32 %o, %r5;\n";
}

// Word `word` of the 4 x 4 box at (x, y); the mbarrier's phase must have completed.
uint64_t load_word(int x, int y, unsigned word) {
  TensorRun r(load_then_read(x, y, word));
  r.set_map(map2d(r.tensor, 4, 4));
  const uint64_t v = r.run();
  EXPECT_TRUE(r.launch.outputs()[0].p) << "the box's 64 bytes completed the phase";
  return v;
}

TEST(TensorCopy, ABoxLandsDenselyInSharedMemory) {
  // Box 4 x 4 at (2, 1): shared word 4 r + c is element (2 + c, 1 + r).
  EXPECT_EQ(load_word(2, 1, 0), 102u);
  EXPECT_EQ(load_word(2, 1, 3), 105u);
  EXPECT_EQ(load_word(2, 1, 4 * 2 + 1), 303u);
}

TEST(TensorCopy, ElementsOutsideTheTensorReadZeroOrNaN) {
  EXPECT_EQ(load_word(-1, 0, 0), 0u);  // x = -1
  EXPECT_EQ(load_word(-1, 0, 2), 1u);  // x = 1, y = 0
  EXPECT_EQ(load_word(6, 4, 2), 0u);   // x = 8: beyond the width
  EXPECT_EQ(load_word(6, 4, 4 * 1 + 1), 507u);
  EXPECT_EQ(load_word(6, 4, 4 * 2 + 1), 0u);  // y = 6: beyond the height
  TensorRun r(load_then_read(-2, 0, 0));
  r.set_map(map2d(r.tensor, 4, 4, 0, true));
  EXPECT_EQ(r.run(), 0x7fffffffu);
}

TEST(TensorCopy, TheSwizzleXorsTheChunkWithTheRow) {
  func::TensorMap m;
  m.swizzle = func::TensorMap::B128;
  EXPECT_EQ(m.swizzled(0x00), 0x00u);
  EXPECT_EQ(m.swizzled(0x84), 0x94u);    // row 1, chunk 0 -> chunk 1
  EXPECT_EQ(m.swizzled(0x3f0), 0x380u);  // row 7, chunk 7 -> chunk 0
  m.swizzle = func::TensorMap::B64;
  EXPECT_EQ(m.swizzled(0x1a0), 0x190u);  // row 3 (of 4), chunk 2 -> 2 ^ 3 = 1
  m.swizzle = func::TensorMap::B32;
  EXPECT_EQ(m.swizzled(0x80), 0x90u);
  // A loaded 8 x 6 box with the 32-byte swizzle: element (0, 4), 128 bytes in, sits one chunk on
  // (word 36).
  TensorRun r(load_then_read(0, 0, 36, 192));
  r.set_map(map2d(r.tensor, 8, 6, func::TensorMap::B32));
  EXPECT_EQ(r.run(), 400u);
}

TEST(TensorCopy, AStoreWritesTheElementsInsideTheTensor) {
  // Shared words 0..15 = 1000 + i; the 4 x 4 box stored at (6, 4): (6, 4) (7, 4) (6, 5) (7, 5)
  // inside.
  std::string fill;
  for (int i = 0; i < 16; ++i)
    fill +=
        "st.shared.u32 [%r1+" + std::to_string(4 * i) + "], " + std::to_string(1000 + i) + ";\n";
  TensorRun r(
      fill +
      "mov.u32 %r3, 6;\n mov.u32 %r4, 4;\n"
      "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd8, {%r3, %r4}], [%r1];\n"
      "cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n"
      "ld.global.u32 %r5, [%rd7+188];\n ld.global.u32 %r6, [%rd7+180];\n mad.lo.u32 %r5, %r5, "
      "10000, %r6;\n cvt.u64.u32 %o, %r5;\n");
  r.set_map(map2d(r.tensor, 4, 4));
  // (7, 5) is shared word 4 + 1 = 1005; (5, 5) (outside the box) keeps 505.
  EXPECT_EQ(r.run(), 1005u * 10000 + 505u);
}

// cp.reduce.async.bulk.tensor (PTX ISA 9.7.9.25.5.2): shared words 0..15 = 1000 + i combined into
// the 4 x 4 box at (6, 4) with `op`; returns 10000 x element (7, 5) + element (5, 5).
uint64_t reduce_box(const std::string& op, uint8_t data_type = 2) {
  std::string fill;
  for (int i = 0; i < 16; ++i)
    fill +=
        "st.shared.u32 [%r1+" + std::to_string(4 * i) + "], " + std::to_string(1000 + i) + ";\n";
  TensorRun r(fill +
              "mov.u32 %r3, 6;\n mov.u32 %r4, 4;\n"
              "cp.reduce.async.bulk.tensor.2d.global.shared::cta." +
              op +
              ".tile.bulk_group [%rd8, {%r3, %r4}], [%r1];\n"
              "cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n"
              "ld.global.u32 %r5, [%rd7+188];\n ld.global.u32 %r6, [%rd7+180];\n mad.lo.u32 %r5, "
              "%r5, 10000, %r6;\n cvt.u64.u32 %o, %r5;\n");
  func::TensorMap m = map2d(r.tensor, 4, 4);
  m.data_type = data_type;
  r.set_map(m);
  return r.run();
}

TEST(TensorCopy, AReductionCombinesTheBoxIntoTheElementsInsideTheTensor) {
  // (7, 5) = 507 meets shared word 4 + 1 = 1005; (5, 5), outside the box, keeps 505.
  EXPECT_EQ(reduce_box("add"), (507u + 1005u) * 10000 + 505u);
  EXPECT_EQ(reduce_box("min"), 507u * 10000 + 505u);
  EXPECT_EQ(reduce_box("max"), 1005u * 10000 + 505u);
  EXPECT_EQ(reduce_box("xor"), (507u ^ 1005u) * 10000 + 505u);
  EXPECT_EQ(reduce_box("inc"), 508u * 10000 + 505u);  // inc: 507 < 1005, so old + 1
}

TEST(TensorCopy, AReductionTheMapsTypeDoesNotAllowIsAFault) {
  const std::string f = kernel_fault([] { reduce_box("inc", 3); });  // .inc on INT32
  EXPECT_NE(
      f.find("cp.reduce.async.bulk.tensor: .inc is not defined for the tensor map's data type 3"),
      std::string::npos)
      << f;
}

TEST(TensorCopy, AMapOfAnotherRankOrNoMapIsAFault) {
  TensorRun r(load_then_read(0, 0, 0));
  func::TensorMap m = map2d(r.tensor, 4, 4);
  m.rank = 3;
  r.set_map(m);
  const std::string wrong_rank = kernel_fault([&] { r.run(); });
  EXPECT_NE(wrong_rank.find("cp.async.bulk.tensor.2d with a tensor map of rank 3"),
            std::string::npos)
      << wrong_rank;
  TensorRun none(load_then_read(0, 0, 0));
  const std::string no_map = kernel_fault([&] { none.run(); });
  EXPECT_NE(no_map.find("no tensor map made by cuTensorMapEncodeTiled"), std::string::npos)
      << no_map;
}

// The 8 x 6 tensor seen as an im2col map (PTX ISA 5.5.4) of 4 channels, W 2 and N 6: element
// (channel c, w, image n) is 100 n + 4 w + c; 4 pixels of 4 channels a copy, W positions [-1, 1].
func::TensorMap im2col3d(uint64_t base) {
  func::TensorMap m = map2d(base, 4, 4);
  m.rank = 3;
  m.im2col = 1;
  m.dim_minus_1[0] = 3;
  m.dim_minus_1[1] = 1;
  m.dim_minus_1[2] = kH - 1;
  m.stride[0] = 16;
  m.stride[1] = kW * 4;
  m.element_stride[2] = 1;
  m.lower[0] = -1;
  m.upper[0] = 0;
  m.channels = 4;
  m.pixels = 4;
  return m;
}

// An im2col load with filter base (w, image 0) and W offset `off`, then shared word `word`.
std::string im2col_load_then_read(int w, int off, unsigned word) {
  return "mov.u32 %r3, 0;\n mov.u32 %r4, " + std::to_string(w) +
         ";\n mov.u32 %r6, 0;\n mov.u16 %ha, " + std::to_string(off) +
         ";\n"
         "mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r2], 64;\n"
         "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
         "[%r1], [%rd8, {%r3, %r4, %r6}], [%r2], {%ha};\n"
         "mbarrier.try_wait.parity.shared.b64 %p, [%r2], 0;\n ld.shared.u32 %r5, [%r1+" +
         std::to_string(4 * word) +
         "];\n"
         "cvt.u64.u32 %o, %r5;\n";
}

uint64_t im2col_word(int w, int off, unsigned word) {
  TensorRun r(im2col_load_then_read(w, off, word));
  r.set_map(im2col3d(r.tensor));
  const uint64_t v = r.run();
  EXPECT_TRUE(r.launch.outputs()[0].p) << "the 64 bytes of 4 pixels completed the phase";
  return v;
}

TEST(TensorCopy, AnIm2colLoadBringsPixelsOfTheFilterWindow) {
  // Base w -1 plus offset 1: pixels (w 0, n 0), (w 1, n 0), (w 2: outside), then image 1's (w 0).
  EXPECT_EQ(im2col_word(-1, 1, 1), 1u);
  EXPECT_EQ(im2col_word(-1, 1, 4 + 2), 6u);
  EXPECT_EQ(im2col_word(-1, 1, 8 + 3), 0u);
  EXPECT_EQ(im2col_word(-1, 1, 12 + 1), 101u);
  EXPECT_EQ(im2col_word(0, 0, 4 + 1),
            5u);  // base 0, no offset: (w 0), (w 1), then image 1's (w -1: outside), (w 0)
  EXPECT_EQ(im2col_word(0, 0, 8 + 1), 0u);
  EXPECT_EQ(im2col_word(0, 0, 12 + 1), 101u);
}

TEST(TensorCopy, AnIm2colStoreAndReductionWriteThePixelsWithoutOffsets) {
  // Shared words 0..15 = 1000 + i stored from base (w 0, image 4): words 0-3 at (w 0, n 4), 4-7 at
  // (w 1, n 4), 8-11 at image 5's w -1 (outside), 12-15 at (w 0, n 5). Returns 10000 x (channel 1,
  // w 0, n 5) + (channel 2, w 1, n 4).
  std::string fill;
  for (int i = 0; i < 16; ++i)
    fill +=
        "st.shared.u32 [%r1+" + std::to_string(4 * i) + "], " + std::to_string(1000 + i) + ";\n";
  auto run = [&](const std::string& op) {
    TensorRun r(fill + "mov.u32 %r3, 0;\n mov.u32 %r4, 0;\n mov.u32 %r6, 4;\n" + op +
                ".async.bulk.tensor.3d.global.shared::cta" + (op == "cp" ? "" : ".add") +
                ".im2col_no_offs.bulk_group [%rd8, {%r3, %r4, %r6}], [%r1];\n"
                "cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n"
                "ld.global.u32 %r5, [%rd7+" +
                std::to_string(5 * 32 + 4) + "];\n ld.global.u32 %r7, [%rd7+" +
                std::to_string(4 * 32 + 16 + 8) +
                "];\n"
                "mad.lo.u32 %r5, %r5, 10000, %r7;\n cvt.u64.u32 %o, %r5;\n");
    r.set_map(im2col3d(r.tensor));
    return r.run();
  };
  EXPECT_EQ(run("cp"), 1013u * 10000 + 1006u);
  EXPECT_EQ(run("cp.reduce"), (501u + 1013u) * 10000 + (406u + 1006u));
}

TEST(TensorCopy, AnIm2colMapInTileModeOrABaseOutsideTheBoxIsAFault) {
  TensorRun tile(load_then_read(0, 0, 0));
  tile.set_map(im2col3d(tile.tensor));
  const std::string f = kernel_fault([&] { tile.run(); });
  EXPECT_NE(f.find("cp.async.bulk.tensor.2d with a tensor map of rank 3"), std::string::npos) << f;
  TensorRun wrong_mode(im2col_load_then_read(0, 0, 0));
  func::TensorMap tiled3 = map2d(wrong_mode.tensor, 4, 4);
  tiled3.rank = 3;
  tiled3.dim_minus_1[2] = 0;
  tiled3.box[2] = 1;
  tiled3.element_stride[2] = 1;
  wrong_mode.set_map(tiled3);
  const std::string g = kernel_fault([&] { wrong_mode.run(); });
  EXPECT_NE(
      g.find(
          "cp.async.bulk.tensor in im2col mode with a tensor map made by cuTensorMapEncodeTiled"),
      std::string::npos)
      << g;
  TensorRun outside(im2col_load_then_read(2, 0, 0));  // W positions [-1, 1]
  outside.set_map(im2col3d(outside.tensor));
  const std::string h = kernel_fault([&] { outside.run(); });
  EXPECT_NE(h.find("the filter base's W coordinate 2 is outside the bounding box [-1, 1]"),
            std::string::npos)
      << h;
}

// tensormap.cp_fenceproxy (PTX ISA 9.7.9.28): the global map copied into shared memory, its box
// changed there to 2 x 1 (as a kernel that edits a map does), copied back, then a load at (3, 2)
// and shared word `word`.
uint64_t edited_map_word(unsigned word) {
  std::string body;
  for (unsigned i = 0; i < 32; ++i)
    body += "ld.global.u32 %r5, [%rd8+" + std::to_string(4 * i) + "];\n st.shared.u32 [%r1+" +
            std::to_string(1024 + 4 * i) + "], %r5;\n";
  const size_t box = offsetof(func::TensorMap, box);
  body += "st.shared.u16 [%r1+" + std::to_string(1024 + box) + "], 2;\n st.shared.u16 [%r1+" +
          std::to_string(1026 + box) +
          "], 1;\n"
          "add.u32 %r7, %r1, 1024;\n"
          "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
          "[%rd8], [%r7], 128;\n";
  TensorRun r(body + load_then_read(3, 2, word, 8));
  r.set_map(map2d(r.tensor, 4, 4));
  const uint64_t v = r.run();
  EXPECT_TRUE(r.launch.outputs()[0].p) << "the 2 x 1 box's 8 bytes completed the phase";
  return v;
}

TEST(TensorCopy, TensormapCpFenceproxyCopiesAMapFromSharedToGlobal) {
  EXPECT_EQ(edited_map_word(1), 204u);  // element (4, 2)
  EXPECT_EQ(edited_map_word(2), 0u);    // beyond the 2 x 1 box (the 4 x 4 one would bring 205)
}

TEST(ParamWindow, KernelParametersHaveGenericAddresses) {
  // The harness's kernel has two .u64 parameters (in, out): read `in` through its generic address.
  const auto out = run1(
      "mov.u64 %rd1, pin;\n cvta.param.u64 %rd2, %rd1;\n ld.u64 %rd3, [%rd2];\n"
      "isspacep.param %p, %rd2;\n cvta.to.param.u64 %rd4, %rd2;\n ld.param.u64 %rd5, [%rd4];\n"
      "sub.u64 %o, %rd3, %rd5;\n",
      1);
  EXPECT_EQ(out.o, 0u);
  EXPECT_TRUE(out.p);
  EXPECT_THROW(run1("mov.u64 %rd1, pin;\n cvta.param.u64 %rd2, %rd1;\n st.u64 [%rd2], 1;\n", 1),
               func::KernelFault);
}

}  // namespace
}  // namespace gputlm::test
