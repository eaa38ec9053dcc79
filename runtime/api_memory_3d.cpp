// Runtime API: pitched and 3D device memory (cudaMallocPitch, cudaMalloc3D, cudaMemcpy3D,
// cudaMemset2D/3D). A row's pitch is its width rounded up to the device's texture alignment (512
// bytes, cudaDevAttrTextureAlignment), as CUDA's allocator pads rows. cudaMemcpy3D takes a CUDA
// array on either side (cuda_arrays.h): positions and the extent's width are then in elements of
// the array, else in bytes.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/pitched_copy.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

constexpr size_t kPitchAlignment = 512;

CudaError record(CudaError e) { return Runtime::get().record(e); }
size_t pitch_of(size_t width) {
  return (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
}

CudaError copy_rows(char* dst, size_t dpitch, size_t dst_slice, const char* src, size_t spitch,
                    size_t src_slice, size_t width, size_t height, size_t depth, MemcpyKind kind) {
  return gputlm::runtime::copy_rows(Runtime::get().memory(), dst, dpitch, dst_slice, src, spitch,
                                    src_slice, width, height, depth, kind);
}

CudaError set_rows(char* dst, size_t pitch, size_t slice, int value, size_t width, size_t height,
                   size_t depth) {
  if (width > pitch) return kErrorInvalidValue;
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      if (const CudaError e =
              Runtime::get().memory().set(dst + z * slice + y * pitch, value, width))
        return e;
  return kSuccess;
}

// One side of a 3D copy: its first byte, row pitch and rows per slice.
struct Side {
  char* ptr = nullptr;
  size_t pitch = 0, ysize = 0;
};
// The side at `pos` of array `handle` (when set; false when the region leaves it) or of `p`.
// `width` is the extent's width in bytes.
bool copy_side(void* handle, const Pos& pos, const PitchedPtr& p, const Extent& e, size_t width,
               Side& s) {
  if (!handle) {
    s = {static_cast<char*>(p.ptr) + (pos.z * p.ysize + pos.y) * p.pitch + pos.x, p.pitch, p.ysize};
    return true;
  }
  const CudaArray* a = Runtime::get().arrays().find(handle);
  if (!a) return false;
  const gputlm::func::TexResource& r = a->resource;
  const uint64_t at =
      array_region(*a, pos.x * r.format.bytes(), pos.y, pos.z, width, e.height, e.depth);
  if (!at) return false;
  s = {reinterpret_cast<char*>(at), r.row_pitch, r.height};
  return true;
}
// The extent's width in bytes: in elements of the array taking part, if one does.
size_t width_bytes(const Memcpy3DParms& p) {
  void* handle = p.dstArray ? p.dstArray : p.srcArray;
  if (!handle) return p.extent.width;
  const CudaArray* a = Runtime::get().arrays().find(handle);
  return a ? p.extent.width * a->resource.format.bytes() : p.extent.width;
}
// The Async forms on a capturing stream: a memcpy or memset node (graph_state.h).
int capture_node(const char* api, void* stream, CudaError made, NodePtr node) {
  return guarded(api, [&] { return made ? record(made) : capture(stream, std::move(node)); });
}

}  // namespace

extern "C" {

int cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  return guarded("cudaMallocPitch", [&] {
    if (!ptr || !pitch) return record(kErrorInvalidValue);
    *pitch = pitch_of(width);
    const uint64_t addr = Runtime::get().memory().allocate(*pitch * height, false);
    *ptr = reinterpret_cast<void*>(addr);
    return record(addr ? kSuccess : kErrorMemoryAllocation);
  });
}

int cudaMalloc3D(PitchedPtr* p, Extent e) {
  return guarded("cudaMalloc3D", [&] {
    if (!p) return record(kErrorInvalidValue);
    const size_t pitch = pitch_of(e.width);
    const uint64_t addr = Runtime::get().memory().allocate(pitch * e.height * e.depth, false);
    *p = {reinterpret_cast<void*>(addr), pitch, e.width, e.height};
    return record(addr ? kSuccess : kErrorMemoryAllocation);
  });
}

int cudaMemcpy3D(const Memcpy3DParms* p) {
  return guarded("cudaMemcpy3D", [&] {
    if (!p) return record(kErrorInvalidValue);
    const size_t width = width_bytes(*p);
    Side s, d;
    if (!copy_side(p->srcArray, p->srcPos, p->srcPtr, p->extent, width, s) ||
        !copy_side(p->dstArray, p->dstPos, p->dstPtr, p->extent, width, d))
      return record(kErrorInvalidValue);
    return record(copy_rows(d.ptr, d.pitch, d.pitch * d.ysize, s.ptr, s.pitch, s.pitch * s.ysize,
                            width, p->extent.height, p->extent.depth,
                            static_cast<MemcpyKind>(p->kind)));
  });
}
int cudaMemcpy3DAsync(const Memcpy3DParms* p, void* stream) {
  NodePtr n;
  if (p && capturing(stream))
    return capture_node("cudaMemcpy3DAsync", stream, memcpy_node(*p, n), std::move(n));
  return cudaMemcpy3D(p);
}

int cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                 size_t height, int kind) {
  return guarded("cudaMemcpy2D", [&] {
    return record(copy_rows(static_cast<char*>(dst), dpitch, 0, static_cast<const char*>(src),
                            spitch, 0, width, height, 1, static_cast<MemcpyKind>(kind)));
  });
}
int cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                      size_t height, int kind, void* stream) {
  NodePtr n;
  if (capturing(stream))
    return capture_node("cudaMemcpy2DAsync", stream,
                        memcpy_node(copy_2d(dst, dpitch, src, spitch, width, height, kind), n),
                        std::move(n));
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

int cudaMemset2D(void* ptr, size_t pitch, int value, size_t width, size_t height) {
  return guarded("cudaMemset2D", [&] {
    return record(set_rows(static_cast<char*>(ptr), pitch, 0, value, width, height, 1));
  });
}
int cudaMemset2DAsync(void* ptr, size_t pitch, int value, size_t width, size_t height,
                      void* stream) {
  NodePtr n;
  if (capturing(stream))
    return capture_node(
        "cudaMemset2DAsync", stream,
        memset_node({ptr, pitch, static_cast<unsigned>(value & 0xff), 1, width, height}, n),
        std::move(n));
  return cudaMemset2D(ptr, pitch, value, width, height);
}

int cudaMemset3D(PitchedPtr p, int value, Extent e) {
  return guarded("cudaMemset3D", [&] {
    return record(set_rows(static_cast<char*>(p.ptr), p.pitch, p.pitch * p.ysize, value, e.width,
                           e.height, e.depth));
  });
}
int cudaMemset3DAsync(PitchedPtr p, int value, Extent e, void*) {
  return cudaMemset3D(p, value, e);
}

}  // extern "C"
