// The split of a core's unified L1 data cache / shared memory array (Volta and later;
// CoreSpec::unified_l1_shared_bytes) for one launch. The CUDA C++ Programming Guide
// ("Compute Capability 7.x", "Shared Memory"): the driver configures the shared memory capacity for
// each kernel, and cudaFuncAttributePreferredSharedMemoryCarveout is a hint, a percentage of the
// largest capacity, "the driver can choose a different ratio if required to execute the function"
// (cudaFuncSetAttribute). The rules:
//  - no preference (-1): Accel-Sim's adaptive cache configuration (gpgpu-sim shader.cc,
//    shader_core_config::max_cta with -gpgpu_adaptive_cache_config): the CTAs a core holds by every
//    limit at the largest capacity, at most the grid's share of a core (ceil(CTAs / cores)), and
//    the smallest capacity that holds their shared memory. The L1 keeps the rest: the largest L1
//    that loses no CTA.
//  - a preference of p%: the smallest capacity of at least p% of the largest that still holds
//    the CTAs the launch must have resident at once on a core (one; a cooperative grid's or a
//    cluster's share of a core, so that those still run), else the smallest that does.
// The L1 keeps its sets and line size and gets the array less the shared memory in whole ways, as
// GPGPU-Sim scales the ways (m_L1D_config.set_assoc; it rounds to the nearest way, the config here
// must leave whole ways: core_spec.cpp).
#pragma once

#include <cstdint>

#include "models/func/launch.h"
#include "models/sm/core_spec.h"

namespace gputlm::sm {

struct Carveout {
  uint32_t shared_bytes = 0;  // the shared memory capacity
  uint32_t l1d_ways = 0;      // the L1's ways (its sets and line size as configured)
  uint64_t l1d_bytes = 0;     // its capacity
};

// The split for `launch` on a core of `spec` among `cores` cores; spec's fixed shared_bytes and l1d
// on a core that is not unified. A launch no capacity holds a CTA of gets the largest (its launch
// then fails as on any core).
Carveout choose_carveout(const CoreSpec& spec, const func::Launch& launch, uint32_t cores);

}  // namespace gputlm::sm
