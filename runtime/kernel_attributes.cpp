#include "runtime/kernel_attributes.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "runtime/api_support.h"
#include "runtime/device_attributes.h"

namespace gputlm::runtime {

namespace {

const gpu::GpuSpec& spec() { return Runtime::get().program().spec(); }

// "sm_75" (or "sm_90a, debug") -> 75.
int ptx_target(const isa::Module& m) {
  const size_t at = m.target.find("sm_");
  return at == std::string::npos ? 0 : std::atoi(m.target.c_str() + at + 3);
}

}  // namespace

int shared_room(const RegisteredKernel& k) {
  return std::max(
      static_cast<int>(spec().core.shared_bytes) - static_cast<int>(k.kernel->shared_bytes), 0);
}

FuncAttributes kernel_attributes(const RegisteredKernel& k) {
  FuncAttributes a{};
  a.sharedSizeBytes = k.kernel->shared_bytes;
  a.localSizeBytes = k.kernel->local_bytes;
  a.maxThreadsPerBlock = static_cast<int>(max_threads_per_block(spec()));
  a.numRegs = static_cast<int>(spec().core.registers_per_thread);
  a.ptxVersion = a.binaryVersion = ptx_target(*k.module->ptx);
  // What a launch may ask for: the room, or less where cudaFuncSetAttribute set a limit.
  a.maxDynamicSharedSizeBytes = k.max_dynamic_shared >= 0 ? k.max_dynamic_shared : shared_room(k);
  a.preferredShmemCarveout = k.carveout;
  const Dim3 c = k.cluster_dims();
  a.clusterDimMustBeSet = k.kernel->explicit_cluster && !c.x;
  a.requiredClusterWidth = static_cast<int>(c.x);
  a.requiredClusterHeight = static_cast<int>(c.y);
  a.requiredClusterDepth = static_cast<int>(c.z);
  a.nonPortableClusterSizeAllowed = k.non_portable_cluster;
  a.clusterSchedulingPolicyPreference = k.cluster_policy;
  return a;
}

CudaError set_kernel_attribute(RegisteredKernel& k, int attr, int value) {
  if (attr == 8) {
    if (value < 0 || uint64_t(value) + k.kernel->shared_bytes > spec().core.shared_bytes)
      return kErrorInvalidValue;
    k.max_dynamic_shared = value;
    return kSuccess;
  }
  if (attr == 9) {
    if (value < -1 || value > 100) return kErrorInvalidValue;
    k.carveout = value;
    return kSuccess;
  }
  if (attr >= 11 && attr <= 13) {  // the required cluster width, height, depth
    if (k.kernel->cluster_dims[0]) return kErrorNotPermitted;  // fixed at compile time
    if (value < 0 || value > 16) return kErrorInvalidValue;
    unsigned* dim[] = {&k.required_cluster.x, &k.required_cluster.y, &k.required_cluster.z};
    *dim[attr - 11] = static_cast<unsigned>(value);
    Dim3& r = k.required_cluster;  // a size names all three dimensions: the unset ones are 1
    if (r.x || r.y || r.z) r = {std::max(r.x, 1u), std::max(r.y, 1u), std::max(r.z, 1u)};
    return kSuccess;
  }
  if (attr == 14) {
    if (value != 0 && value != 1) return kErrorInvalidValue;
    k.non_portable_cluster = value;
    return kSuccess;
  }
  if (attr == 15) {
    if (value < 0 || value > 2) return kErrorInvalidValue;
    k.cluster_policy = value;
    return kSuccess;
  }
  return kErrorInvalidValue;  // 10 (cudaFuncAttributeClusterDimMustBeSet) is read-only
}

int occupancy(const RegisteredKernel& k, int threads, size_t dynamic_shared) {
  if (threads <= 0 || static_cast<uint32_t>(threads) > max_threads_per_block(spec())) return 0;
  return static_cast<int>(
      Runtime::get().resident_ctas(k, {static_cast<unsigned>(threads), 1, 1}, dynamic_shared));
}

void max_potential_block_size(const RegisteredKernel& k,
                              const std::function<size_t(int)>& shared_of, int limit, int& min_grid,
                              int& block) {
  const int most = static_cast<int>(max_threads_per_block(spec()));
  limit = limit > 0 ? std::min(limit, most) : most;
  int best_threads = 0, best_blocks = 0, best_size = 0;
  for (int size = limit / 32 * 32; size > 0; size -= 32) {
    const int blocks = occupancy(k, size, shared_of(size));
    if (blocks * size > best_threads)
      best_threads = blocks * size, best_blocks = blocks, best_size = size;
  }
  block = best_size;
  min_grid = best_blocks * static_cast<int>(spec().cores);
}

}  // namespace gputlm::runtime
