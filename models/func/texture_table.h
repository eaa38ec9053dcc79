// The texture and surface objects of one device (CUDA programming guide, "Texture and Surface
// Memory"; runtime API cudaCreateTextureObject / cudaCreateSurfaceObject). A kernel receives an
// object as a 64-bit handle parameter (cudaTextureObject_t, cudaSurfaceObject_t) and names it in
// tex, tld4, txq, suld and sust; the engine looks the handle up here through its func::Launch.
//
// An object's data lives in global memory, so the timing model sees the real addresses of the
// texels it reads. One layout serves CUDA arrays, linear memory and pitched 2D memory: texel
// (x, y, z) is at  base + z * slice_pitch + y * row_pitch + x * texel_bytes,  where z is the depth
// of a 3D resource, the layer of a layered one, and face + 6 * layer of a cube map (faces in
// CUDA's order +x -x +y -y +z -z). A CUDA array is stored row-linearly (rows of width texels,
// unpadded): gputlm's choice; a GPU's block-linear tiling is not modelled.
#pragma once

#include <array>
#include <cstdint>
#include <map>

namespace gputlm::func {

// Channel kinds of cudaChannelFormatDesc (cudaChannelFormatKindSigned/Unsigned/Float).
enum class ChannelKind : uint8_t { Signed, Unsigned, Float };

// A texel's format: `channels` channels of `bits` bits each (8, 16 or 32; floats: 16 = half, 32).
struct TexelFormat {
  uint8_t channels = 1;
  uint8_t bits = 32;
  ChannelKind kind = ChannelKind::Float;
  uint32_t bytes() const { return uint32_t{channels} * bits / 8; }
};

// The shape of a resource: how many coordinates address it and whether it has layers or faces.
enum class TexShape : uint8_t { Linear, D1, D2, D3, Layered1D, Layered2D, Cube, LayeredCube };

struct TexResource {
  TexShape shape = TexShape::D1;
  TexelFormat format;
  uint64_t base = 0;                          // device address of texel (0, 0, 0)
  uint32_t width = 1, height = 1, depth = 1;  // depth: of a 3D resource
  uint32_t layers = 1;                        // of a layered resource (a layered cube: cubes)
  uint64_t row_pitch = 0, slice_pitch = 0;    // bytes
  // z slices of the layout (depth, layers, or 6 * cubes).
  uint32_t slices() const {
    switch (shape) {
      case TexShape::D3:
        return depth;
      case TexShape::Layered1D:
      case TexShape::Layered2D:
        return layers;
      case TexShape::Cube:
        return 6;
      case TexShape::LayeredCube:
        return 6 * layers;
      default:
        return 1;
    }
  }
};

// cudaTextureAddressMode, cudaTextureFilterMode (same values).
enum class AddressMode : uint8_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };

// cudaTextureDesc's sampling state.
struct Sampler {
  std::array<AddressMode, 3> address{AddressMode::Wrap, AddressMode::Wrap, AddressMode::Wrap};
  bool linear_filter = false;     // cudaFilterModeLinear
  bool normalized_float = false;  // cudaReadModeNormalizedFloat (8- and 16-bit integer formats)
  bool normalized_coords = false;
  std::array<float, 4> border{};  // cudaAddressModeBorder's colour
};

struct TextureObject {
  TexResource resource;
  Sampler sampler;
  bool surface = false;  // a surface object (suld/sust), else a texture object (tex/tld4/txq)
};

// The live objects by handle. Handles start at 1 (0 is never a live object) and are not reused.
class TextureTable {
 public:
  uint64_t create(const TextureObject& object) {
    m_objects.emplace(m_next, object);
    return m_next++;
  }
  // False when `handle` is no live object (of the kind `surface` says).
  bool destroy(uint64_t handle, bool surface) {
    const TextureObject* o = find(handle);
    if (!o || o->surface != surface) return false;
    m_objects.erase(handle);
    return true;
  }
  // The live object, or nullptr.
  const TextureObject* find(uint64_t handle) const {
    const auto it = m_objects.find(handle);
    return it == m_objects.end() ? nullptr : &it->second;
  }

 private:
  std::map<uint64_t, TextureObject> m_objects;
  uint64_t m_next = 1;
};

}  // namespace gputlm::func
