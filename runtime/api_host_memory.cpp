// Runtime API: host memory a kernel may use and what a pointer is (device_memory.h: pinned host
// memory at one address for host and device, registered host memory mirrored at a device address
// of its own), and the hints for managed memory, which change nothing on a device whose launches
// are serialised with the host.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {
DeviceMemory& mem() { return Runtime::get().memory(); }
CudaError record(CudaError e) { return Runtime::get().record(e); }
// cudaMemLocation, passed by value to the managed-memory hints, is MemLocation (driver_vmm_abi.h:
// CUmemLocation, the same layout).
}  // namespace

extern "C" {

// cudaHostRegisterDefault, Portable, Mapped, IoMemory and ReadOnly (0-15); IoMemory and ReadOnly
// are devices' memory the simulated host does not have.
int cudaHostRegister(void* ptr, size_t bytes, unsigned flags) {
  return guarded("cudaHostRegister", [&] {
    if (flags > 15) return record(kErrorInvalidValue);
    if (flags & 12)
      not_implemented(
          "cudaHostRegister of I/O or read-only memory (cudaHostRegisterIoMemory, "
          "cudaHostRegisterReadOnly)");
    return record(mem().register_host(ptr, bytes));
  });
}

int cudaHostUnregister(void* ptr) {
  return guarded("cudaHostUnregister", [&] { return record(mem().unregister_host(ptr)); });
}

int cudaHostGetDevicePointer(void** device, void* host, unsigned flags) {
  return guarded("cudaHostGetDevicePointer", [&] {
    uint64_t addr = 0;
    if (!device || flags != 0) return record(kErrorInvalidValue);
    if (const CudaError e = mem().device_pointer(host, addr)) return record(e);
    *device = reinterpret_cast<void*>(addr);
    return kSuccess;
  });
}

// Pinned and registered memory is portable and mapped (cudaHostAllocPortable | Mapped).
int cudaHostGetFlags(unsigned* flags, void* host) {
  return guarded("cudaHostGetFlags", [&] {
    uint64_t addr = 0;
    if (!flags || mem().device_pointer(host, addr) != kSuccess) return record(kErrorInvalidValue);
    *flags = 3;
    return kSuccess;
  });
}

int cudaPointerGetAttributes(PointerAttributes* attributes, const void* ptr) {
  return guarded("cudaPointerGetAttributes", [&] {
    if (!attributes) return record(kErrorInvalidValue);
    *attributes = mem().attributes(ptr);
    return kSuccess;
  });
}

// The data is where a kernel or the host needs it at every launch boundary already.
int cudaMemPrefetchAsync(const void* ptr, size_t bytes, MemLocation location, unsigned, void*) {
  return guarded("cudaMemPrefetchAsync", [&] {
    const PointerAttributes a = mem().attributes(ptr);
    if (a.type != kMemoryManaged || bytes == 0 || location.type < 0 || location.type > 4)
      return record(kErrorInvalidValue);
    return kSuccess;
  });
}

int cudaMemAdvise(const void* ptr, size_t bytes, int advice, MemLocation) {
  return guarded("cudaMemAdvise", [&] {
    const PointerAttributes a = mem().attributes(ptr);
    if (a.type != kMemoryManaged || bytes == 0 || advice < 1 || advice > 6)
      return record(kErrorInvalidValue);
    return kSuccess;
  });
}

}  // extern "C"
