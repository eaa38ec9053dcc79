// CUDA arrays (cudaMallocArray, cudaMalloc3DArray) and the program's texture and surface objects
// as the runtime keeps them. An array's texels live in device memory (DeviceMemory), row-linear
// as func::TexResource describes: rows of width texels unpadded, then the rows of the next
// depth slice, layer or cube face (texture_table.h). Its handle (cudaArray_t) is the address of
// the host-side record, never a device address. Texture objects keep the descriptors they were
// made from for cudaGetTextureObjectResourceDesc / TextureDesc.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "models/func/texture_table.h"
#include "runtime/cuda_abi.h"
#include "runtime/device_memory.h"
#include "runtime/texture_abi.h"

namespace gputlm::runtime {

struct CudaArray {
  ChannelFormatDesc desc{};
  Extent extent{};  // as given (cudaMallocArray's height 0 and a 2D array's depth 0 kept)
  unsigned flags = 0;
  func::TexResource resource;  // where and how its texels lie
};

// The texel format a channel descriptor describes; false when CUDA rejects it (channels not
// x, then y, z, w; different widths; widths other than 8, 16, 32; 8-bit floats; kind none).
bool texel_format(const ChannelFormatDesc& d, func::TexelFormat& out);
// The resource shape of an array made with `extent` and `flags`; false for a combination CUDA
// rejects (a cube map that is not w x w x 6n, a layered array without layers, a 3D array of
// height 0).
bool array_shape(const Extent& extent, unsigned flags, func::TexShape& out);

class CudaArrays {
 public:
  // Registers an array; its handle.
  void* add(std::unique_ptr<CudaArray> array);
  CudaArray* find(const void* handle);
  // The array's record, removed; nullptr when `handle` is no live array.
  std::unique_ptr<CudaArray> remove(const void* handle);

 private:
  std::map<const void*, std::unique_ptr<CudaArray>> m_arrays;
};

// cudaMalloc3DArray / cuArray3DCreate after their flags are checked: an array of `desc` texels
// shaped by `extent` and `flags`, its texels in `memory`, registered in `arrays`.
// kErrorInvalidValue for a format or shape CUDA rejects, kErrorMemoryAllocation past the capacity.
CudaError make_array(CudaArrays& arrays, DeviceMemory& memory, void** handle,
                     const ChannelFormatDesc* desc, Extent extent, unsigned flags);
// cudaFreeArray / cuArrayDestroy of a live array (kErrorInvalidValue when `handle` is none).
CudaError free_array(CudaArrays& arrays, DeviceMemory& memory, void* handle);
// The device address of byte `x_bytes` of row `y` of slice `z` of `a` when a region of
// `width_bytes` x `height` x `depth` starting there stays inside the array; 0 when it leaves it.
uint64_t array_region(const CudaArray& a, size_t x_bytes, size_t y, size_t z, size_t width_bytes,
                      size_t height, size_t depth);

struct ObjectDescs {
  ResourceDesc resource{};
  TextureDesc texture{};
};

}  // namespace gputlm::runtime
