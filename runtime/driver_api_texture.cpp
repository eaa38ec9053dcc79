// The driver API's texture and surface objects (cuTexObjectCreate, cuTexObjectDestroy,
// cuTexObjectGetResourceDesc, cuSurfObjectCreate, cuSurfObjectDestroy,
// cuSurfObjectGetResourceDesc): the runtime's objects (texture_objects.h), made from the driver's
// descriptors converted to the runtime's (driver_array_abi.h). As in the runtime, resource views,
// mipmapped arrays and sRGB reads are not implemented (exit 2, named). Errors are
// CUDA_ERROR_INVALID_VALUE, the one cuda.h documents for these calls: a bad descriptor, an array
// that is not live, a handle that is no live object of the kind.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/driver_array_abi.h"
#include "runtime/driver_support.h"
#include "runtime/runtime.h"
#include "runtime/texture_objects.h"

using namespace gputlm::runtime;

namespace {

// The channel format of a resource's texels; false when an array resource names no live array.
bool format_of(const ResourceDesc& r, ChannelFormatDesc& out) {
  switch (r.resType) {
    case kResourceArray: {
      const CudaArray* a = Runtime::get().arrays().find(r.res.array.array);
      if (!a) return false;
      out = a->desc;
      return true;
    }
    case kResourceLinear:
      out = r.res.linear.desc;
      return true;
    case kResourcePitch2D:
      out = r.res.pitch2D.desc;
      return true;
    default:
      return true;
  }
}

int create(const char* api, uint64_t* handle, const DriverResourceDesc* res,
           const DriverTextureDesc* tex, const void* view, bool surface) {
  return driver(api, [&] {
    if (view) not_implemented(std::string(api) + " with a resource view (pResViewDesc)");
    if (!res || (!surface && !tex)) return kErrorInvalidValue;
    ResourceDesc r;
    if (!runtime_resource(*res, r)) return kErrorInvalidValue;
    if (r.resType == kResourceMipmappedArray)
      not_implemented(std::string(api) +
                      " of a mipmapped array (CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)");
    ChannelFormatDesc format{};
    if (!format_of(r, format)) return kErrorInvalidValue;
    TextureDesc t{};
    if (tex) runtime_texture(*tex, format, t);
    return create_texture_object(handle, &r, surface ? nullptr : &t, surface) == kSuccess
               ? kSuccess
               : kErrorInvalidValue;
  });
}

int get_resource(const char* api, DriverResourceDesc* out, uint64_t handle, bool surface) {
  return driver(api, [&] {
    const ObjectDescs* d = texture_object_descs(handle, surface);
    if (!d || !out) return kErrorInvalidValue;
    driver_resource(d->resource, *out);
    return kSuccess;
  });
}

int destroy(const char* api, uint64_t handle, bool surface) {
  return driver(api, [&] { return destroy_texture_object(handle, surface); });
}

}  // namespace

extern "C" {

int cuTexObjectCreate(uint64_t* handle, const DriverResourceDesc* res, const DriverTextureDesc* tex,
                      const void* view) {
  return create("cuTexObjectCreate", handle, res, tex, view, false);
}
int cuTexObjectDestroy(uint64_t handle) { return destroy("cuTexObjectDestroy", handle, false); }
int cuTexObjectGetResourceDesc(DriverResourceDesc* out, uint64_t handle) {
  return get_resource("cuTexObjectGetResourceDesc", out, handle, false);
}

int cuSurfObjectCreate(uint64_t* handle, const DriverResourceDesc* res) {
  return create("cuSurfObjectCreate", handle, res, nullptr, nullptr, true);
}
int cuSurfObjectDestroy(uint64_t handle) { return destroy("cuSurfObjectDestroy", handle, true); }
int cuSurfObjectGetResourceDesc(DriverResourceDesc* out, uint64_t handle) {
  return get_resource("cuSurfObjectGetResourceDesc", out, handle, true);
}

}  // extern "C"
