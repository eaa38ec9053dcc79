// The CUDA 13.0 runtime's texture, surface and CUDA-array structures (driver_types.h,
// texture_types.h), declared here bit for bit so that the library builds without the toolkit:
// cudaChannelFormatDesc, cudaResourceDesc, cudaTextureDesc, and the enumeration values the
// runtime reads from them.
#pragma once

#include <cstddef>

namespace gputlm::runtime {

// cudaChannelFormatKind values this runtime accepts.
enum ChannelKindAbi : int {
  kChannelSigned = 0,
  kChannelUnsigned = 1,
  kChannelFloat = 2,
  kChannelNone = 3
};

struct ChannelFormatDesc {
  int x, y, z, w;  // bits per channel
  int f;           // cudaChannelFormatKind
};
static_assert(sizeof(ChannelFormatDesc) == 20);

// cudaArray flags (cudaMalloc3DArray).
enum ArrayFlags : unsigned {
  kArrayLayered = 1,
  kArraySurfaceLoadStore = 2,
  kArrayCubemap = 4,
  kArrayTextureGather = 8
};

// cudaResourceType.
enum ResourceType : int {
  kResourceArray = 0,
  kResourceMipmappedArray = 1,
  kResourceLinear = 2,
  kResourcePitch2D = 3
};

struct ResourceDesc {
  int resType;
  union {
    struct {
      void* array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      ChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      ChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[32];
  } res;
  unsigned flags;
};
static_assert(sizeof(ResourceDesc) == 144 && offsetof(ResourceDesc, flags) == 136);
static_assert(offsetof(ResourceDesc, res.pitch2D.pitchInBytes) == 56);

// cudaTextureDesc (cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode as ints).
struct TextureDesc {
  int addressMode[3];
  int filterMode;
  int readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
static_assert(sizeof(TextureDesc) == 72);

}  // namespace gputlm::runtime
