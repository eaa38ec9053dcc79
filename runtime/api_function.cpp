// Runtime API: what a program asks about its kernels and their occupancy. cudaFuncGetAttributes
// reports the kernel's PTX (static shared and local memory, the PTX target as ptxVersion, which CUB
// and Thrust read to pick their tuning) and the config's registers per thread; the occupancy
// calculator is the timing model's own CTA limit (sm::ctas_fitting: CTAs, threads, warps,
// registers and shared memory of the config's core), so a program sizes its grid as the model
// will run it.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "runtime/api_support.h"
#include "runtime/device_attributes.h"
#include "runtime/runtime.h"

using namespace gputlm::runtime;

namespace {

CudaError record(CudaError e) { return Runtime::get().record(e); }
const gputlm::gpu::GpuSpec& spec() { return Runtime::get().program().spec(); }

// The kernel a host function names, with its PTX (throws the kernel's front-end error, as its
// launch would); nullptr when the function is not a registered kernel.
RegisteredKernel* kernel_of(const void* host_fun) {
  RegisteredKernel* k = Runtime::get().kernel(host_fun);
  if (k && !k->kernel) k->module->ptx->get(k->name);
  return k;
}

// "sm_75" (or "sm_90a, debug") -> 75.
int ptx_target(const gputlm::isa::Module& m) {
  const size_t at = m.target.find("sm_");
  return at == std::string::npos ? 0 : std::atoi(m.target.c_str() + at + 3);
}

// The dynamic shared memory one CTA may have beside its static shared memory on the config's core.
int shared_room(const RegisteredKernel& k) {
  return std::max(static_cast<int>(spec().core.shared_bytes) - static_cast<int>(k.kernel->shared_bytes), 0);
}

// What a launch may ask for: the room, or less where cudaFuncSetAttribute set a limit.
int dynamic_shared_limit(const RegisteredKernel& k) { return k.max_dynamic_shared >= 0 ? k.max_dynamic_shared : shared_room(k); }

int resident_ctas(const RegisteredKernel& k, int threads, size_t dynamic_shared) {
  return static_cast<int>(Runtime::get().resident_ctas(k, {static_cast<unsigned>(threads), 1, 1}, dynamic_shared));
}

}  // namespace

extern "C" {

int cudaFuncGetAttributes(FuncAttributes* attr, const void* host_fun) {
  return guarded("cudaFuncGetAttributes", [&] {
    if (!attr) return record(kErrorInvalidValue);
    const RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    *attr = FuncAttributes{};
    attr->sharedSizeBytes = k->kernel->shared_bytes;
    attr->localSizeBytes = k->kernel->local_bytes;
    attr->maxThreadsPerBlock = static_cast<int>(max_threads_per_block(spec()));
    attr->numRegs = static_cast<int>(spec().core.registers_per_thread);
    attr->ptxVersion = attr->binaryVersion = ptx_target(*k->module->ptx);
    attr->maxDynamicSharedSizeBytes = dynamic_shared_limit(*k);
    attr->preferredShmemCarveout = k->carveout;
    return kSuccess;
  });
}

// cudaFuncAttributeMaxDynamicSharedMemorySize (8) up to what the core holds beside the static
// shared memory; cudaFuncAttributePreferredSharedMemoryCarveout (9): -1 or a percentage. The
// cluster attributes (10-15) need clusters, which the model has not.
int cudaFuncSetAttribute(const void* host_fun, int attr, int value) {
  return guarded("cudaFuncSetAttribute", [&] {
    RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    if (attr == 8) {
      if (value < 0 || uint64_t(value) + k->kernel->shared_bytes > spec().core.shared_bytes) return record(kErrorInvalidValue);
      k->max_dynamic_shared = value;
      return kSuccess;
    }
    if (attr == 9) {
      if (value < -1 || value > 100) return record(kErrorInvalidValue);
      k->carveout = value;
      return kSuccess;
    }
    if (attr >= 10 && attr <= 15) not_implemented("cudaFuncSetAttribute of cluster attribute " + std::to_string(attr));
    return record(kErrorInvalidValue);
  });
}

int cudaFuncSetCacheConfig(const void* host_fun, int) {
  return guarded("cudaFuncSetCacheConfig", [&] { return record(kernel_of(host_fun) ? kSuccess : kErrorInvalidDeviceFunction); });
}

int cudaFuncSetSharedMemConfig(const void* host_fun, int) {
  return guarded("cudaFuncSetSharedMemConfig", [&] { return record(kernel_of(host_fun) ? kSuccess : kErrorInvalidDeviceFunction); });
}

int cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* host_fun, int threads, size_t dynamic_shared,
                                                           unsigned flags) {
  return guarded("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&] {
    if (!blocks || threads <= 0 || flags > 1) return record(kErrorInvalidValue);
    const RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    *blocks = uint32_t(threads) > max_threads_per_block(spec()) ? 0 : resident_ctas(*k, threads, dynamic_shared);
    return kSuccess;
  });
}

int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* host_fun, int threads, size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, host_fun, threads, dynamic_shared, 0);
}

// The most dynamic shared memory a CTA may have so that `ctas` CTAs of `threads` threads fit on
// a core at once.
int cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* host_fun, int ctas, int threads) {
  return guarded("cudaOccupancyAvailableDynamicSMemPerBlock", [&] {
    if (!bytes || ctas <= 0 || threads <= 0) return record(kErrorInvalidValue);
    const RegisteredKernel* k = kernel_of(host_fun);
    if (!k) return record(kErrorInvalidDeviceFunction);
    size_t lo = 0, hi = static_cast<size_t>(shared_room(*k));
    if (resident_ctas(*k, threads, 0) < ctas) hi = 0;
    while (lo < hi) {  // the largest size that still fits `ctas`
      const size_t mid = (lo + hi + 1) / 2;
      if (resident_ctas(*k, threads, mid) >= ctas) lo = mid;
      else hi = mid - 1;
    }
    *bytes = lo;
    return kSuccess;
  });
}

// cuda_profiler_api.h: the launches between a start and a stop form a profiler range in the
// statistics (ProgramRun::profiler_start).
int cudaProfilerStart() {
  return guarded("cudaProfilerStart", [] {
    Runtime::get().program().profiler_start();
    return kSuccess;
  });
}
int cudaProfilerStop() {
  return guarded("cudaProfilerStop", [] {
    Runtime::get().program().profiler_stop();
    return kSuccess;
  });
}

}  // extern "C"
