// Driver entry points (cudaGetDriverEntryPoint{,ByVersion}; cuGetProcAddress{,_v2}): the driver
// API function of a name, as programs fetch cuTensorMapEncodeTiled without linking libcuda. The
// stand-in is libcuda.so.1 too, so the function is this library's own export of that name (or of
// its _v2/_v3 revision, as the driver's table maps a base name to its newest ABI); a name the
// driver would know but the stand-in does not implement resolves to its stub, which ends the run
// with exit 2 naming it when called. Asking also initialises the driver, as the runtime does.
#include <dlfcn.h>

#include <cstdint>
#include <string>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

constexpr int kEntryFound = 0,
              kEntryNotFound =
                  1;  // cudaDriverEntryPointQueryResult / CUdriverProcAddressQueryResult

void* driver_function(const char* symbol) {
  if (!symbol || std::string(symbol).rfind("cu", 0) != 0 ||
      std::string(symbol).rfind("cuda", 0) == 0)
    return nullptr;
  for (const char* suffix : {"_v3", "_v2", ""})
    if (void* f = dlsym(RTLD_DEFAULT, (std::string(symbol) + suffix).c_str())) return f;
  return nullptr;
}

int entry_point(const char* api, const char* symbol, void** fn, int* status) {
  return guarded(api, [&] {
    if (!symbol || !fn) return kErrorInvalidValue;
    Runtime::get().set_driver_initialised();
    *fn = driver_function(symbol);
    if (status) *status = *fn ? kEntryFound : kEntryNotFound;
    return kSuccess;
  });
}

}  // namespace

extern "C" {

int cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long /*flags*/,
                            int* status) {
  return entry_point("cudaGetDriverEntryPoint", symbol, fn, status);
}

int cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned /*version*/,
                                     unsigned long long /*flags*/, int* status) {
  return entry_point("cudaGetDriverEntryPointByVersion", symbol, fn, status);
}

int cuGetProcAddress_v2(const char* symbol, void** fn, int /*version*/, uint64_t /*flags*/,
                        int* status) {
  return entry_point("cuGetProcAddress", symbol, fn, status);
}

int cuGetProcAddress(const char* symbol, void** fn, int version, uint64_t flags) {
  return cuGetProcAddress_v2(symbol, fn, version, flags, nullptr);
}

}  // extern "C"
