// The CUDA driver API (cuda.h of CUDA 13) that programs using NVRTC or loading PTX themselves call,
// on the same simulator as the runtime API: libcuda.so.1 is this library under a second name (a
// link beside libcudart.so.13, which the loader maps once; runtime/CMakeLists.txt), so a program
// that uses both APIs sees one device, one memory and one statistics file.
//
// One device (ordinal 0) with one context: cuCtxCreate and cuDevicePrimaryCtxRetain hand out the
// same context, which stays current on every thread. Modules come from PTX text or fat binaries
// (Runtime::load_module). Errors are CUresult codes (their values are the runtime's where the two
// APIs share a meaning); what gputlm cannot do ends the run with exit 2 naming it, as in the
// runtime.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "runtime/api_support.h"
#include "runtime/device_attributes.h"
#include "runtime/driver_abi.h"
#include "runtime/driver_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

Runtime& rt() { return Runtime::get(); }
const gputlm::gpu::GpuSpec& spec() { return rt().program().spec(); }

// CUdevice_attribute values the runtime's cudaDeviceAttr lacks: virtual memory management (102) is
// supported (virtual_memory.h), and generic compression (107) from compute capability 8.0
// (VirtualMemory::generic_compression); exporting memory as a POSIX file descriptor, Win32 or KMT
// handle (103-105) is not.
std::optional<int> driver_only_attribute(int attribute) {
  switch (attribute) {
    case 102:
      return 1;
    case 107:
      return rt().virtual_memory().generic_compression() ? 1 : 0;
    case 103:
    case 104:
    case 105:
      return 0;
  }
  return std::nullopt;
}

// The one context's handle: any non-null pointer the program can compare and pass back.
void* context_handle() { return &rt(); }

}  // namespace

extern "C" {

int cuInit(unsigned flags) {
  return guarded("cuInit", [&] {
    if (flags != 0) return kErrorInvalidValue;
    rt().set_driver_initialised();
    return kSuccess;
  });
}

int cuDriverGetVersion(int* version) {
  if (!version) return kErrorInvalidValue;
  *version = 13000;
  return kSuccess;
}

int cuDeviceGetCount(int* count) {
  return driver("cuDeviceGetCount", [&] {
    if (!count) return kErrorInvalidValue;
    *count = 1;
    return kSuccess;
  });
}

int cuDeviceGet(int* device, int ordinal) {
  return driver("cuDeviceGet", [&] {
    if (!device) return kErrorInvalidValue;
    if (ordinal != 0) return kErrorInvalidDevice;
    *device = 0;
    return kSuccess;
  });
}

int cuDeviceGetName(char* name, int length, int device) {
  return driver("cuDeviceGetName", [&] {
    if (!name || length <= 0) return kErrorInvalidValue;
    if (device != 0) return kErrorInvalidDevice;
    std::snprintf(name, static_cast<size_t>(length), "gputlm %s", spec().name.c_str());
    return kSuccess;
  });
}

// CUdevice_attribute has the values of cudaDeviceAttr, and a few of its own.
int cuDeviceGetAttribute(int* value, int attribute, int device) {
  return driver("cuDeviceGetAttribute", [&] {
    if (device != 0) return kErrorInvalidDevice;
    std::optional<int> v = device_attribute(spec(), attribute);
    if (!v) v = driver_only_attribute(attribute);
    if (!value || !v) return kErrorInvalidValue;
    *value = *v;
    return kSuccess;
  });
}

int cuDeviceTotalMem_v2(size_t* bytes, int device) {
  return driver("cuDeviceTotalMem", [&] {
    if (!bytes) return kErrorInvalidValue;
    if (device != 0) return kErrorInvalidDevice;
    *bytes = rt().memory().capacity();
    return kSuccess;
  });
}

int cuDeviceComputeCapability(int* major, int* minor, int device) {
  return driver("cuDeviceComputeCapability", [&] {
    if (!major || !minor) return kErrorInvalidValue;
    if (device != 0) return kErrorInvalidDevice;
    *major = static_cast<int>(spec().device.cc_major);
    *minor = static_cast<int>(spec().device.cc_minor);
    return kSuccess;
  });
}

// Contexts: the one context of the one device.
int cuCtxCreate_v4(void** context, void*, unsigned, int device) {
  return driver("cuCtxCreate", [&] {
    if (!context) return kErrorInvalidValue;
    if (device != 0) return kErrorInvalidDevice;
    *context = context_handle();
    return kSuccess;
  });
}
int cuCtxCreate_v2(void** context, unsigned flags, int device) {
  return cuCtxCreate_v4(context, nullptr, flags, device);
}
int cuDevicePrimaryCtxRetain(void** context, int device) {
  return cuCtxCreate_v4(context, nullptr, 0, device);
}
int cuDevicePrimaryCtxRelease_v2(int device) {
  return device == 0 ? kSuccess : kErrorInvalidDevice;
}
int cuCtxDestroy_v2(void* context) {
  return context == context_handle() ? kSuccess : kDriverInvalidContext;
}
int cuCtxSetCurrent(void* context) {
  return !context || context == context_handle() ? kSuccess : kDriverInvalidContext;
}
int cuCtxPushCurrent_v2(void* context) { return cuCtxSetCurrent(context); }
int cuCtxGetCurrent(void** context) {
  return driver("cuCtxGetCurrent", [&] {
    if (!context) return kErrorInvalidValue;
    *context = context_handle();
    return kSuccess;
  });
}
int cuCtxPopCurrent_v2(void** context) {
  if (context) *context = context_handle();
  return kSuccess;
}
int cuCtxGetDevice(int* device) {
  if (!device) return kErrorInvalidValue;
  *device = 0;
  return kSuccess;
}
int cuCtxGetApiVersion(void*, unsigned* version) {
  if (!version) return kErrorInvalidValue;
  *version = 13000;
  return kSuccess;
}
int cudaDeviceSynchronize();
int cuCtxSynchronize() { return cudaDeviceSynchronize(); }

// NVIDIA's private interface between its libraries and their driver (NVRTC asks for it while
// compiling, and does without when the driver has none): the simulated driver has no tables.
int cuGetExportTable(const void** table, const void*) {
  if (table) *table = nullptr;
  return kDriverNotFound;
}

int cuGetErrorName(int error, const char** name) {
  if (!name) return kErrorInvalidValue;
  *name = driver_error_name(error);
  return *name ? kSuccess : kErrorInvalidValue;
}

int cuGetErrorString(int error, const char** text) {
  if (!text) return kErrorInvalidValue;
  *text = driver_error_string(error);
  return *text ? kSuccess : kErrorInvalidValue;
}

}  // extern "C"
