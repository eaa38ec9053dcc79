// func::tex against hand-worked values (CUDA programming guide, "Texture Fetching"): point
// sampling, linear filtering with 1.8 fixed-point weights, each address mode, normalised
// coordinates, cudaReadModeNormalizedFloat, half channels, tld4's order, cube faces, txq, and
// the surface out-of-range modes.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/func/texture_sampling.h"

namespace gputlm::func {
namespace {

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// A texture over `data` (row-major texels of `fmt`) in a fresh global memory.
struct TexFixture {
  GlobalMemory memory;
  TextureObject o;
  template <class T>
  TexFixture(TexShape shape, TexelFormat fmt, const std::vector<T>& data, uint32_t w,
             uint32_t h = 1, uint32_t slices = 1) {
    o.resource.shape = shape;
    o.resource.format = fmt;
    o.resource.width = w;
    o.resource.height = h;
    if (shape == TexShape::D3)
      o.resource.depth = slices;
    else if (shape == TexShape::LayeredCube)
      o.resource.layers = slices / 6;
    else
      o.resource.layers = slices;
    o.resource.row_pitch = uint64_t{w} * fmt.bytes();
    o.resource.slice_pitch = o.resource.row_pitch * h;
    o.resource.base = memory.allocate(data.size() * sizeof(T), "texels");
    memory.write(o.resource.base, data.data(), data.size() * sizeof(T));
  }
  std::array<uint32_t, 4> at(float x, float y = 0, float z = 0, int32_t layer = 0) const {
    tex::TexCoord c;
    c.f = {x, y, z};
    c.layer = layer;
    return tex::sample(o, memory, c).v;
  }
  float f(float x, float y = 0, float z = 0, int32_t layer = 0) const {
    return as_float(at(x, y, z, layer)[0]);
  }
};

const TexelFormat kF32{1, 32, ChannelKind::Float};

TEST(TextureSampling, PointSamplingTakesTheTexelTheCoordinateFallsIn) {
  TexFixture t(TexShape::D1, kF32, std::vector<float>{10, 20, 30, 40}, 4);
  EXPECT_EQ(t.f(0.0f), 10);
  EXPECT_EQ(t.f(1.99f), 20);
  EXPECT_EQ(t.f(3.5f), 40);
  tex::TexCoord c;
  c.f = {2.5f, 0, 0};
  EXPECT_EQ(tex::sample(t.o, t.memory, c).address,
            t.o.resource.base + 8);  // the access the timing model sees
}

TEST(TextureSampling, LinearFilterWeightIsNineBitFixedPoint) {
  TexFixture t(TexShape::D1, kF32, std::vector<float>{0, 1}, 2);
  t.o.sampler.linear_filter = true;
  // x = 0.5 + 1/3: xB = 1/3, a = 85.33/256 held as 85/256.
  EXPECT_EQ(t.f(0.5f + 1.0f / 3.0f), 85.0f / 256.0f);
  EXPECT_EQ(t.f(1.0f), 0.5f);  // halfway between the texel centres
  EXPECT_EQ(t.f(0.5f), 0.0f);  // on texel 0's centre
}

TEST(TextureSampling, BilinearFilterWeighsFourTexels) {
  TexFixture t(TexShape::D2, kF32, std::vector<float>{0, 4, 8, 12}, 2, 2);  // rows {0, 4}, {8, 12}
  t.o.sampler.linear_filter = true;
  // (0.75, 1.25): a = 0.25, b = 0.75: 0.25*0.25*4 + 0.75*0.75*8 + 0.25*0.75*12 = 7.
  EXPECT_EQ(t.f(0.75f, 1.25f), 7.0f);
}

TEST(TextureSampling, AddressModesWithNormalisedCoordinates) {
  TexFixture t(TexShape::D1, kF32, std::vector<float>{10, 20, 30, 40}, 4);
  t.o.sampler.normalized_coords = true;
  t.o.sampler.border = {7, 0, 0, 0};
  const float x = 1.25f;  // texel 5
  t.o.sampler.address[0] = AddressMode::Wrap;
  EXPECT_EQ(t.f(x), 20);  // 5 mod 4
  t.o.sampler.address[0] = AddressMode::Clamp;
  EXPECT_EQ(t.f(x), 40);
  t.o.sampler.address[0] = AddressMode::Mirror;
  EXPECT_EQ(t.f(x), 30);  // 4 5 6 7 mirror to 3 2 1 0
  t.o.sampler.address[0] = AddressMode::Border;
  EXPECT_EQ(t.f(x), 7);
  t.o.sampler.address[0] = AddressMode::Wrap;
  EXPECT_EQ(t.f(-0.125f), 40);  // texel -0.5 -> -1 -> 3
}

TEST(TextureSampling, WrapAndMirrorActAsClampWithoutNormalisedCoordinates) {
  TexFixture t(TexShape::D1, kF32, std::vector<float>{10, 20, 30, 40}, 4);
  t.o.sampler.address[0] = AddressMode::Wrap;
  EXPECT_EQ(t.f(5.0f), 40);
  t.o.sampler.address[0] = AddressMode::Mirror;
  EXPECT_EQ(t.f(-3.0f), 10);
}

TEST(TextureSampling, LinearFilterWrapsBetweenTheLastAndFirstTexel) {
  TexFixture t(TexShape::D1, kF32, std::vector<float>{10, 20, 30, 40}, 4);
  t.o.sampler.normalized_coords = true;
  t.o.sampler.linear_filter = true;
  EXPECT_EQ(t.f(0.0f), 25.0f);  // xB = -0.5: texels 3 and 0, half each
}

TEST(TextureSampling, ReadModeNormalisedFloatMapsIntegers) {
  TexFixture u(TexShape::D1, TexelFormat{1, 8, ChannelKind::Unsigned},
               std::vector<uint8_t>{255, 128, 0}, 3);
  u.o.sampler.normalized_float = true;
  EXPECT_EQ(u.f(0), 1.0f);
  EXPECT_EQ(u.f(1), float(128.0 / 255.0));
  TexFixture s(TexShape::D1, TexelFormat{1, 16, ChannelKind::Signed},
               std::vector<int16_t>{-32768, -32767, 16384}, 3);
  s.o.sampler.normalized_float = true;
  EXPECT_EQ(s.f(0), -1.0f);
  EXPECT_EQ(s.f(1), -1.0f);
  EXPECT_EQ(s.f(2), float(16384.0 / 32767.0));
}

TEST(TextureSampling, ElementTypeIntegersAreNotFilteredAndSignExtended) {
  TexFixture t(TexShape::D1, TexelFormat{2, 8, ChannelKind::Signed},
               std::vector<int8_t>{-3, 5, 100, 7}, 2);
  t.o.sampler.linear_filter = true;  // ignored for integer results
  const auto v = t.at(1.0f);         // texel 1 (not a blend of 0 and 1)
  EXPECT_EQ(int32_t(v[0]), 100);
  EXPECT_EQ(int32_t(v[1]), 7);
  EXPECT_EQ(v[2], 0u);
  EXPECT_EQ(v[3], 1u);  // missing alpha reads 1
  EXPECT_EQ(int32_t(t.at(0.0f)[0]), -3);
}

TEST(TextureSampling, HalfChannelsReadAsFloats) {
  TexFixture t(TexShape::D1, TexelFormat{2, 16, ChannelKind::Float},
               std::vector<uint16_t>{0x3C00, 0xC000}, 1);
  const auto v = t.at(0.0f);
  EXPECT_EQ(as_float(v[0]), 1.0f);
  EXPECT_EQ(as_float(v[1]), -2.0f);
  EXPECT_EQ(as_float(v[2]), 0.0f);
  EXPECT_EQ(as_float(v[3]), 1.0f);
}

TEST(TextureSampling, IntegerCoordinatesOfLinearMemoryReadZeroOutside) {
  TexFixture t(TexShape::Linear, kF32, std::vector<float>{1, 2, 3}, 3);
  tex::TexCoord c;
  c.integer = true;
  c.i = {2, 0, 0};
  EXPECT_EQ(as_float(tex::sample(t.o, t.memory, c).v[0]), 3.0f);
  c.i = {3, 0, 0};
  const tex::Fetch out = tex::sample(t.o, t.memory, c);
  EXPECT_EQ(as_float(out.v[0]), 0.0f);
  EXPECT_EQ(out.address, 0u);  // nothing read
}

TEST(TextureSampling, ThreeDimensionalAndLayeredResources) {
  std::vector<float> d(2 * 2 * 3);
  for (size_t i = 0; i < d.size(); ++i) d[i] = float(i);
  TexFixture v(TexShape::D3, kF32, d, 2, 2, 3);
  EXPECT_EQ(v.f(1.5f, 0.5f, 2.5f), 9.0f);  // z 2, y 0, x 1
  TexFixture l(TexShape::Layered2D, kF32, d, 2, 2, 3);
  EXPECT_EQ(l.f(0.5f, 1.5f, 0, 1), 6.0f);   // layer 1, y 1, x 0
  EXPECT_EQ(l.f(0.5f, 1.5f, 0, 9), 10.0f);  // the layer is clamped
}

TEST(TextureSampling, CubeMapSelectsTheFaceOfTheMajorAxis) {
  std::vector<float> d(6 * 4);
  for (size_t i = 0; i < d.size(); ++i) d[i] = float(i);  // face f: 4f..4f+3 (2x2)
  TexFixture c(TexShape::Cube, kF32, d, 2, 2, 6);
  // +x face 0: s = -z, t = -y; direction (1, -0.5, -0.5): s = 0.5, t = 0.5 -> u = v = 0.75: texel
  // (1, 1).
  EXPECT_EQ(c.f(1.0f, -0.5f, -0.5f), 3.0f);
  // -z face 5: s = -x, t = -y; (0.5, 0.5, -1): u = 0.25, v = 0.25: texel (0, 0) of face 5.
  EXPECT_EQ(c.f(0.5f, 0.5f, -1.0f), 20.0f);
  // +y face 2: s = x, t = z; (-0.5, 1, 0.5): u = 0.25, v = 0.75: texel (0, 1).
  EXPECT_EQ(c.f(-0.5f, 1.0f, 0.5f), 10.0f);
}

TEST(TextureSampling, GatherReturnsTheBilinearFootprintCounterClockwiseFromLowerLeft) {
  TexFixture t(TexShape::D2, TexelFormat{2, 32, ChannelKind::Float},
               std::vector<float>{1, 10, 2, 20, 3, 30, 4, 40}, 2, 2);
  tex::TexCoord c;
  c.f = {1.0f, 1.0f, 0};
  const auto r = tex::gather(t.o, t.memory, c, 0).v;
  EXPECT_EQ(as_float(r[0]), 3.0f);                                    // (i, j+1)
  EXPECT_EQ(as_float(r[1]), 4.0f);                                    // (i+1, j+1)
  EXPECT_EQ(as_float(r[2]), 2.0f);                                    // (i+1, j)
  EXPECT_EQ(as_float(r[3]), 1.0f);                                    // (i, j)
  EXPECT_EQ(as_float(tex::gather(t.o, t.memory, c, 1).v[0]), 30.0f);  // channel g
}

TEST(TextureSampling, TxqReportsTheObjectsProperties) {
  TexFixture t(TexShape::Layered2D, TexelFormat{4, 8, ChannelKind::Unsigned},
               std::vector<uint8_t>(4 * 3 * 2 * 5), 3, 2, 5);
  t.o.sampler.normalized_float = true;
  t.o.sampler.linear_filter = true;
  t.o.sampler.address = {AddressMode::Clamp, AddressMode::Mirror, AddressMode::Border};
  EXPECT_EQ(tex::query(t.o, tex::Query::Width), 3u);
  EXPECT_EQ(tex::query(t.o, tex::Query::Height), 2u);
  EXPECT_EQ(tex::query(t.o, tex::Query::ArraySize), 5u);
  EXPECT_EQ(tex::query(t.o, tex::Query::ChannelDataType), 0x10D2u);  // CL_UNORM_INT8
  EXPECT_EQ(tex::query(t.o, tex::Query::ChannelOrder), 0x10B5u);     // CL_RGBA
  EXPECT_EQ(tex::query(t.o, tex::Query::FilterMode), 1u);
  EXPECT_EQ(tex::query(t.o, tex::Query::AddrMode1), 2u);
  EXPECT_EQ(tex::query(t.o, tex::Query::NormalizedCoords), 0u);
  EXPECT_EQ(tex::query(t.o, tex::Query::NumMipmapLevels), 1u);
}

TEST(TextureSampling, SurfaceOutOfRangeTrapsZeroesOrClamps) {
  TexFixture s(TexShape::D2, kF32, std::vector<float>(4 * 3), 4, 3);
  const uint64_t base = s.o.resource.base;
  uint64_t a = 0;
  ASSERT_TRUE(tex::surface_address(s.o, 12, 2, 0, 4, tex::OutOfRange::Trap, a));
  EXPECT_EQ(a, base + 2 * 16 + 12);
  EXPECT_FALSE(
      tex::surface_address(s.o, 14, 0, 0, 4, tex::OutOfRange::Trap, a));  // crosses the row's end
  EXPECT_FALSE(tex::surface_address(s.o, 0, 3, 0, 4, tex::OutOfRange::Zero, a));
  ASSERT_TRUE(tex::surface_address(s.o, 100, -5, 0, 4, tex::OutOfRange::Clamp, a));
  EXPECT_EQ(a, base + 12);  // last element of row 0
}

}  // namespace
}  // namespace gputlm::func
