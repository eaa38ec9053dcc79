// Runtime API: CUDA arrays (cudaMallocArray, cudaMalloc3DArray, cudaFreeArray, cudaArrayGetInfo,
// cudaGetChannelDesc, cudaCreateChannelDesc) and the copies to, from and between them (cudaMemcpy
// {2D}{To,From}Array{Async}, cudaMemcpy{2D}ArrayToArray; cudaMemcpy3D in api_memory_3d.cpp). An
// array's texels are in device memory, row-linear (cuda_arrays.h); offsets are in bytes across a
// row (wOffset) and in rows (hOffset), as the API gives them. Async variants run at once.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }

uint64_t rows_of(const gputlm::func::TexResource& r) { return r.height; }
uint64_t row_bytes(const gputlm::func::TexResource& r) {
  return uint64_t{r.width} * r.format.bytes();
}

// A 2D copy of `height` rows of `width` bytes between pitched ranges (one cudaMemcpy a row).
CudaError copy_2d(char* dst, size_t dpitch, const char* src, size_t spitch, size_t width,
                  size_t height, int kind) {
  for (size_t y = 0; y < height; ++y)
    if (const CudaError e = Runtime::get().memory().copy(dst + y * dpitch, src + y * spitch, width,
                                                         static_cast<MemcpyKind>(kind)))
      return e;
  return kSuccess;
}

// Device pointer of byte `w` of row `h` of array `a` when a width x height region fits there.
char* region(const CudaArray* a, size_t w, size_t h, size_t width, size_t height) {
  return a ? reinterpret_cast<char*>(array_region(*a, w, h, 0, width, height, 1)) : nullptr;
}
// The same for a linear run of `count` bytes starting at (w, h), across rows and slices.
char* linear_region(const CudaArray* a, size_t w, size_t h, size_t count) {
  if (!a || w >= row_bytes(a->resource) || h >= rows_of(a->resource)) return nullptr;
  const uint64_t offset = h * a->resource.row_pitch + w;
  if (offset + count > a->resource.slice_pitch * a->resource.slices()) return nullptr;
  return reinterpret_cast<char*>(a->resource.base + offset);
}

CudaArray* array(const void* handle) { return Runtime::get().arrays().find(handle); }

int to_array_2d(const char* api, void* dst, size_t w, size_t h, const void* src, size_t spitch,
                size_t width, size_t height, int kind, bool sync) {
  return guarded(api, [&] {
    if (sync) Runtime::get().synchronize();
    char* d = region(array(dst), w, h, width, height);
    if (!d || width > spitch) return record(kErrorInvalidValue);
    return record(copy_2d(d, row_bytes(array(dst)->resource), static_cast<const char*>(src), spitch,
                          width, height, kind));
  });
}

int from_array_2d(const char* api, void* dst, size_t dpitch, const void* src, size_t w, size_t h,
                  size_t width, size_t height, int kind, bool sync) {
  return guarded(api, [&] {
    if (sync) Runtime::get().synchronize();
    const char* s = region(array(src), w, h, width, height);
    if (!s || width > dpitch) return record(kErrorInvalidValue);
    return record(copy_2d(static_cast<char*>(dst), dpitch, s, row_bytes(array(src)->resource),
                          width, height, kind));
  });
}

int to_array(const char* api, void* dst, size_t w, size_t h, const void* src, size_t count,
             int kind, bool sync) {
  return guarded(api, [&] {
    if (sync) Runtime::get().synchronize();
    char* d = linear_region(array(dst), w, h, count);
    if (!d) return record(kErrorInvalidValue);
    return record(Runtime::get().memory().copy(d, src, count, static_cast<MemcpyKind>(kind)));
  });
}

int from_array(const char* api, void* dst, const void* src, size_t w, size_t h, size_t count,
               int kind, bool sync) {
  return guarded(api, [&] {
    if (sync) Runtime::get().synchronize();
    const char* s = linear_region(array(src), w, h, count);
    if (!s) return record(kErrorInvalidValue);
    return record(Runtime::get().memory().copy(dst, s, count, static_cast<MemcpyKind>(kind)));
  });
}

}  // namespace

extern "C" {

ChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  return {x, y, z, w, f};
}

int cudaMallocArray(void** handle, const ChannelFormatDesc* desc, size_t width, size_t height,
                    unsigned flags) {
  return guarded("cudaMallocArray", [&] {
    if (flags & ~(kArraySurfaceLoadStore | kArrayTextureGather)) return record(kErrorInvalidValue);
    return record(make_array(Runtime::get().arrays(), Runtime::get().memory(), handle, desc,
                             Extent{width, height, 0}, flags));
  });
}

int cudaMalloc3DArray(void** handle, const ChannelFormatDesc* desc, Extent extent, unsigned flags) {
  return guarded("cudaMalloc3DArray", [&] {
    if (flags & ~(kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap | kArrayTextureGather))
      return record(kErrorInvalidValue);
    return record(
        make_array(Runtime::get().arrays(), Runtime::get().memory(), handle, desc, extent, flags));
  });
}

int cudaFreeArray(void* handle) {
  return guarded("cudaFreeArray", [&] {
    if (!handle) return record(kSuccess);
    return record(free_array(Runtime::get().arrays(), Runtime::get().memory(), handle));
  });
}

int cudaArrayGetInfo(ChannelFormatDesc* desc, Extent* extent, unsigned* flags, void* handle) {
  return guarded("cudaArrayGetInfo", [&] {
    const CudaArray* a = array(handle);
    if (!a) return record(kErrorInvalidValue);
    if (desc) *desc = a->desc;
    if (extent) *extent = a->extent;
    if (flags) *flags = a->flags;
    return record(kSuccess);
  });
}

int cudaGetChannelDesc(ChannelFormatDesc* desc, const void* handle) {
  return guarded("cudaGetChannelDesc", [&] {
    const CudaArray* a = array(handle);
    if (!a || !desc) return record(kErrorInvalidValue);
    *desc = a->desc;
    return record(kSuccess);
  });
}

int cudaMemcpy2DToArray(void* dst, size_t w, size_t h, const void* src, size_t spitch, size_t width,
                        size_t height, int kind) {
  return to_array_2d("cudaMemcpy2DToArray", dst, w, h, src, spitch, width, height, kind, true);
}
int cudaMemcpy2DToArrayAsync(void* dst, size_t w, size_t h, const void* src, size_t spitch,
                             size_t width, size_t height, int kind, void*) {
  return to_array_2d("cudaMemcpy2DToArrayAsync", dst, w, h, src, spitch, width, height, kind,
                     false);
}
int cudaMemcpy2DFromArray(void* dst, size_t dpitch, const void* src, size_t w, size_t h,
                          size_t width, size_t height, int kind) {
  return from_array_2d("cudaMemcpy2DFromArray", dst, dpitch, src, w, h, width, height, kind, true);
}
int cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, const void* src, size_t w, size_t h,
                               size_t width, size_t height, int kind, void*) {
  return from_array_2d("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, w, h, width, height, kind,
                       false);
}
int cudaMemcpyToArray(void* dst, size_t w, size_t h, const void* src, size_t count, int kind) {
  return to_array("cudaMemcpyToArray", dst, w, h, src, count, kind, true);
}
int cudaMemcpyToArrayAsync(void* dst, size_t w, size_t h, const void* src, size_t count, int kind,
                           void*) {
  return to_array("cudaMemcpyToArrayAsync", dst, w, h, src, count, kind, false);
}
int cudaMemcpyFromArray(void* dst, const void* src, size_t w, size_t h, size_t count, int kind) {
  return from_array("cudaMemcpyFromArray", dst, src, w, h, count, kind, true);
}
int cudaMemcpyFromArrayAsync(void* dst, const void* src, size_t w, size_t h, size_t count, int kind,
                             void*) {
  return from_array("cudaMemcpyFromArrayAsync", dst, src, w, h, count, kind, false);
}

int cudaMemcpy2DArrayToArray(void* dst, size_t wd, size_t hd, const void* src, size_t ws, size_t hs,
                             size_t width, size_t height, int kind) {
  return guarded("cudaMemcpy2DArrayToArray", [&] {
    char* d = region(array(dst), wd, hd, width, height);
    const char* s = region(array(src), ws, hs, width, height);
    if (!d || !s) return record(kErrorInvalidValue);
    return record(copy_2d(d, row_bytes(array(dst)->resource), s, row_bytes(array(src)->resource),
                          width, height, kind));
  });
}

int cudaMemcpyArrayToArray(void* dst, size_t wd, size_t hd, const void* src, size_t ws, size_t hs,
                           size_t count, int kind) {
  return guarded("cudaMemcpyArrayToArray", [&] {
    char* d = linear_region(array(dst), wd, hd, count);
    const char* s = linear_region(array(src), ws, hs, count);
    if (!d || !s) return record(kErrorInvalidValue);
    return record(Runtime::get().memory().copy(d, s, count, static_cast<MemcpyKind>(kind)));
  });
}

}  // extern "C"
