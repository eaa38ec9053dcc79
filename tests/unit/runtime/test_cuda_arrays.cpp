// The CUDA arrays' descriptors as the runtime takes them (runtime/cuda_arrays.h): which channel
// descriptors are texel formats, and which extents and flags give which resource shape.
#include <gtest/gtest.h>

#include "runtime/cuda_arrays.h"

namespace gputlm::runtime {
namespace {

TEST(CudaArrays, ChannelDescriptorsBecomeTexelFormats) {
  func::TexelFormat f;
  ASSERT_TRUE(texel_format({8, 8, 8, 8, kChannelUnsigned}, f));
  EXPECT_EQ(f.channels, 4);
  EXPECT_EQ(f.bytes(), 4u);
  ASSERT_TRUE(texel_format({16, 16, 0, 0, kChannelFloat}, f));  // half2
  EXPECT_EQ(f.kind, func::ChannelKind::Float);
  EXPECT_EQ(f.bytes(), 4u);
  EXPECT_FALSE(texel_format({32, 32, 32, 0, kChannelFloat}, f));  // three channels
  EXPECT_FALSE(texel_format({0, 32, 0, 0, kChannelFloat}, f));    // y without x
  EXPECT_FALSE(texel_format({8, 16, 0, 0, kChannelSigned}, f));   // mixed widths
  EXPECT_FALSE(texel_format({8, 0, 0, 0, kChannelFloat}, f));     // 8-bit float
  EXPECT_FALSE(texel_format({32, 0, 0, 0, kChannelNone}, f));
}

TEST(CudaArrays, ExtentAndFlagsGiveTheShape) {
  func::TexShape s;
  ASSERT_TRUE(array_shape({8, 0, 0}, 0, s));
  EXPECT_EQ(s, func::TexShape::D1);
  ASSERT_TRUE(array_shape({8, 4, 0}, 0, s));
  EXPECT_EQ(s, func::TexShape::D2);
  ASSERT_TRUE(array_shape({8, 4, 2}, 0, s));
  EXPECT_EQ(s, func::TexShape::D3);
  ASSERT_TRUE(array_shape({8, 0, 5}, kArrayLayered, s));
  EXPECT_EQ(s, func::TexShape::Layered1D);
  ASSERT_TRUE(array_shape({8, 4, 5}, kArrayLayered, s));
  EXPECT_EQ(s, func::TexShape::Layered2D);
  ASSERT_TRUE(array_shape({8, 8, 6}, kArrayCubemap, s));
  EXPECT_EQ(s, func::TexShape::Cube);
  ASSERT_TRUE(array_shape({8, 8, 12}, kArrayCubemap | kArrayLayered, s));
  EXPECT_EQ(s, func::TexShape::LayeredCube);
  EXPECT_FALSE(array_shape({8, 4, 6}, kArrayCubemap, s));   // faces not square
  EXPECT_FALSE(array_shape({8, 8, 12}, kArrayCubemap, s));  // two cubes without the layered flag
  EXPECT_FALSE(array_shape({8, 4, 0}, kArrayLayered, s));   // no layers
  EXPECT_FALSE(array_shape({8, 0, 3}, 0, s));               // 3D of height 0
  EXPECT_FALSE(array_shape({0, 4, 0}, 0, s));
}

}  // namespace
}  // namespace gputlm::runtime
