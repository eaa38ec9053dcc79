// The driver API's virtual memory management (cuda.h of CUDA 13.0, "Virtual Memory Management"):
// address reservations, physical allocations, mappings and their access, on the model of
// virtual_memory.h. Properties are checked here: pinned device memory of device 0 (a host, NUMA
// or managed location is not implemented, exit 2), no shareable handle types (the device exports
// none: CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_*_SUPPORTED are 0, so asking for one is
// CUDA_ERROR_NOT_SUPPORTED).
#include <cstdint>
#include <string>

#include "runtime/api_support.h"
#include "runtime/driver_support.h"
#include "runtime/driver_vmm_abi.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

VirtualMemory& vm() { return Runtime::get().virtual_memory(); }

// A location on the one device: CUDA_ERROR_INVALID_DEVICE for another ordinal.
CudaError device_location(const MemLocation& l, const char* api) {
  if (l.type == kLocationHost || l.type == kLocationHostNuma || l.type == kLocationHostNumaCurrent)
    not_implemented(std::string(api) + " with a host location (CU_MEM_LOCATION_TYPE_HOST*)");
  if (l.type != kLocationDevice) return kErrorInvalidValue;
  return l.id == 0 ? kSuccess : kErrorInvalidDevice;
}

CudaError check_prop(const MemAllocationProp* prop, const char* api) {
  if (!prop) return kErrorInvalidValue;
  if (prop->type == kAllocationManaged)
    not_implemented(std::string(api) + " of managed memory (CU_MEM_ALLOCATION_TYPE_MANAGED)");
  if (prop->type != kAllocationPinned) return kErrorInvalidValue;
  if (const CudaError e = device_location(prop->location, api)) return e;
  return prop->requestedHandleTypes != 0 ? kErrorNotSupported : kSuccess;
}

}  // namespace

extern "C" {

int cuMemGetAllocationGranularity(size_t* granularity, const MemAllocationProp* prop, int option) {
  return driver("cuMemGetAllocationGranularity", [&] {
    if (!granularity || (option != kGranularityMinimum && option != kGranularityRecommended))
      return kErrorInvalidValue;
    if (const CudaError e = check_prop(prop, "cuMemGetAllocationGranularity")) return e;
    *granularity = VirtualMemory::kGranularity;
    return kSuccess;
  });
}

int cuMemAddressReserve(uint64_t* ptr, size_t size, size_t alignment, uint64_t,
                        unsigned long long flags) {
  return driver("cuMemAddressReserve", [&] {
    if (!ptr || flags != 0) return kErrorInvalidValue;
    return vm().reserve(*ptr, size, alignment);
  });
}

int cuMemAddressFree(uint64_t ptr, size_t size) {
  return driver("cuMemAddressFree", [&] { return vm().free_reservation(ptr, size); });
}

int cuMemCreate(uint64_t* handle, size_t size, const MemAllocationProp* prop,
                unsigned long long flags) {
  return driver("cuMemCreate", [&] {
    if (!handle || flags != 0) return kErrorInvalidValue;
    if (const CudaError e = check_prop(prop, "cuMemCreate")) return e;
    return vm().create(*handle, size, *prop);
  });
}

int cuMemRelease(uint64_t handle) {
  return driver("cuMemRelease", [&] { return vm().release(handle); });
}

int cuMemMap(uint64_t ptr, size_t size, size_t offset, uint64_t handle, unsigned long long flags) {
  return driver("cuMemMap", [&] {
    return flags != 0 ? kErrorInvalidValue : vm().map(ptr, size, offset, handle);
  });
}

int cuMemUnmap(uint64_t ptr, size_t size) {
  return driver("cuMemUnmap", [&] {
    if (const CudaError e = Runtime::get().synchronize()) return e;  // cuda.h: synchronous
    return vm().unmap(ptr, size);
  });
}

int cuMemSetAccess(uint64_t ptr, size_t size, const MemAccessDesc* desc, size_t count) {
  return driver("cuMemSetAccess", [&] {
    if (!desc || count == 0) return kErrorInvalidValue;
    int flags = kAccessNone;
    for (size_t i = 0; i < count; ++i) {
      if (const CudaError e = device_location(desc[i].location, "cuMemSetAccess")) return e;
      if (desc[i].flags == kAccessRead)
        not_implemented("cuMemSetAccess with read-only access (CU_MEM_ACCESS_FLAGS_PROT_READ)");
      if (desc[i].flags != kAccessNone && desc[i].flags != kAccessReadWrite)
        return kErrorInvalidValue;
      flags = desc[i].flags;  // one device: the last descriptor for it holds
    }
    return vm().set_access(ptr, size, flags);
  });
}

int cuMemGetAccess(unsigned long long* flags, const MemLocation* location, uint64_t ptr) {
  return driver("cuMemGetAccess", [&] {
    if (!flags || !location) return kErrorInvalidValue;
    if (const CudaError e = device_location(*location, "cuMemGetAccess")) return e;
    int f = kAccessNone;
    if (const CudaError e = vm().access(ptr, f)) return e;
    *flags = static_cast<unsigned long long>(f);
    return kSuccess;
  });
}

int cuMemRetainAllocationHandle(uint64_t* handle, void* addr) {
  return driver("cuMemRetainAllocationHandle", [&] {
    if (!handle) return kErrorInvalidValue;
    return vm().retain(*handle, reinterpret_cast<uint64_t>(addr));
  });
}

int cuMemGetAllocationPropertiesFromHandle(MemAllocationProp* prop, uint64_t handle) {
  return driver("cuMemGetAllocationPropertiesFromHandle", [&] {
    const MemAllocationProp* p = vm().properties(handle);
    if (!prop || !p) return kErrorInvalidValue;
    *prop = *p;
    return kSuccess;
  });
}

}  // extern "C"
