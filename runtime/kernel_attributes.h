// What the runtime and the driver API report about a kernel: its attributes (cudaFuncGetAttributes,
// cuFuncGetAttribute: the PTX's static shared and local memory, the PTX target as ptxVersion, the
// config's registers per thread) and its occupancy, which is the timing model's own CTA limit
// (Runtime::resident_ctas: sm::ctas_fitting of the config's core), so a program sizes its grid as
// the model will run it.
#pragma once

#include <cstddef>
#include <functional>

#include "runtime/cuda_abi.h"
#include "runtime/runtime.h"

namespace gputlm::runtime {

FuncAttributes kernel_attributes(const RegisteredKernel& k);
// cudaFuncSetAttribute / cuFuncSetAttribute: the dynamic shared memory limit (8) up to what
// the core holds beside the static shared memory, the preferred carveout (9: -1 or a percentage);
// the required cluster size (11-13; kErrorNotPermitted where the kernel fixes it at compile time),
// non-portable cluster sizes (14) and the cluster scheduling policy (15); kErrorInvalidValue for
// other values and for the read-only 10 (cudaFuncAttributeClusterDimMustBeSet).
CudaError set_kernel_attribute(RegisteredKernel& k, int attr, int value);
// The dynamic shared memory one CTA may have beside its static shared memory on the config's core.
int shared_room(const RegisteredKernel& k);
// CTAs of `threads` threads one core holds at once; 0 when a block cannot have that many threads.
int occupancy(const RegisteredKernel& k, int threads, size_t dynamic_shared);
// The block size (a multiple of 32 up to `limit`, 0: the most a block may have) that puts the most
// threads on a core, the dynamic shared memory of each size given by `shared_of`, and the grid
// that fills every core with it (cudaOccupancyMaxPotentialBlockSize's algorithm, cuda_runtime.h).
void max_potential_block_size(const RegisteredKernel& k,
                              const std::function<size_t(int)>& shared_of, int limit, int& min_grid,
                              int& block);

}  // namespace gputlm::runtime
