// Runtime API: texture and surface objects (cudaCreateTextureObject, cudaDestroyTextureObject,
// cudaGetTextureObjectResourceDesc/TextureDesc, cudaCreateSurfaceObject, cudaDestroySurfaceObject,
// cudaGetSurfaceObjectResourceDesc). An object is an entry of the runtime's func::TextureTable;
// its handle is what the kernel receives. Resources: a CUDA array (cudaResourceTypeArray), linear
// memory (Linear: 1D, tex1Dfetch) or pitched memory (Pitch2D). Not implemented (exit 2, named):
// mipmapped arrays, resource views, sRGB reads. Bad descriptors return cudaErrorInvalidValue, a
// CUDA array that is not live cudaErrorInvalidResourceHandle.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/runtime.h"
#include "runtime/texture_objects.h"

using namespace gputlm::runtime;
namespace func = gputlm::func;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }

// The texel data a resource descriptor names.
CudaError resource_of(const ResourceDesc& d, func::TexResource& r, bool surface) {
  if (d.flags != 0) return kErrorInvalidValue;
  switch (d.resType) {
    case kResourceArray: {
      const CudaArray* a = Runtime::get().arrays().find(d.res.array.array);
      if (!a) return kErrorInvalidResourceHandle;
      if (surface && !(a->flags & kArraySurfaceLoadStore)) return kErrorInvalidValue;
      r = a->resource;
      return kSuccess;
    }
    case kResourceMipmappedArray:
      not_implemented(
          "cudaCreateTextureObject of a mipmapped array (cudaResourceTypeMipmappedArray)");
    case kResourceLinear: {
      if (surface || !texel_format(d.res.linear.desc, r.format) || !d.res.linear.devPtr)
        return kErrorInvalidValue;
      const uint64_t base = reinterpret_cast<uint64_t>(d.res.linear.devPtr);
      if (!Runtime::get().memory().global().find(base, d.res.linear.sizeInBytes))
        return kErrorInvalidValue;
      r.shape = func::TexShape::Linear;
      r.base = base;
      r.width = static_cast<uint32_t>(d.res.linear.sizeInBytes / r.format.bytes());
      r.row_pitch = r.slice_pitch = d.res.linear.sizeInBytes;
      return kSuccess;
    }
    case kResourcePitch2D: {
      const auto& p = d.res.pitch2D;
      if (surface || !texel_format(p.desc, r.format) || !p.devPtr || !p.width || !p.height)
        return kErrorInvalidValue;
      if (p.pitchInBytes < p.width * r.format.bytes()) return kErrorInvalidValue;
      const uint64_t base = reinterpret_cast<uint64_t>(p.devPtr);
      if (!Runtime::get().memory().global().find(
              base, p.pitchInBytes * (p.height - 1) + p.width * r.format.bytes()))
        return kErrorInvalidValue;
      r.shape = func::TexShape::D2;
      r.base = base;
      r.width = static_cast<uint32_t>(p.width);
      r.height = static_cast<uint32_t>(p.height);
      r.row_pitch = p.pitchInBytes;
      r.slice_pitch = p.pitchInBytes * p.height;
      return kSuccess;
    }
    default:
      return kErrorInvalidValue;
  }
}

CudaError sampler_of(const TextureDesc& t, const func::TexelFormat& f, func::Sampler& s) {
  for (unsigned i = 0; i < 3; ++i) {
    if (t.addressMode[i] < 0 || t.addressMode[i] > 3) return kErrorInvalidValue;
    s.address[i] = static_cast<func::AddressMode>(t.addressMode[i]);
  }
  if (t.filterMode < 0 || t.filterMode > 1 || t.readMode < 0 || t.readMode > 1)
    return kErrorInvalidValue;
  if (t.sRGB) not_implemented("cudaCreateTextureObject with sRGB reads (cudaTextureDesc::sRGB)");
  s.linear_filter = t.filterMode == 1;
  // cudaReadModeNormalizedFloat applies to 8- and 16-bit integers; float formats read as they are.
  if (t.readMode == 1 && f.kind != func::ChannelKind::Float) {
    if (f.bits == 32) return kErrorInvalidValue;
    s.normalized_float = true;
  }
  s.normalized_coords = t.normalizedCoords != 0;
  for (unsigned i = 0; i < 4; ++i) s.border[i] = t.borderColor[i];
  return kSuccess;
}

}  // namespace

namespace gputlm::runtime {

CudaError create_texture_object(uint64_t* handle, const ResourceDesc* res, const TextureDesc* tex,
                                bool surface) {
  if (!handle || !res || (!surface && !tex)) return kErrorInvalidValue;
  func::TextureObject o;
  o.surface = surface;
  if (const CudaError e = resource_of(*res, o.resource, surface)) return e;
  if (!surface)
    if (const CudaError e = sampler_of(*tex, o.resource.format, o.sampler)) return e;
  *handle = Runtime::get().textures().create(o);
  ObjectDescs& descs = Runtime::get().object_descs()[*handle];
  descs.resource = *res;
  if (tex) descs.texture = *tex;
  return kSuccess;
}

CudaError destroy_texture_object(uint64_t handle, bool surface) {
  if (handle == 0) return kSuccess;
  if (!Runtime::get().textures().destroy(handle, surface)) return kErrorInvalidValue;
  Runtime::get().object_descs().erase(handle);
  return kSuccess;
}

const ObjectDescs* texture_object_descs(uint64_t handle, bool surface) {
  const func::TextureObject* o = Runtime::get().textures().find(handle);
  if (!o || o->surface != surface) return nullptr;
  return &Runtime::get().object_descs()[handle];
}

}  // namespace gputlm::runtime

extern "C" {

int cudaCreateTextureObject(uint64_t* handle, const ResourceDesc* res, const TextureDesc* tex,
                            const void* view) {
  return guarded("cudaCreateTextureObject", [&] {
    if (view) not_implemented("cudaCreateTextureObject with a resource view (pResViewDesc)");
    return record(create_texture_object(handle, res, tex, false));
  });
}

int cudaDestroyTextureObject(uint64_t handle) {
  return guarded("cudaDestroyTextureObject",
                 [&] { return record(destroy_texture_object(handle, false)); });
}

int cudaGetTextureObjectResourceDesc(ResourceDesc* out, uint64_t handle) {
  return guarded("cudaGetTextureObjectResourceDesc", [&] {
    const ObjectDescs* d = texture_object_descs(handle, false);
    if (!d || !out) return record(kErrorInvalidValue);
    *out = d->resource;
    return record(kSuccess);
  });
}

int cudaGetTextureObjectTextureDesc(TextureDesc* out, uint64_t handle) {
  return guarded("cudaGetTextureObjectTextureDesc", [&] {
    const ObjectDescs* d = texture_object_descs(handle, false);
    if (!d || !out) return record(kErrorInvalidValue);
    *out = d->texture;
    return record(kSuccess);
  });
}

int cudaCreateSurfaceObject(uint64_t* handle, const ResourceDesc* res) {
  return guarded("cudaCreateSurfaceObject",
                 [&] { return record(create_texture_object(handle, res, nullptr, true)); });
}

int cudaDestroySurfaceObject(uint64_t handle) {
  return guarded("cudaDestroySurfaceObject",
                 [&] { return record(destroy_texture_object(handle, true)); });
}

int cudaGetSurfaceObjectResourceDesc(ResourceDesc* out, uint64_t handle) {
  return guarded("cudaGetSurfaceObjectResourceDesc", [&] {
    const ObjectDescs* d = texture_object_descs(handle, true);
    if (!d || !out) return record(kErrorInvalidValue);
    *out = d->resource;
    return record(kSuccess);
  });
}

}  // extern "C"
