// The driver API's modules, memory, launches, streams and events (see driver_api.cpp). Streams
// and events are the runtime's: serialised, an event holding the simulated time of the launches
// before it.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "runtime/api_support.h"
#include "runtime/driver_abi.h"
#include "runtime/driver_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

Runtime& rt() { return Runtime::get(); }
DeviceMemory& mem() { return rt().memory(); }
void* ptr(uint64_t address) { return reinterpret_cast<void*>(address); }

// The parameter pointers of a launch whose `extra` packs the parameters into one buffer laid out
// as the kernel's .param list.
std::vector<void*> packed_params(const RegisteredKernel& k, void** extra) {
  char* buffer = nullptr;
  for (size_t i = 0; extra[i] != reinterpret_cast<void*>(kLaunchParamEnd); i += 2) {
    if (extra[i] == reinterpret_cast<void*>(kLaunchParamBufferPointer))
      buffer = static_cast<char*>(extra[i + 1]);
    else if (extra[i] != reinterpret_cast<void*>(kLaunchParamBufferSize))
      not_implemented("cuLaunchKernel with extra option " +
                      std::to_string(reinterpret_cast<uintptr_t>(extra[i])));
  }
  std::vector<void*> params;
  if (!buffer) return params;
  for (const auto& p : k.kernel->params) params.push_back(buffer + p.offset);
  return params;
}

// On a capturing stream the launch becomes a kernel node (graph_state.h).
int launch(const char* api, void* function, Dim3 grid, Dim3 block, unsigned shared, void* stream,
           void** params, void** extra, LaunchExtras extras) {
  return driver(api, [&] {
    auto* k = static_cast<RegisteredKernel*>(function);
    if (!k) return kDriverInvalidHandle;
    if (params && extra) return kErrorInvalidValue;
    if (!k->kernel) k->module->ptx->get(k->name);  // the kernel's front-end error
    std::vector<void*> packed;
    if (extra) {
      packed = packed_params(*k, extra);
      params = packed.data();
    }
    if (!params && !k->kernel->params.empty()) return kErrorInvalidValue;
    if (capturing(stream))
      return capture(stream, kernel_node(*k, grid, block, params, shared, extras));
    return rt().record(rt().launch(*k, grid, block, params, shared, extras, true));
  });
}

}  // namespace

extern "C" {

int cuModuleLoadData(void** module, const void* image) {
  return driver("cuModuleLoadData", [&] {
    if (!module || !image) return kErrorInvalidValue;
    *module = rt().load_module(image, "cuModuleLoadData image");
    return kSuccess;
  });
}

// The JIT options (log buffers, optimisation level) change nothing: PTX is not compiled.
int cuModuleLoadDataEx(void** module, const void* image, unsigned, void*, void**) {
  return cuModuleLoadData(module, image);
}

int cuModuleLoad(void** module, const char* path) {
  return driver("cuModuleLoad", [&] {
    if (!module || !path) return kErrorInvalidValue;
    std::ifstream in(path, std::ios::binary);
    if (!in) return kDriverNotFound;
    std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    *module = rt().load_module(image.c_str(), path);
    return kSuccess;
  });
}

// Modules stay loaded until the process ends: the statistics refer to their kernels.
int cuModuleUnload(void* module) { return module ? kSuccess : kDriverInvalidHandle; }

int cuModuleGetFunction(void** function, void* module, const char* name) {
  return driver("cuModuleGetFunction", [&] {
    if (!function || !module || !name) return kErrorInvalidValue;
    RegisteredKernel* k = rt().module_kernel(static_cast<LoadedModule*>(module), name);
    if (!k) return kDriverNotFound;
    *function = k;
    return kSuccess;
  });
}

int cuModuleGetGlobal_v2(uint64_t* address, size_t* bytes, void* module, const char* name) {
  return driver("cuModuleGetGlobal", [&] {
    if (!module || !name) return kErrorInvalidValue;
    auto* m = static_cast<LoadedModule*>(module);
    const gputlm::isa::ModuleVar* v = m->ptx->variable(name);
    if (!v) return kDriverNotFound;
    if (address) *address = m->variables.at(name);
    if (bytes) *bytes = v->size;
    return kSuccess;
  });
}

int cuLaunchKernel(void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  return launch("cuLaunchKernel", function, {gx, gy, gz}, {bx, by, bz}, shared, stream, params,
                extra, {});
}

int cuLaunchCooperativeKernel(void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                              unsigned by, unsigned bz, unsigned shared, void* stream,
                              void** params) {
  return launch("cuLaunchCooperativeKernel", function, {gx, gy, gz}, {bx, by, bz}, shared, stream,
                params, nullptr, {true});
}

int cuMemAlloc_v2(uint64_t* address, size_t bytes) {
  return driver("cuMemAlloc", [&] {
    if (!address || bytes == 0) return kErrorInvalidValue;
    *address = mem().allocate(bytes, false);
    return *address ? kSuccess : kErrorMemoryAllocation;
  });
}
int cuMemFree_v2(uint64_t address) {
  return driver("cuMemFree", [&] { return mem().free(address); });
}
int cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  return driver("cuMemGetInfo", [&] {
    if (!free_bytes || !total) return kErrorInvalidValue;
    *total = mem().capacity();
    *free_bytes = mem().capacity() - mem().in_use();
    return kSuccess;
  });
}
int cuMemAllocHost_v2(void** host, size_t bytes) {
  return driver("cuMemAllocHost", [&] {
    if (!host) return kErrorInvalidValue;
    *host = mem().allocate_host(bytes);
    return *host ? kSuccess : kErrorMemoryAllocation;
  });
}
int cuMemHostAlloc(void** host, size_t bytes, unsigned) { return cuMemAllocHost_v2(host, bytes); }
int cuMemFreeHost(void* host) {
  return driver("cuMemFreeHost", [&] { return mem().free_host(host); });
}
int cuMemHostGetDevicePointer_v2(uint64_t* device, void* host, unsigned flags) {
  return driver("cuMemHostGetDevicePointer", [&] {
    if (!device || flags != 0) return kErrorInvalidValue;
    return mem().device_pointer(host, *device);
  });
}

int cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t bytes) {
  return driver("cuMemcpyHtoD", [&] { return mem().copy(ptr(dst), src, bytes, kHostToDevice); });
}
int cuMemcpyDtoH_v2(void* dst, uint64_t src, size_t bytes) {
  return driver("cuMemcpyDtoH", [&] { return mem().copy(dst, ptr(src), bytes, kDeviceToHost); });
}
int cuMemcpyDtoD_v2(uint64_t dst, uint64_t src, size_t bytes) {
  return driver("cuMemcpyDtoD",
                [&] { return mem().copy(ptr(dst), ptr(src), bytes, kDeviceToDevice); });
}
int cuMemcpy(uint64_t dst, uint64_t src, size_t bytes) {
  return driver("cuMemcpy", [&] { return mem().copy(ptr(dst), ptr(src), bytes, kDefault); });
}
int cuMemcpyHtoDAsync_v2(uint64_t dst, const void* src, size_t bytes, void*) {
  return cuMemcpyHtoD_v2(dst, src, bytes);
}
int cuMemcpyDtoHAsync_v2(void* dst, uint64_t src, size_t bytes, void*) {
  return cuMemcpyDtoH_v2(dst, src, bytes);
}
int cuMemcpyAsync(uint64_t dst, uint64_t src, size_t bytes, void*) {
  return cuMemcpy(dst, src, bytes);
}

int cuMemsetD8_v2(uint64_t dst, unsigned char value, size_t count) {
  return driver("cuMemsetD8", [&] { return mem().set(ptr(dst), value, count); });
}
int cuMemsetD32_v2(uint64_t dst, unsigned value, size_t count) {
  return driver("cuMemsetD32", [&] {
    std::vector<unsigned> words(count, value);
    return mem().copy(ptr(dst), words.data(), count * 4, kHostToDevice);
  });
}

// Streams and events: the runtime's (api_device.cpp, api_stream.cpp).
int cudaStreamCreateWithFlags(void** stream, unsigned flags);
int cudaStreamDestroy(void* stream);
int cudaEventCreate(void** event);
int cudaEventRecord(void* event, void* stream);
int cudaEventElapsedTime(float* ms, void* start, void* end);
int cudaEventDestroy(void* event);
int cudaStreamSynchronize(void* stream);
int cudaEventSynchronize(void* event);

int cuStreamCreate(void** stream, unsigned flags) {
  return cudaStreamCreateWithFlags(stream, flags);
}
int cuStreamDestroy_v2(void* stream) { return cudaStreamDestroy(stream); }
int cuStreamSynchronize(void* stream) { return cudaStreamSynchronize(stream); }
int cuStreamQuery(void*) { return kSuccess; }
int cuEventCreate(void** event, unsigned) { return cudaEventCreate(event); }
int cuEventRecord(void* event, void* stream) { return cudaEventRecord(event, stream); }
int cuEventSynchronize(void* event) { return cudaEventSynchronize(event); }
int cuEventQuery(void*) { return kSuccess; }
int cuEventElapsedTime_v2(float* ms, void* start, void* end) {
  return cudaEventElapsedTime(ms, start, end);
}
int cuEventElapsedTime(float* ms, void* start, void* end) {
  return cudaEventElapsedTime(ms, start, end);
}
int cuEventDestroy_v2(void* event) { return cudaEventDestroy(event); }

}  // extern "C"
