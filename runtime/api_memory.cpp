// Runtime API: allocation, copies and memset (device, managed and pinned host memory; see
// device_memory.h). Async variants run at once: streams are serialised.
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

DeviceMemory& mem() { return Runtime::get().memory(); }
CudaError record(CudaError e) { return Runtime::get().record(e); }

int allocate(const char* api, void** ptr, size_t bytes, bool managed) {
  return guarded(api, [&] {
    if (!ptr) return record(kErrorInvalidValue);
    const uint64_t addr = mem().allocate(bytes, managed);
    *ptr = reinterpret_cast<void*>(addr);
    return record(addr ? kSuccess : kErrorMemoryAllocation);
  });
}

int copy_symbol(const char* api, const void* symbol, void* host, size_t count, size_t offset, MemcpyKind kind, bool to_symbol) {
  return guarded(api, [&] {
    uint64_t address = 0, size = 0;
    if (const CudaError e = Runtime::get().symbol(symbol, address, size)) return record(e);
    if (offset + count > size) return record(kErrorInvalidValue);
    void* device = reinterpret_cast<void*>(address + offset);
    return record(to_symbol ? mem().copy(device, host, count, kind) : mem().copy(host, device, count, kind));
  });
}

}  // namespace

extern "C" {

int cudaMalloc(void** ptr, size_t bytes) { return allocate("cudaMalloc", ptr, bytes, false); }

// Flags (cudaMemAttachGlobal or Host) change nothing: there is one GPU and no concurrency.
int cudaMallocManaged(void** ptr, size_t bytes, unsigned) { return allocate("cudaMallocManaged", ptr, bytes, true); }

int cudaFree(void* ptr) {
  return guarded("cudaFree", [&] { return record(mem().free(reinterpret_cast<uint64_t>(ptr))); });
}

int cudaMallocHost(void** ptr, size_t bytes) {
  return guarded("cudaMallocHost", [&] {
    if (!ptr) return record(kErrorInvalidValue);
    *ptr = mem().allocate_host(bytes);
    return record(*ptr ? kSuccess : kErrorMemoryAllocation);
  });
}

// The C++ overload of cudaMallocHost in NVIDIA's headers calls this. Flags (portable, mapped,
// write-combined) change nothing; a device pointer to host memory (cudaHostGetDevicePointer) is
// not implemented.
int cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }

int cudaFreeHost(void* ptr) {
  return guarded("cudaFreeHost", [&] { return record(mem().free_host(ptr)); });
}

int cudaMemcpy(void* dst, const void* src, size_t bytes, int kind) {
  return guarded("cudaMemcpy", [&] { return record(mem().copy(dst, src, bytes, static_cast<MemcpyKind>(kind))); });
}

int cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, void*) {
  return guarded("cudaMemcpyAsync", [&] { return record(mem().copy(dst, src, bytes, static_cast<MemcpyKind>(kind))); });
}

int cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind) {
  return guarded("cudaMemcpy2D", [&] {
    if (width > dpitch || width > spitch) return record(kErrorInvalidValue);
    for (size_t row = 0; row < height; ++row) {
      const CudaError e = mem().copy(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width,
                                     static_cast<MemcpyKind>(kind));
      if (e) return record(e);
    }
    return kSuccess;
  });
}

int cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, int kind) {
  return copy_symbol("cudaMemcpyToSymbol", symbol, const_cast<void*>(src), count, offset, static_cast<MemcpyKind>(kind), true);
}

int cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, int kind) {
  return copy_symbol("cudaMemcpyFromSymbol", symbol, dst, count, offset, static_cast<MemcpyKind>(kind), false);
}

int cudaGetSymbolAddress(void** ptr, const void* symbol) {
  return guarded("cudaGetSymbolAddress", [&] {
    uint64_t address = 0, size = 0;
    if (const CudaError e = Runtime::get().symbol(symbol, address, size)) return record(e);
    *ptr = reinterpret_cast<void*>(address);
    return kSuccess;
  });
}

int cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset, int kind, void*) {
  return copy_symbol("cudaMemcpyToSymbolAsync", symbol, const_cast<void*>(src), count, offset, static_cast<MemcpyKind>(kind), true);
}

int cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, int kind, void*) {
  return copy_symbol("cudaMemcpyFromSymbolAsync", symbol, dst, count, offset, static_cast<MemcpyKind>(kind), false);
}

int cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind, void*) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

// Free is the device's memory (cudaDeviceProp::totalGlobalMem) less the allocations not freed.
int cudaMemGetInfo(size_t* free, size_t* total) {
  return guarded("cudaMemGetInfo", [&] {
    if (!free || !total) return record(kErrorInvalidValue);
    *total = kDeviceMemoryBytes;
    const uint64_t used = mem().in_use();
    *free = used < *total ? *total - used : 0;
    return kSuccess;
  });
}

int cudaMemset(void* dst, int value, size_t bytes) {
  return guarded("cudaMemset", [&] { return record(mem().set(dst, value, bytes)); });
}

int cudaMemsetAsync(void* dst, int value, size_t bytes, void*) {
  return guarded("cudaMemsetAsync", [&] { return record(mem().set(dst, value, bytes)); });
}

}  // extern "C"
