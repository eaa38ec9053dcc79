// The elements a cp.async.bulk.tensor moves (func/tensor_box.h). im2col mode against the loads
// Triton's TMA im2col tutorial (python/tutorials/gluon, conv-im2col) checks on a GPU: a batch of
// 4 x 4 images of 32 float channels, pixel (n, h, w) holding 16 n + 4 h + w + 1, 16 pixels a copy;
// and against the examples of PTX ISA 5.5.4.1 and 5.5.4.2 (traversal stride). Tile mode's walk is
// covered through the instructions (test_tensor_copy_semantics.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/func/tensor_box.h"

namespace gputlm::test {
namespace {

using func::TensorMap;

// An im2col map of a C x W x H x N float tensor at address 0 (dimension 0 first), dense.
TensorMap im2col4d(uint32_t c, uint32_t w, uint32_t h, uint32_t n, int lower_w, int lower_h,
                   int upper_w, int upper_h, uint16_t channels, uint16_t pixels,
                   uint8_t stride = 1) {
  TensorMap m;
  m.magic = TensorMap::kMagic;
  m.data_type = 7;
  m.rank = 4;
  m.element_bytes = 4;
  m.is_float = 1;
  m.im2col = 1;
  const uint32_t dims[4] = {c, w, h, n};
  uint64_t bytes = 4;
  for (unsigned d = 0; d < 4; ++d) {
    m.dim_minus_1[d] = dims[d] - 1;
    m.element_stride[d] = d == 0 ? 1 : stride;
    bytes *= dims[d];
    if (d < 3) m.stride[d] = bytes;
  }
  m.lower[0] = static_cast<int16_t>(lower_w);
  m.lower[1] = static_cast<int16_t>(lower_h);
  m.upper[0] = static_cast<int16_t>(upper_w);
  m.upper[1] = static_cast<int16_t>(upper_h);
  m.channels = channels;
  m.pixels = pixels;
  return m;
}

// The pixel each row of the copy brings, as (n, h, w) flattened to 16 n + 4 h + w + 1 in the 4 x 4
// images of 32 channels (0: outside the tensor), checking that each row is `channels` consecutive
// channels from `c0`.
std::vector<int> tutorial_pixels(const TensorMap& m, int64_t n, int64_t h, int64_t w,
                                 uint16_t off_h, uint16_t off_w, int64_t c0 = 0) {
  const int64_t start[4] = {c0, w, h, n};
  const uint16_t offsets[3] = {off_w, off_h, 0};
  std::vector<int> pixels(m.pixels, -1);
  uint64_t expect_offset = 0;
  func::for_each_im2col_element(
      m, start, offsets, [&](uint64_t offset, uint64_t addr, bool inside) {
        EXPECT_EQ(offset, expect_offset);
        expect_offset += 4;
        const uint64_t row = offset / (4u * m.channels), channel = offset / 4 % m.channels;
        if (!inside) {
          if (channel == 0) pixels[row] = 0;
          return;
        }
        EXPECT_EQ(addr / 4 % 32, static_cast<uint64_t>(c0) + channel);
        if (channel == 0) pixels[row] = static_cast<int>(addr / 4 / 32) + 1;
      });
  return pixels;
}

TEST(TensorBox, Im2colWithoutPaddingWalksTheImageRowByRow) {  // tutorial example 1
  const TensorMap m = im2col4d(32, 4, 4, 1, 0, 0, 0, 0, 32, 16);
  std::vector<int> all;
  for (int i = 1; i <= 16; ++i) all.push_back(i);
  EXPECT_EQ(tutorial_pixels(m, 0, 0, 0, 0, 0), all);
}

TEST(TensorBox,
     Im2colPaddingReadsTheFillOutsideTheImage) {  // example 2: corners -1, -1: H and W in [-1, 2]
  const TensorMap m = im2col4d(32, 4, 4, 1, -1, -1, -1, -1, 32, 16);
  EXPECT_EQ(tutorial_pixels(m, 0, -1, -1, 0, 0),
            (std::vector<int>{0, 0, 0, 0, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11}));
}

TEST(TensorBox, Im2colOffsetsMoveEveryPixel) {  // example 3: offsets (1, 1) bring the image itself
  const TensorMap m = im2col4d(32, 4, 4, 1, -1, -1, -1, -1, 32, 16);
  std::vector<int> all;
  for (int i = 1; i <= 16; ++i) all.push_back(i);
  EXPECT_EQ(tutorial_pixels(m, 0, -1, -1, 1, 1), all);
}

TEST(TensorBox, Im2colContinuesIntoTheNextImage) {  // examples 4 and 5: two images
  const TensorMap plain = im2col4d(32, 4, 4, 2, 0, 0, 0, 0, 32, 16);
  std::vector<int> from8;
  for (int i = 8; i <= 23; ++i) from8.push_back(i);
  EXPECT_EQ(tutorial_pixels(plain, 0, 1, 3, 0, 0), from8);
  const TensorMap padded = im2col4d(32, 4, 4, 2, -1, -1, -1, -1, 32, 16);
  EXPECT_EQ(tutorial_pixels(padded, 0, 1, 2, 0, 0),
            (std::vector<int>{7, 0, 9, 10, 11, 0, 0, 0, 0, 0, 17, 18, 19, 0, 21, 22}));
}

TEST(TensorBox, Im2colPastTheLastImageAndChannelReadsTheFill) {
  const TensorMap m = im2col4d(32, 4, 4, 1, 0, 0, 0, 0, 8, 4);
  EXPECT_EQ(tutorial_pixels(m, 0, 3, 2, 0, 0),
            (std::vector<int>{15, 16, 0, 0}));  // no second image
  unsigned outside = 0;
  const int64_t start[4] = {28, 0, 0, 0};  // channels 28..35 of 32
  const uint16_t offsets[3] = {};
  func::for_each_im2col_element(m, start, offsets,
                                [&](uint64_t, uint64_t, bool inside) { outside += !inside; });
  EXPECT_EQ(outside, 4u * 4u);
}

TEST(TensorBox, Im2colTraversalStrideStepsTheFilterBase) {
  // PTX ISA 5.5.4.2's setting: W 8, H 14, corners -1 (W and H in [-1, 6] and [-1, 12]), stride 2,
  // base (w 7, h 5) is not inside ([-1, 6]) there; here base w 5: positions 5, then the next row's
  // -1, 1, 3, 5, ...
  const TensorMap m = im2col4d(64, 8, 14, 64, -1, -1, -1, -1, 16, 6, 2);
  const int64_t start[4] = {7, 5, 5, 0};
  const uint16_t offsets[3] = {1, 1, 0};
  std::vector<std::pair<int64_t, int64_t>> at;  // (h, w) of each pixel
  func::for_each_im2col_element(m, start, offsets,
                                [&](uint64_t offset, uint64_t addr, bool inside) {
                                  if (offset % (16 * 4) != 0) return;
                                  ASSERT_TRUE(inside);
                                  const uint64_t pixel = addr / 4 / 64;
                                  at.emplace_back(pixel / 8 % 14, pixel % 8);
                                });
  // Bases (w, h): (5, 5), (-1, 7), (1, 7), (3, 7), (5, 7), (-1, 9); each pixel is the base plus (1,
  // 1).
  EXPECT_EQ(at, (std::vector<std::pair<int64_t, int64_t>>{
                    {6, 6}, {8, 0}, {8, 2}, {8, 4}, {8, 6}, {10, 0}}));
}

TEST(TensorBox, Im2colFilterBaseMustLieInTheBoundingBox) {
  const TensorMap m = im2col4d(64, 9, 14, 64, 0, 0, -2, -2, 8,
                               64);  // PTX ISA example 2's map: W in [0, 6], H in [0, 11]
  const int64_t inside[4] = {7, 6, 11, 0}, right[4] = {7, 7, 4, 0}, below[4] = {7, 0, 12, 0};
  EXPECT_EQ(func::im2col_start_error(m, inside), "");
  EXPECT_EQ(
      func::im2col_start_error(m, right),
      "the filter base's W coordinate 7 is outside the bounding box [0, 6] (PTX ISA 5.5.4.1)");
  EXPECT_NE(func::im2col_start_error(m, below).find("H coordinate 12"), std::string::npos);
}

TEST(TensorBox, Im2colIn3dAnd5d) {
  TensorMap m =
      im2col4d(16, 10, 1, 2, -2, 0, 0, 0, 16, 12);  // reused as a 3-D map: C 16, W 10, N 2
  m.rank = 3;
  m.dim_minus_1[2] = 1;  // N = 2
  m.stride[1] = 16 * 10 * 4;
  const int64_t start[3] = {0, 8, 0};
  const uint16_t offsets[3] = {2, 0, 0};
  std::vector<int64_t> w;  // W of each pixel, -1 outside; W positions [-2, 9]
  func::for_each_im2col_element(m, start, offsets,
                                [&](uint64_t offset, uint64_t addr, bool inside) {
                                  if (offset % 64 == 0)
                                    w.push_back(inside ? static_cast<int64_t>(addr / 64 % 10) +
                                                             10 * static_cast<int64_t>(addr / 640)
                                                       : -1);
                                });
  // Bases 8, 9, then the next image's -2 .. 7; plus 2: image 0's 10 and 11 are outside.
  EXPECT_EQ(w, (std::vector<int64_t>{-1, -1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}));

  TensorMap d5;  // C 4, W 3, H 3, D 3, N 1; corners 0; 5 pixels from (w 2, h 2, d 0): the next base
                 // is d 1's (0, 0)
  d5.im2col = 1;
  d5.rank = 5;
  d5.element_bytes = 1;
  const uint32_t dims[5] = {4, 3, 3, 3, 1};
  uint64_t bytes = 1;
  for (unsigned d = 0; d < 5; ++d) {
    d5.dim_minus_1[d] = dims[d] - 1;
    d5.element_stride[d] = 1;
    bytes *= dims[d];
    if (d < 4) d5.stride[d] = bytes;
  }
  d5.channels = 4;
  d5.pixels = 5;
  const int64_t s5[5] = {0, 2, 2, 0, 0};
  const uint16_t none[3] = {};
  std::vector<uint64_t> pixel;
  func::for_each_im2col_element(d5, s5, none, [&](uint64_t offset, uint64_t addr, bool) {
    if (offset % 4 == 0) pixel.push_back(addr / 4);
  });
  EXPECT_EQ(pixel,
            (std::vector<uint64_t>{8, 9, 10, 11, 12}));  // d 0's last pixel, then d 1's first four
}

}  // namespace
}  // namespace gputlm::test
