// Runtime API: pitched and 3D device memory (cudaMallocPitch, cudaMalloc3D, cudaMemcpy3D,
// cudaMemset2D/3D). A row's pitch is its width rounded up to the device's texture alignment (512
// bytes, cudaDevAttrTextureAlignment), as CUDA's allocator pads rows. CUDA arrays (the copies'
// srcArray/dstArray) belong to textures, which this runtime does not have yet.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

constexpr size_t kPitchAlignment = 512;

CudaError record(CudaError e) { return Runtime::get().record(e); }
size_t pitch_of(size_t width) { return (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment; }

// Copies `height` x `depth` rows of `width` bytes between two pitched ranges (slices `dst_slice` /
// `src_slice` bytes apart), as one cudaMemcpy each.
CudaError copy_rows(char* dst, size_t dpitch, size_t dst_slice, const char* src, size_t spitch, size_t src_slice,
                    size_t width, size_t height, size_t depth, MemcpyKind kind) {
  if (width > dpitch || width > spitch) return kErrorInvalidPitchValue;
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      if (const CudaError e = Runtime::get().memory().copy(dst + z * dst_slice + y * dpitch, src + z * src_slice + y * spitch, width, kind))
        return e;
  return kSuccess;
}

CudaError set_rows(char* dst, size_t pitch, size_t slice, int value, size_t width, size_t height, size_t depth) {
  if (width > pitch) return kErrorInvalidValue;
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      if (const CudaError e = Runtime::get().memory().set(dst + z * slice + y * pitch, value, width)) return e;
  return kSuccess;
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
    if (p->srcArray || p->dstArray) not_implemented("cudaMemcpy3D with a CUDA array");
    const PitchedPtr &s = p->srcPtr, &d = p->dstPtr;
    const char* src = static_cast<const char*>(s.ptr) + (p->srcPos.z * s.ysize + p->srcPos.y) * s.pitch + p->srcPos.x;
    char* dst = static_cast<char*>(d.ptr) + (p->dstPos.z * d.ysize + p->dstPos.y) * d.pitch + p->dstPos.x;
    return record(copy_rows(dst, d.pitch, d.pitch * d.ysize, src, s.pitch, s.pitch * s.ysize, p->extent.width, p->extent.height,
                            p->extent.depth, static_cast<MemcpyKind>(p->kind)));
  });
}
int cudaMemcpy3DAsync(const Memcpy3DParms* p, void* stream) {
  NodePtr n;
  if (p && capturing(stream)) return capture_node("cudaMemcpy3DAsync", stream, memcpy_node(*p, n), std::move(n));
  return cudaMemcpy3D(p);
}

int cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind) {
  return guarded("cudaMemcpy2D", [&] {
    return record(copy_rows(static_cast<char*>(dst), dpitch, 0, static_cast<const char*>(src), spitch, 0, width, height, 1,
                            static_cast<MemcpyKind>(kind)));
  });
}
int cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind, void* stream) {
  NodePtr n;
  if (capturing(stream))
    return capture_node("cudaMemcpy2DAsync", stream, memcpy_node(copy_2d(dst, dpitch, src, spitch, width, height, kind), n), std::move(n));
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

int cudaMemset2D(void* ptr, size_t pitch, int value, size_t width, size_t height) {
  return guarded("cudaMemset2D", [&] { return record(set_rows(static_cast<char*>(ptr), pitch, 0, value, width, height, 1)); });
}
int cudaMemset2DAsync(void* ptr, size_t pitch, int value, size_t width, size_t height, void* stream) {
  NodePtr n;
  if (capturing(stream))
    return capture_node("cudaMemset2DAsync", stream, memset_node({ptr, pitch, static_cast<unsigned>(value & 0xff), 1, width, height}, n), std::move(n));
  return cudaMemset2D(ptr, pitch, value, width, height);
}

int cudaMemset3D(PitchedPtr p, int value, Extent e) {
  return guarded("cudaMemset3D", [&] {
    return record(set_rows(static_cast<char*>(p.ptr), p.pitch, p.pitch * p.ysize, value, e.width, e.height, e.depth));
  });
}
int cudaMemset3DAsync(PitchedPtr p, int value, Extent e, void*) { return cudaMemset3D(p, value, e); }

}  // extern "C"
