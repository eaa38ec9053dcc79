// Runtime API: allocation, copies and memset (device, managed and pinned host memory; see
// device_memory.h). Async variants run at once: streams are serialised. On a capturing stream they
// become graph nodes; the synchronous calls are unsafe during capture (graph_state.h).
#include <cstdint>

#include "runtime/api_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

DeviceMemory& mem() { return Runtime::get().memory(); }
CudaError record(CudaError e) { return Runtime::get().record(e); }

CudaError capture_copy(void* stream, const Memcpy3DParms& p) {
  NodePtr node;
  if (const CudaError e = memcpy_node(p, node)) return record(e);
  return capture(stream, std::move(node));
}

CudaError capture_memset(void* stream, void* dst, int value, size_t bytes) {
  NodePtr node;
  if (const CudaError e =
          memset_node({dst, bytes, static_cast<unsigned>(value & 0xff), 1, bytes, 1}, node))
    return record(e);
  return capture(stream, std::move(node));
}

// A graph allocation (graph_memory.h) ends; others are freed.
CudaError free_device(void* ptr) {
  GraphMemory& graph_memory = Runtime::get().graphs().memory;
  const auto address = reinterpret_cast<uint64_t>(ptr);
  return record(graph_memory.owns(address) ? graph_memory.free(address) : mem().free(address));
}

int allocate(const char* api, void** ptr, size_t bytes, bool managed) {
  return guarded(api, [&] {
    if (!ptr) return record(kErrorInvalidValue);
    if (const CudaError e = check_unsafe_call()) return e;
    const uint64_t addr = mem().allocate(bytes, managed);
    *ptr = reinterpret_cast<void*>(addr);
    return record(addr ? kSuccess : kErrorMemoryAllocation);
  });
}

// `stream`: that of the Async forms (a capturing one captures a memcpy node), nullptr for the
// others.
int copy_symbol(const char* api, const void* symbol, void* host, size_t count, size_t offset,
                MemcpyKind kind, bool to_symbol, void* stream = nullptr) {
  return guarded(api, [&] {
    uint64_t address = 0, size = 0;
    if (const CudaError e = Runtime::get().symbol(symbol, address, size)) return record(e);
    if (offset + count > size) return record(kErrorInvalidValue);
    void* device = reinterpret_cast<void*>(address + offset);
    if (capturing(stream))
      return capture_copy(stream, to_symbol ? copy_1d(device, host, count, kind)
                                            : copy_1d(host, device, count, kind));
    return record(to_symbol ? mem().copy(device, host, count, kind)
                            : mem().copy(host, device, count, kind));
  });
}

}  // namespace

extern "C" {

int cudaMalloc(void** ptr, size_t bytes) { return allocate("cudaMalloc", ptr, bytes, false); }

// Flags (cudaMemAttachGlobal or Host) change nothing: there is one GPU and no concurrency.
int cudaMallocManaged(void** ptr, size_t bytes, unsigned) {
  return allocate("cudaMallocManaged", ptr, bytes, true);
}

int cudaFree(void* ptr) {
  return guarded("cudaFree", [&] {
    if (const CudaError e = check_unsafe_call()) return e;
    return free_device(ptr);
  });
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
    if (const CudaError e = check_unsafe_call()) return e;
    Runtime::get().synchronize();
    return record(mem().copy(dst, src, bytes, static_cast<MemcpyKind>(kind)));
  });
}

int cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, void* stream) {
  return guarded("cudaMemcpyAsync", [&] {
    if (capturing(stream)) return capture_copy(stream, copy_1d(dst, src, bytes, kind));
    return record(mem().copy(dst, src, bytes, static_cast<MemcpyKind>(kind)));
  });
}

int cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, int kind) {
  return copy_symbol("cudaMemcpyToSymbol", symbol, const_cast<void*>(src), count, offset,
                     static_cast<MemcpyKind>(kind), true);
}

int cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, int kind) {
  return copy_symbol("cudaMemcpyFromSymbol", symbol, dst, count, offset,
                     static_cast<MemcpyKind>(kind), false);
}

int cudaGetSymbolAddress(void** ptr, const void* symbol) {
  return guarded("cudaGetSymbolAddress", [&] {
    uint64_t address = 0, size = 0;
    if (const CudaError e = Runtime::get().symbol(symbol, address, size)) return record(e);
    *ptr = reinterpret_cast<void*>(address);
    return kSuccess;
  });
}

int cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                            int kind, void* stream) {
  return copy_symbol("cudaMemcpyToSymbolAsync", symbol, const_cast<void*>(src), count, offset,
                     static_cast<MemcpyKind>(kind), true, stream);
}

int cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, int kind,
                              void* stream) {
  return copy_symbol("cudaMemcpyFromSymbolAsync", symbol, dst, count, offset,
                     static_cast<MemcpyKind>(kind), false, stream);
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
  return guarded("cudaMemset", [&] {
    if (const CudaError e = check_unsafe_call()) return e;
    return record(mem().set(dst, value, bytes));
  });
}

int cudaMemsetAsync(void* dst, int value, size_t bytes, void* stream) {
  return guarded("cudaMemsetAsync", [&] {
    if (capturing(stream)) return capture_memset(stream, dst, value, bytes);
    return record(mem().set(dst, value, bytes));
  });
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

// On a capturing stream: a memory alloc node (its address fixed now, graph_memory.h).
int allocate_async(const char* api, void** ptr, size_t bytes, void* stream) {
  return guarded(api, [&] {
    if (!ptr) return record(kErrorInvalidValue);
    if (!capturing(stream)) {
      const uint64_t addr = mem().allocate(bytes, false);
      *ptr = reinterpret_cast<void*>(addr);
      return record(addr ? kSuccess : kErrorMemoryAllocation);
    }
    MemAllocNodeParams p{};
    p.poolProps.allocType = p.poolProps.location.type = 1;  // pinned, on the device
    p.bytesize = bytes;
    NodePtr node;
    if (const CudaError e = alloc_node(p, node)) return record(e);
    *ptr = p.dptr;
    return capture(stream, std::move(node));
  });
}
}  // namespace

extern "C" {

int cudaMallocAsync(void** ptr, size_t bytes, void* stream) {
  return allocate_async("cudaMallocAsync", ptr, bytes, stream);
}
int cudaMallocFromPoolAsync(void** ptr, size_t bytes, void* pool, void* stream) {
  if (!pool) return record(kErrorInvalidValue);
  return allocate_async("cudaMallocFromPoolAsync", ptr, bytes, stream);
}
int cudaFreeAsync(void* ptr, void* stream) {
  return guarded("cudaFreeAsync", [&] {
    if (!capturing(stream)) return free_device(ptr);
    NodePtr node;
    if (const CudaError e = free_node(ptr, node)) return record(e);
    return capture(stream, std::move(node));
  });
}

int cudaDeviceGetDefaultMemPool(void** pool, int device) {
  if (!pool) return record(kErrorInvalidValue);
  if (device != 0) return record(kErrorInvalidDevice);
  *pool = &default_pool();
  return kSuccess;
}
int cudaDeviceGetMemPool(void** pool, int device) {
  return cudaDeviceGetDefaultMemPool(pool, device);
}
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
  if (attr <= 3)
    *static_cast<int*>(value) = static_cast<int>(a);
  else
    *static_cast<uint64_t*>(value) = a;
  return kSuccess;
}

}  // extern "C"
