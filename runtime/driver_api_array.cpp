// The driver API's CUDA arrays (cuArrayCreate, cuArray3DCreate, cuArrayDestroy, their
// descriptors) and copies (cuMemcpy2D, cuMemcpy3D and their Async and Unaligned forms,
// cuMemcpy{HtoA,AtoH,AtoD,DtoA}), on the runtime's arrays (cuda_arrays.h) and pitched copies
// (pitched_copy.h): a driver array is a runtime array, its format a runtime channel descriptor
// (driver_array_abi.h). Copies take host, device, unified and array memory on either side; array
// positions are in bytes across a row (XInBytes) and in rows and slices. Async forms run at once
// (streams are serialised); on a capturing stream they are not implemented (exit 2).
#include <cstdint>
#include <cstdio>
#include <string>

#include "runtime/api_support.h"
#include "runtime/driver_array_abi.h"
#include "runtime/driver_support.h"
#include "runtime/graph_state.h"
#include "runtime/pitched_copy.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

Runtime& rt() { return Runtime::get(); }
CudaArray* array(const void* handle) { return rt().arrays().find(handle); }

// cuda.h CUDA_ARRAY3D_*: the runtime's flags, and those it has no model for.
constexpr unsigned kKnownArrayFlags =
    kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap | kArrayTextureGather;

int create(const char* api, void** handle, size_t w, size_t h, size_t d, int format,
           unsigned channels, unsigned flags) {
  return driver(api, [&] {
    if (flags & ~kKnownArrayFlags) {
      char text[16];
      std::snprintf(text, sizeof text, "0x%x", flags & ~kKnownArrayFlags);
      not_implemented(std::string(api) + " with flags " + text + " (CUDA_ARRAY3D_*)");
    }
    ChannelFormatDesc desc{};
    if (!handle || !channel_desc(format, channels, desc)) return kErrorInvalidValue;
    return make_array(rt().arrays(), rt().memory(), handle, &desc, Extent{w, h, d}, flags);
  });
}

// One side of a copy: its first byte, row pitch and slice pitch; whether it is host memory.
struct Side {
  char* ptr = nullptr;
  size_t pitch = 0, slice = 0;
  int type = 0;
};
// The side of memory type `type` at (x bytes, y, z) of a copy of width x height x depth;
// false for a bad type or a region outside the array.
bool side(int type, const void* host, uint64_t device, void* handle, size_t pitch, size_t rows,
          size_t x, size_t y, size_t z, size_t width, size_t height, size_t depth, Side& s) {
  s.type = type;
  switch (type) {
    case kMemoryTypeHost:
    case kMemoryTypeDevice:
    case kMemoryTypeUnified: {
      const uint64_t base = type == kMemoryTypeHost ? reinterpret_cast<uint64_t>(host) : device;
      s.ptr = reinterpret_cast<char*>(base + (z * rows + y) * pitch + x);
      s.pitch = pitch;
      s.slice = pitch * rows;
      return true;
    }
    case kMemoryTypeArray: {
      const CudaArray* a = array(handle);
      const uint64_t at = a ? array_region(*a, x, y, z, width, height, depth) : 0;
      if (!at) return false;
      s.ptr = reinterpret_cast<char*>(at);
      s.pitch = a->resource.row_pitch;
      s.slice = a->resource.slice_pitch;
      return true;
    }
    default:
      return false;
  }
}

// The runtime's copy kind of a copy between the two memory types (unified: from the addresses).
MemcpyKind kind_of(int src, int dst) {
  if (src == kMemoryTypeUnified || dst == kMemoryTypeUnified) return kDefault;
  const bool from_host = src == kMemoryTypeHost, to_host = dst == kMemoryTypeHost;
  return from_host ? (to_host ? kHostToHost : kHostToDevice)
                   : (to_host ? kDeviceToHost : kDeviceToDevice);
}

CudaError copy(const Side& s, const Side& d, size_t width, size_t height, size_t depth) {
  const CudaError e = copy_rows(rt().memory(), d.ptr, d.pitch, d.slice, s.ptr, s.pitch, s.slice,
                                width, height, depth, kind_of(s.type, d.type));
  return e == kErrorInvalidPitchValue ? kErrorInvalidValue : e;  // cuda.h: CUDA_ERROR_INVALID_VALUE
}

// An Async form: as the synchronous one unless the stream is capturing.
void no_capture(const char* api, void* stream) {
  if (capturing(stream)) not_implemented(std::string(api) + " on a capturing stream");
}

int memcpy_2d(const char* api, const Memcpy2D* p, void* stream = nullptr) {
  return driver(api, [&] {
    no_capture(api, stream);
    if (!p) return kErrorInvalidValue;
    Side s, d;
    if (!side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, 0,
              p->srcXInBytes, p->srcY, 0, p->WidthInBytes, p->Height, 1, s) ||
        !side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, 0,
              p->dstXInBytes, p->dstY, 0, p->WidthInBytes, p->Height, 1, d))
      return kErrorInvalidValue;
    return copy(s, d, p->WidthInBytes, p->Height, 1);
  });
}

int memcpy_3d(const char* api, const Memcpy3D* p, void* stream = nullptr) {
  return driver(api, [&] {
    no_capture(api, stream);
    // cuda.h: srcLOD, dstLOD, reserved0 and reserved1 must be zero.
    if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1) return kErrorInvalidValue;
    Side s, d;
    if (!side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight,
              p->srcXInBytes, p->srcY, p->srcZ, p->WidthInBytes, p->Height, p->Depth, s) ||
        !side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight,
              p->dstXInBytes, p->dstY, p->dstZ, p->WidthInBytes, p->Height, p->Depth, d))
      return kErrorInvalidValue;
    return copy(s, d, p->WidthInBytes, p->Height, p->Depth);
  });
}

// A linear run of `bytes` at byte `offset` of an array (its rows and slices lie back to back); 0
// when it leaves the array.
uint64_t linear(void* handle, size_t offset, size_t bytes) {
  const CudaArray* a = array(handle);
  if (!a) return 0;
  const gputlm::func::TexResource& r = a->resource;
  return offset + bytes <= r.slice_pitch * r.slices() && offset + bytes >= offset ? r.base + offset
                                                                                  : 0;
}

void* at(uint64_t address) { return reinterpret_cast<void*>(address); }

// A copy of `bytes` between byte `offset` of array `handle` and `other` (host or device memory).
int array_copy(const char* api, void* handle, size_t offset, const void* other, size_t bytes,
               bool to_array, MemcpyKind kind) {
  return driver(api, [&] {
    void* a = at(linear(handle, offset, bytes));
    if (!a || !other) return kErrorInvalidValue;
    return to_array ? rt().memory().copy(a, other, bytes, kind)
                    : rt().memory().copy(const_cast<void*>(other), a, bytes, kind);
  });
}

}  // namespace

extern "C" {

int cuArrayCreate_v2(void** handle, const ArrayDescriptor* d) {
  if (!d) return kErrorInvalidValue;
  return create("cuArrayCreate", handle, d->Width, d->Height, 0, d->Format, d->NumChannels, 0);
}

int cuArray3DCreate_v2(void** handle, const Array3DDescriptor* d) {
  if (!d) return kErrorInvalidValue;
  return create("cuArray3DCreate", handle, d->Width, d->Height, d->Depth, d->Format, d->NumChannels,
                d->Flags);
}

int cuArrayDestroy(void* handle) {
  return driver("cuArrayDestroy", [&] {
    return free_array(rt().arrays(), rt().memory(), handle) == kSuccess ? kSuccess
                                                                        : kDriverInvalidHandle;
  });
}

int cuArrayGetDescriptor_v2(ArrayDescriptor* out, void* handle) {
  return driver("cuArrayGetDescriptor", [&] {
    const CudaArray* a = array(handle);
    if (!a) return kDriverInvalidHandle;
    if (!out) return kErrorInvalidValue;
    out->Width = a->extent.width;
    out->Height = a->extent.height;
    array_format(a->desc, out->Format, out->NumChannels);
    return kSuccess;
  });
}

int cuArray3DGetDescriptor_v2(Array3DDescriptor* out, void* handle) {
  return driver("cuArray3DGetDescriptor", [&] {
    const CudaArray* a = array(handle);
    if (!a) return kDriverInvalidHandle;
    if (!out) return kErrorInvalidValue;
    out->Width = a->extent.width;
    out->Height = a->extent.height;
    out->Depth = a->extent.depth;
    out->Flags = a->flags;
    array_format(a->desc, out->Format, out->NumChannels);
    return kSuccess;
  });
}

int cuMemcpy2D_v2(const Memcpy2D* p) { return memcpy_2d("cuMemcpy2D", p); }
int cuMemcpy2DUnaligned_v2(const Memcpy2D* p) { return memcpy_2d("cuMemcpy2DUnaligned", p); }
int cuMemcpy2DAsync_v2(const Memcpy2D* p, void* stream) {
  return memcpy_2d("cuMemcpy2DAsync", p, stream);
}
int cuMemcpy3D_v2(const Memcpy3D* p) { return memcpy_3d("cuMemcpy3D", p); }
int cuMemcpy3DAsync_v2(const Memcpy3D* p, void* stream) {
  return memcpy_3d("cuMemcpy3DAsync", p, stream);
}

int cuMemcpyHtoA_v2(void* dst, size_t offset, const void* src, size_t bytes) {
  return array_copy("cuMemcpyHtoA", dst, offset, src, bytes, true, kHostToDevice);
}
int cuMemcpyAtoH_v2(void* dst, void* src, size_t offset, size_t bytes) {
  return array_copy("cuMemcpyAtoH", src, offset, dst, bytes, false, kDeviceToHost);
}
int cuMemcpyDtoA_v2(void* dst, size_t offset, uint64_t src, size_t bytes) {
  return array_copy("cuMemcpyDtoA", dst, offset, at(src), bytes, true, kDeviceToDevice);
}
int cuMemcpyAtoD_v2(uint64_t dst, void* src, size_t offset, size_t bytes) {
  return array_copy("cuMemcpyAtoD", src, offset, at(dst), bytes, false, kDeviceToDevice);
}

}  // extern "C"
