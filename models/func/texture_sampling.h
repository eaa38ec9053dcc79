// What a texture or surface instruction reads and writes, as pure functions of an object
// (texture_table.h) and global memory: the PTX ISA's tex, tld4, txq, suld.b and sust.b, with the
// sampling rules of the CUDA programming guide's "Texture Fetching" appendix:
//  - point sampling: T[floor(x)];
//  - linear filtering: xB = x - 0.5, i = floor(xB), a = frac(xB) held in 9-bit fixed point with 8
//    fractional bits (rounded to the nearest 1/256: gputlm's choice, the guide does not say how
//    the fraction is rounded), (1 - a) T[i] + a T[i+1] per dimension;
//  - normalised coordinates are scaled by the size first; address modes act on each texel index:
//    wrap (i mod N), mirror, clamp (to [0, N-1]), border (the border colour); wrap and mirror
//    need normalised coordinates and act as clamp without them;
//  - cudaReadModeNormalizedFloat maps 8- and 16-bit integers to [0, 1] (unsigned) or [-1, 1];
//    16-bit float channels are halves; missing channels read 0, alpha 1 (as OpenCL's images);
//  - integer coordinates (tex .s32) are texel indices, never filtered; a linear-memory resource
//    (tex1Dfetch) reads 0 out of range;
//  - a texture that returns integers (cudaReadModeElementType of an integer format) is sampled
//    at the nearest texel even with cudaFilterModeLinear (the guide allows linear filtering only
//    for float results);
//  - cube maps: the face and face coordinates of the guide's "Cubemap Textures" table, clamped.
// Mip levels: resources have one level, so tex.level and tex.grad read level 0.
#pragma once

#include <array>
#include <cstdint>

#include "models/func/global_memory.h"
#include "models/func/texture_table.h"

namespace gputlm::func::tex {

// A fetch's coordinates: f (floats) or i (texel indices, when `integer`), the layer of a
// layered resource (a layered cube: the cube), the three components of a cube map's direction.
struct TexCoord {
  std::array<float, 3> f{};
  std::array<int32_t, 3> i{};
  bool integer = false;
  int32_t layer = 0;
};

// Four 32-bit results (f32 bits for float-valued textures, else integers) and the address of the
// first texel read (0 when every texel was outside: border colour or zero).
struct Fetch {
  std::array<uint32_t, 4> v{};
  uint64_t address = 0;
};

// Whether the object's fetches return floats (float channels or normalised integer reads).
bool returns_float(const TextureObject& o);

// tex: a sample at `c` (1, 2 or 3 coordinates as the resource's shape has them).
Fetch sample(const TextureObject& o, const GlobalMemory& memory, const TexCoord& c);
// tld4.{r,g,b,a}.2d: channel `comp` of the four texels linear filtering at (x, y) would read,
// in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j) (counter-clockwise from the lower left).
Fetch gather(const TextureObject& o, const GlobalMemory& memory, const TexCoord& c, unsigned comp);

// txq queries (PTX ISA "txq"); channel types and orders as the OpenCL values the PTX ISA uses,
// filter and address modes as CUDA's enumerations.
enum class Query : uint8_t {
  Width,
  Height,
  Depth,
  ChannelDataType,
  ChannelOrder,
  NormalizedCoords,
  FilterMode,
  AddrMode0,
  AddrMode1,
  AddrMode2,
  NumMipmapLevels,
  NumSamples,
  ArraySize,
  MemoryLayout  // suq: 1 for a surface in linear memory, 0 for a CUDA array
};
uint32_t query(const TextureObject& o, Query q);

// suld.b / sust.b: x in bytes, y and z (the depth, or the layer of a layered surface) in rows
// and slices. Out of range: Trap (the caller faults), Zero (loads read 0, stores are dropped) or
// Clamp (the nearest location in range).
enum class OutOfRange : uint8_t { Trap, Clamp, Zero };
// The address of `bytes` bytes at (x, y, z); false when outside and not clamped.
bool surface_address(const TextureObject& o, int64_t x, int64_t y, int64_t z, uint32_t bytes,
                     OutOfRange mode, uint64_t& address);

}  // namespace gputlm::func::tex
