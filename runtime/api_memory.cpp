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

// The C++ overload of cudaMallocHost in NVIDIA's headers calls this. Every pinned allocation is
// portable and mapped (kernels may use it at its own address), so the flags change nothing.
int cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }

int cudaFreeHost(void* ptr) {
  return guarded("cudaFreeHost", [&] { return record(mem().free_host(ptr)); });
}

// A blocking copy is a synchronisation point: the device printf output so far reaches stdout.
int cudaMemcpy(void* dst, const void* src, size_t bytes, int kind) {
  return guarded("cudaMemcpy", [&] {
    Runtime::get().synchronize();
    return record(mem().copy(dst, src, bytes, static_cast<MemcpyKind>(kind)));
  });
}

int cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, void*) {
  return guarded("cudaMemcpyAsync", [&] { return record(mem().copy(dst, src, bytes, static_cast<MemcpyKind>(kind))); });
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

// Free is the device's memory (cudaDeviceProp::totalGlobalMem) less the allocations not freed.
int cudaMemGetInfo(size_t* free, size_t* total) {
  return guarded("cudaMemGetInfo", [&] {
    if (!free || !total) return record(kErrorInvalidValue);
    *total = mem().capacity();
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

// Stream-ordered allocation (CUDA 11.2): streams are serialised, so memory is allocated and freed
// when the call is made. Every pool hands out device memory; a pool keeps its attributes (release
// threshold, reuse policies), which change nothing.
namespace {
struct MemPool {
  uint64_t attributes[9] = {};  // cudaMemPoolAttr 1..8, as set (the used/reserved counters read 0)
};
MemPool& default_pool() {
  static MemPool pool;  // the device's default pool: a handle the program may keep, like a stream
  return pool;
}
}  // namespace

extern "C" {

int cudaMallocAsync(void** ptr, size_t bytes, void*) { return allocate("cudaMallocAsync", ptr, bytes, false); }
int cudaMallocFromPoolAsync(void** ptr, size_t bytes, void* pool, void*) {
  if (!pool) return record(kErrorInvalidValue);
  return allocate("cudaMallocFromPoolAsync", ptr, bytes, false);
}
int cudaFreeAsync(void* ptr, void*) {
  return guarded("cudaFreeAsync", [&] { return record(mem().free(reinterpret_cast<uint64_t>(ptr))); });
}

int cudaDeviceGetDefaultMemPool(void** pool, int device) {
  if (!pool) return record(kErrorInvalidValue);
  if (device != 0) return record(kErrorInvalidDevice);
  *pool = &default_pool();
  return kSuccess;
}
int cudaDeviceGetMemPool(void** pool, int device) { return cudaDeviceGetDefaultMemPool(pool, device); }
int cudaDeviceSetMemPool(int device, void* pool) {
  if (device != 0) return record(kErrorInvalidDevice);
  return pool ? kSuccess : record(kErrorInvalidValue);
}
int cudaMemPoolCreate(void** pool, const void* props) {
  if (!pool || !props) return record(kErrorInvalidValue);
  *pool = new MemPool;
  return kSuccess;
}
int cudaMemPoolDestroy(void* pool) {
  if (!pool) return record(kErrorInvalidValue);
  if (pool != &default_pool()) delete static_cast<MemPool*>(pool);
  return kSuccess;
}
int cudaMemPoolTrimTo(void* pool, size_t) { return pool ? kSuccess : record(kErrorInvalidValue); }
// Attributes 1-3 are ints (reuse policies), 4 (release threshold) and 5-8 (the reserved and used
// counters) 64-bit.
int cudaMemPoolSetAttribute(void* pool, int attr, void* value) {
  if (!pool || !value || attr < 1 || attr > 8) return record(kErrorInvalidValue);
  auto& a = static_cast<MemPool*>(pool)->attributes[attr];
  a = attr <= 3 ? uint64_t(*static_cast<int*>(value)) : *static_cast<uint64_t*>(value);
  return kSuccess;
}
int cudaMemPoolGetAttribute(void* pool, int attr, void* value) {
  if (!pool || !value || attr < 1 || attr > 8) return record(kErrorInvalidValue);
  const uint64_t a = static_cast<MemPool*>(pool)->attributes[attr];
  if (attr <= 3) *static_cast<int*>(value) = static_cast<int>(a);
  else *static_cast<uint64_t*>(value) = a;
  return kSuccess;
}

}  // extern "C"
