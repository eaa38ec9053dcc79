// Runtime API: what nvcc's host code calls to register device code and launch kernels
// (crt/host_runtime.h, crt/device_functions.h of CUDA 13), and cudaLaunchKernel.
#include "runtime/api_support.h"
#include "runtime/graph_nodes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

// On a capturing stream the launch becomes a kernel node (graph_state.h); a cooperative launch's
// residency is checked by Runtime::launch.
int launch(const char* api, RegisteredKernel* k, Dim3 grid, Dim3 block, void** args, size_t shared,
           void* stream, LaunchExtras extras = {}) {
  return guarded(api, [&] {
    Runtime& rt = Runtime::get();
    if (!k) return rt.record(kErrorInvalidDeviceFunction);
    if (capturing(stream))
      return capture(stream, kernel_node(*k, grid, block, args, shared, extras));
    return rt.record(rt.launch(*k, grid, block, args, shared, extras, true));
  });
}

}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* wrapper) {
  void** handle = nullptr;
  guarded("__cudaRegisterFatBinary", [&] {
    handle = Runtime::get().register_fat_binary(wrapper);
    return kSuccess;
  });
  return handle;
}

void __cudaRegisterFatBinaryEnd(void**) {}

// Modules stay loaded until the process ends: the simulation's statistics refer to their kernels.
void __cudaUnregisterFatBinary(void**) {}

char __cudaInitModule(void**) { return 1; }

void __cudaRegisterFunction(void** handle, const char* host_fun, char*, const char* device_name,
                            int, void*, void*, void*, void*, int*) {
  guarded("__cudaRegisterFunction", [&] {
    Runtime::get().register_function(handle, host_fun, device_name);
    return kSuccess;
  });
}

void __cudaRegisterVar(void** handle, char* host_var, char*, const char* device_name, int,
                       size_t size, int, int) {
  guarded("__cudaRegisterVar", [&] {
    Runtime::get().register_var(handle, host_var, device_name, size);
    return kSuccess;
  });
}

unsigned __cudaPushCallConfiguration(Dim3 grid, Dim3 block, size_t shared, void* stream) {
  return static_cast<unsigned>(guarded("<<<>>>", [&] {
    Runtime::get().config_stack().push_back({grid, block, shared, stream});
    return kSuccess;
  }));
}

int __cudaPopCallConfiguration(Dim3* grid, Dim3* block, size_t* shared, void* stream) {
  return guarded("<<<>>>", [&] {
    auto& stack = Runtime::get().config_stack();
    if (stack.empty()) return kErrorInvalidConfiguration;
    const LaunchConfig c = stack.back();
    stack.pop_back();
    *grid = c.grid;
    *block = c.block;
    *shared = c.shared;
    *static_cast<void**>(stream) = c.stream;
    return kSuccess;
  });
}

// cudaKernel_t of a launch through <<<>>>: the registered kernel itself.
int __cudaGetKernel(void** kernel, const void* host_fun) {
  return guarded("__cudaGetKernel", [&] {
    RegisteredKernel* k = Runtime::get().kernel(host_fun);
    *kernel = k;
    return k ? kSuccess : kErrorInvalidDeviceFunction;
  });
}

int __cudaLaunchKernel(void* kernel, Dim3 grid, Dim3 block, void** args, size_t shared,
                       void* stream) {
  return launch("<<<>>>", static_cast<RegisteredKernel*>(kernel), grid, block, args, shared,
                stream);
}

int cudaLaunchKernel(const void* host_fun, Dim3 grid, Dim3 block, void** args, size_t shared,
                     void* stream) {
  return launch("cudaLaunchKernel", Runtime::get().kernel(host_fun), grid, block, args, shared,
                stream);
}

int cudaLaunchCooperativeKernel(const void* host_fun, Dim3 grid, Dim3 block, void** args,
                                size_t shared, void* stream) {
  return launch("cudaLaunchCooperativeKernel", Runtime::get().kernel(host_fun), grid, block, args,
                shared, stream, {true});
}

// cudaLaunchKernelEx: cooperative launches, thread block clusters (checked by Runtime::launch),
// and the attributes a serialised single device honours or needs not (priority, access policy
// windows, programmatic stream serialisation, memory sync domains).
int cudaLaunchKernelExC(const LaunchConfigEx* config, const void* host_fun, void** args) {
  if (!config || (config->numAttrs && !config->attrs))
    return Runtime::get().record(kErrorInvalidValue);
  LaunchExtras extras;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const LaunchAttribute& a = config->attrs[i];
    if (a.id == kLaunchAttrCooperative) extras.cooperative = a.val.cooperative != 0;
    if (a.id == kLaunchAttrClusterDimension)
      extras.cluster = {a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
  }
  return launch("cudaLaunchKernelEx", Runtime::get().kernel(host_fun), config->gridDim,
                config->blockDim, args, config->dynamicSmemBytes, config->stream, extras);
}

}  // extern "C"
