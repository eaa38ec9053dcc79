// The CUDA 13.0 driver API's CUDA-array, copy and texture-object structures (cuda.h:
// CUDA_ARRAY_DESCRIPTOR, CUDA_ARRAY3D_DESCRIPTOR, CUDA_MEMCPY2D, CUDA_MEMCPY3D, CUDA_RESOURCE_DESC,
// CUDA_TEXTURE_DESC) declared bit for bit, the enumeration values read from them, and their
// conversion to the runtime's structures (texture_abi.h), on which the driver's calls run.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/texture_abi.h"

namespace gputlm::runtime {

// CUarray_format values with a runtime channel format (others, such as the block-compressed and
// video formats, are not implemented).
enum ArrayFormat : int {
  kFormatUnsigned8 = 0x01,
  kFormatUnsigned16 = 0x02,
  kFormatUnsigned32 = 0x03,
  kFormatSigned8 = 0x08,
  kFormatSigned16 = 0x09,
  kFormatSigned32 = 0x0a,
  kFormatHalf = 0x10,
  kFormatFloat = 0x20,
};
// CUmemorytype.
enum DriverMemoryType : int {
  kMemoryTypeHost = 1,
  kMemoryTypeDevice = 2,
  kMemoryTypeArray = 3,
  kMemoryTypeUnified = 4
};
// CUDA_TEXTURE_DESC::flags (CU_TRSF_*).
enum TextureFlags : unsigned {
  kTrsfReadAsInteger = 0x01,
  kTrsfNormalizedCoordinates = 0x02,
  kTrsfSrgb = 0x10,
  kTrsfDisableTrilinearOptimization = 0x20,
  kTrsfSeamlessCubemap = 0x40
};

struct ArrayDescriptor {
  size_t Width, Height;
  int Format;  // ArrayFormat
  unsigned NumChannels;
};
static_assert(sizeof(ArrayDescriptor) == 24);

struct Array3DDescriptor {
  size_t Width, Height, Depth;
  int Format;
  unsigned NumChannels, Flags;  // Flags: CUDA_ARRAY3D_* (the runtime's ArrayFlags values)
};
static_assert(sizeof(Array3DDescriptor) == 40);

struct Memcpy2D {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void* srcHost;
  uint64_t srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void* dstHost;
  uint64_t dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};
static_assert(sizeof(Memcpy2D) == 128);

struct Memcpy3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  uint64_t srcDevice;
  void* srcArray;
  void* reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  uint64_t dstDevice;
  void* dstArray;
  void* reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};
static_assert(sizeof(Memcpy3D) == 200 && offsetof(Memcpy3D, WidthInBytes) == 176);

struct DriverResourceDesc {
  int resType;  // the runtime's ResourceType values
  union {
    struct {
      void* hArray;
    } array;
    struct {
      void* hMipmappedArray;
    } mipmap;
    struct {
      uint64_t devPtr;
      int format;
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      uint64_t devPtr;
      int format;
      unsigned numChannels;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[32];
  } res;
  unsigned flags;
};
static_assert(sizeof(DriverResourceDesc) == 144 && offsetof(DriverResourceDesc, flags) == 136);

struct DriverTextureDesc {
  int addressMode[3];  // CUaddress_mode: the runtime's values
  int filterMode;      // CUfilter_mode: the runtime's values
  unsigned flags;      // TextureFlags
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};
static_assert(sizeof(DriverTextureDesc) == 104);

// The runtime channel descriptor of `channels` channels of `format`; false for a format the
// runtime has none for or a channel count other than 1, 2 or 4 (CUDA_ERROR_INVALID_VALUE).
bool channel_desc(int format, unsigned channels, ChannelFormatDesc& out);
// The reverse (cuArrayGetDescriptor, cuTexObjectGetResourceDesc).
void array_format(const ChannelFormatDesc& desc, int& format, unsigned& channels);
// The runtime's descriptor of a driver resource descriptor; false for a format channel_desc()
// rejects.
bool runtime_resource(const DriverResourceDesc& d, ResourceDesc& out);
// The runtime's texture descriptor of a driver one sampling texels of `format`. Read mode (cuda.h,
// CU_TRSF_READ_AS_INTEGER): the driver promotes 8- and 16-bit integers to normalised floats unless
// the flag is set; 32-bit integers are never promoted.
void runtime_texture(const DriverTextureDesc& d, const ChannelFormatDesc& format, TextureDesc& out);
// The driver's resource descriptor of a runtime one made by runtime_resource().
void driver_resource(const ResourceDesc& r, DriverResourceDesc& out);

}  // namespace gputlm::runtime
