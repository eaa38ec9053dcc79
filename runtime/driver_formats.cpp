// The driver API's array formats and resource/texture descriptors as the runtime's
// (driver_array_abi.h).
#include <cstring>

#include "runtime/driver_array_abi.h"

namespace gputlm::runtime {

bool channel_desc(int format, unsigned channels, ChannelFormatDesc& out) {
  int bits = 0, kind = kChannelNone;
  switch (format) {
    case kFormatUnsigned8:
      bits = 8, kind = kChannelUnsigned;
      break;
    case kFormatUnsigned16:
      bits = 16, kind = kChannelUnsigned;
      break;
    case kFormatUnsigned32:
      bits = 32, kind = kChannelUnsigned;
      break;
    case kFormatSigned8:
      bits = 8, kind = kChannelSigned;
      break;
    case kFormatSigned16:
      bits = 16, kind = kChannelSigned;
      break;
    case kFormatSigned32:
      bits = 32, kind = kChannelSigned;
      break;
    case kFormatHalf:
      bits = 16, kind = kChannelFloat;
      break;
    case kFormatFloat:
      bits = 32, kind = kChannelFloat;
      break;
    default:
      return false;
  }
  if (channels != 1 && channels != 2 && channels != 4) return false;
  out = {bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 2 ? bits : 0, kind};
  return true;
}

void array_format(const ChannelFormatDesc& d, int& format, unsigned& channels) {
  channels = d.w ? 4 : d.z ? 3 : d.y ? 2 : 1;
  const bool wide = d.x == 32, narrow = d.x == 8;
  switch (d.f) {
    case kChannelUnsigned:
      format = narrow ? kFormatUnsigned8 : wide ? kFormatUnsigned32 : kFormatUnsigned16;
      break;
    case kChannelSigned:
      format = narrow ? kFormatSigned8 : wide ? kFormatSigned32 : kFormatSigned16;
      break;
    default:
      format = wide ? kFormatFloat : kFormatHalf;
      break;
  }
}

bool runtime_resource(const DriverResourceDesc& d, ResourceDesc& out) {
  std::memset(&out, 0, sizeof out);
  out.resType = d.resType;
  out.flags = d.flags;
  switch (d.resType) {
    case kResourceArray:
      out.res.array.array = d.res.array.hArray;
      return true;
    case kResourceMipmappedArray:
      out.res.mipmap.mipmap = d.res.mipmap.hMipmappedArray;
      return true;
    case kResourceLinear:
      out.res.linear.devPtr = reinterpret_cast<void*>(d.res.linear.devPtr);
      out.res.linear.sizeInBytes = d.res.linear.sizeInBytes;
      return channel_desc(d.res.linear.format, d.res.linear.numChannels, out.res.linear.desc);
    case kResourcePitch2D:
      out.res.pitch2D.devPtr = reinterpret_cast<void*>(d.res.pitch2D.devPtr);
      out.res.pitch2D.width = d.res.pitch2D.width;
      out.res.pitch2D.height = d.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = d.res.pitch2D.pitchInBytes;
      return channel_desc(d.res.pitch2D.format, d.res.pitch2D.numChannels, out.res.pitch2D.desc);
    default:
      return true;  // the runtime rejects the type
  }
}

void runtime_texture(const DriverTextureDesc& d, const ChannelFormatDesc& format,
                     TextureDesc& out) {
  std::memset(&out, 0, sizeof out);
  for (int i = 0; i < 3; ++i) out.addressMode[i] = d.addressMode[i];
  out.filterMode = d.filterMode;
  const bool promoted =
      format.f != kChannelFloat && format.x != 32 && !(d.flags & kTrsfReadAsInteger);
  out.readMode = promoted ? 1 : 0;  // cudaReadModeNormalizedFloat : cudaReadModeElementType
  out.sRGB = (d.flags & kTrsfSrgb) != 0;
  for (int i = 0; i < 4; ++i) out.borderColor[i] = d.borderColor[i];
  out.normalizedCoords = (d.flags & kTrsfNormalizedCoordinates) != 0;
  out.maxAnisotropy = d.maxAnisotropy;
  out.mipmapFilterMode = d.mipmapFilterMode;
  out.mipmapLevelBias = d.mipmapLevelBias;
  out.minMipmapLevelClamp = d.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  out.disableTrilinearOptimization = (d.flags & kTrsfDisableTrilinearOptimization) != 0;
  out.seamlessCubemap = (d.flags & kTrsfSeamlessCubemap) != 0;
}

void driver_resource(const ResourceDesc& r, DriverResourceDesc& out) {
  std::memset(&out, 0, sizeof out);
  out.resType = r.resType;
  out.flags = r.flags;
  switch (r.resType) {
    case kResourceArray:
      out.res.array.hArray = r.res.array.array;
      break;
    case kResourceLinear:
      out.res.linear.devPtr = reinterpret_cast<uint64_t>(r.res.linear.devPtr);
      out.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      array_format(r.res.linear.desc, out.res.linear.format, out.res.linear.numChannels);
      break;
    case kResourcePitch2D:
      out.res.pitch2D.devPtr = reinterpret_cast<uint64_t>(r.res.pitch2D.devPtr);
      out.res.pitch2D.width = r.res.pitch2D.width;
      out.res.pitch2D.height = r.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      array_format(r.res.pitch2D.desc, out.res.pitch2D.format, out.res.pitch2D.numChannels);
      break;
  }
}

}  // namespace gputlm::runtime
