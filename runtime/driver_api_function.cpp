// Driver API: a module's functions, their attributes and occupancy (cuda.h: cuFuncGetAttribute,
// cuFuncSetAttribute, cuOccupancy*), answered as the runtime answers for its kernels
// (kernel_attributes.h): the same PTX, the same timing-model occupancy.
#include <functional>
#include <string>

#include "runtime/driver_support.h"
#include "runtime/kernel_attributes.h"

using namespace gputlm::runtime;

namespace {

RegisteredKernel* function_of(void* function) {
  auto* k = static_cast<RegisteredKernel*>(function);
  if (k && !k->kernel) k->module->ptx->get(k->name);  // the kernel's front-end error
  return k;
}

}  // namespace

extern "C" {

// CUfunction_attribute (cuda.h) 0-15 from the kernel's attributes (10-15: its clusters).
int cuFuncGetAttribute(int* value, int attribute, void* function) {
  return driver("cuFuncGetAttribute", [&] {
    RegisteredKernel* k = function_of(function);
    if (!k) return kDriverInvalidHandle;
    if (!value || attribute < 0 || attribute > 15) return kErrorInvalidValue;
    const FuncAttributes a = kernel_attributes(*k);
    const int values[] = {a.maxThreadsPerBlock,
                          static_cast<int>(a.sharedSizeBytes),
                          static_cast<int>(a.constSizeBytes),
                          static_cast<int>(a.localSizeBytes),
                          a.numRegs,
                          a.ptxVersion,
                          a.binaryVersion,
                          a.cacheModeCA,
                          a.maxDynamicSharedSizeBytes,
                          a.preferredShmemCarveout,
                          a.clusterDimMustBeSet,
                          a.requiredClusterWidth,
                          a.requiredClusterHeight,
                          a.requiredClusterDepth,
                          a.nonPortableClusterSizeAllowed,
                          a.clusterSchedulingPolicyPreference};
    *value = values[attribute];
    return kSuccess;
  });
}

int cuFuncSetAttribute(void* function, int attribute, int value) {
  return driver("cuFuncSetAttribute", [&] {
    RegisteredKernel* k = function_of(function);
    return k ? set_kernel_attribute(*k, attribute, value) : kDriverInvalidHandle;
  });
}

// The L1/shared split is the config's: a preference changes nothing, as on devices with a fixed
// split.
int cuFuncSetCacheConfig(void* function, int config) {
  return driver("cuFuncSetCacheConfig", [&] {
    if (!function_of(function)) return kDriverInvalidHandle;
    return config >= 0 && config <= 3 ? kSuccess : kErrorInvalidValue;
  });
}

int cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, void* function, int threads,
                                                         size_t dynamic_shared, unsigned flags) {
  return driver("cuOccupancyMaxActiveBlocksPerMultiprocessor", [&] {
    RegisteredKernel* k = function_of(function);
    if (!k) return kDriverInvalidHandle;
    if (!blocks || threads <= 0 || flags > 1) return kErrorInvalidValue;
    *blocks = occupancy(*k, threads, dynamic_shared);
    return kSuccess;
  });
}

int cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void* function, int threads,
                                                size_t dynamic_shared) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, function, threads,
                                                              dynamic_shared, 0);
}

// `shared_of` (CUoccupancyB2DSize): the dynamic shared memory of a block size; null:
// `dynamic_shared`.
int cuOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid, int* block, void* function,
                                              size_t (*shared_of)(int), size_t dynamic_shared,
                                              int limit, unsigned flags) {
  return driver("cuOccupancyMaxPotentialBlockSize", [&] {
    RegisteredKernel* k = function_of(function);
    if (!k) return kDriverInvalidHandle;
    if (!min_grid || !block || flags > 1 || limit < 0) return kErrorInvalidValue;
    max_potential_block_size(
        *k, [&](int size) { return shared_of ? shared_of(size) : dynamic_shared; }, limit,
        *min_grid, *block);
    return kSuccess;
  });
}

int cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block, void* function,
                                     size_t (*shared_of)(int), size_t dynamic_shared, int limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, function, shared_of,
                                                   dynamic_shared, limit, 0);
}

}  // extern "C"
