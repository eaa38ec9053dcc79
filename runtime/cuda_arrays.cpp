#include "runtime/cuda_arrays.h"

namespace gputlm::runtime {

bool texel_format(const ChannelFormatDesc& d, func::TexelFormat& out) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  unsigned channels = 0;
  while (channels < 4 && bits[channels] != 0) ++channels;
  for (unsigned i = channels; i < 4; ++i)
    if (bits[i] != 0) return false;  // a gap: y set without x, ...
  if (channels == 0 || channels == 3) return false;
  for (unsigned i = 1; i < channels; ++i)
    if (bits[i] != bits[0]) return false;
  if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32) return false;
  switch (d.f) {
    case kChannelSigned:
      out.kind = func::ChannelKind::Signed;
      break;
    case kChannelUnsigned:
      out.kind = func::ChannelKind::Unsigned;
      break;
    case kChannelFloat:
      if (bits[0] == 8) return false;
      out.kind = func::ChannelKind::Float;
      break;
    default:
      return false;
  }
  out.channels = static_cast<uint8_t>(channels);
  out.bits = static_cast<uint8_t>(bits[0]);
  return true;
}

bool array_shape(const Extent& e, unsigned flags, func::TexShape& out) {
  using func::TexShape;
  if (e.width == 0) return false;
  const bool layered = flags & kArrayLayered, cube = flags & kArrayCubemap;
  if (cube) {
    if (e.width != e.height || e.depth == 0 || e.depth % 6 != 0 || (!layered && e.depth != 6))
      return false;
    out = layered ? TexShape::LayeredCube : TexShape::Cube;
    return true;
  }
  if (layered) {
    if (e.depth == 0) return false;
    out = e.height == 0 ? TexShape::Layered1D : TexShape::Layered2D;
    return true;
  }
  if (e.depth != 0 && e.height == 0) return false;
  out = e.depth != 0 ? TexShape::D3 : e.height != 0 ? TexShape::D2 : TexShape::D1;
  return true;
}

CudaError make_array(CudaArrays& arrays, DeviceMemory& memory, void** handle,
                     const ChannelFormatDesc* desc, Extent extent, unsigned flags) {
  if (!handle || !desc) return kErrorInvalidValue;
  auto a = std::make_unique<CudaArray>();
  func::TexResource& r = a->resource;
  if (!texel_format(*desc, r.format) || !array_shape(extent, flags, r.shape))
    return kErrorInvalidValue;
  a->desc = *desc;
  a->extent = extent;
  a->flags = flags;
  r.width = static_cast<uint32_t>(extent.width);
  r.height = static_cast<uint32_t>(extent.height ? extent.height : 1);
  const bool third_is_depth = r.shape == func::TexShape::D3;
  r.depth = third_is_depth ? static_cast<uint32_t>(extent.depth) : 1;
  r.layers = r.shape == func::TexShape::LayeredCube ? static_cast<uint32_t>(extent.depth / 6)
             : third_is_depth                       ? 1
                              : static_cast<uint32_t>(extent.depth ? extent.depth : 1);
  r.row_pitch = uint64_t{r.width} * r.format.bytes();
  r.slice_pitch = r.row_pitch * r.height;
  r.base = memory.allocate(r.slice_pitch * r.slices(), false);
  if (!r.base) return kErrorMemoryAllocation;
  *handle = arrays.add(std::move(a));
  return kSuccess;
}

CudaError free_array(CudaArrays& arrays, DeviceMemory& memory, void* handle) {
  std::unique_ptr<CudaArray> a = arrays.remove(handle);
  if (!a) return kErrorInvalidValue;
  return memory.free(a->resource.base);
}

uint64_t array_region(const CudaArray& a, size_t x_bytes, size_t y, size_t z, size_t width_bytes,
                      size_t height, size_t depth) {
  const func::TexResource& r = a.resource;
  if (x_bytes + width_bytes > r.row_pitch || y + height > r.height || z + depth > r.slices())
    return 0;
  return r.base + z * r.slice_pitch + y * r.row_pitch + x_bytes;
}

void* CudaArrays::add(std::unique_ptr<CudaArray> array) {
  void* handle = array.get();
  m_arrays.emplace(handle, std::move(array));
  return handle;
}

CudaArray* CudaArrays::find(const void* handle) {
  const auto it = m_arrays.find(handle);
  return it == m_arrays.end() ? nullptr : it->second.get();
}

std::unique_ptr<CudaArray> CudaArrays::remove(const void* handle) {
  const auto it = m_arrays.find(handle);
  if (it == m_arrays.end()) return nullptr;
  std::unique_ptr<CudaArray> a = std::move(it->second);
  m_arrays.erase(it);
  return a;
}

}  // namespace gputlm::runtime
