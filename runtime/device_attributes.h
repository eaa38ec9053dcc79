// What the runtime tells a program about its one device: every cudaDeviceAttr of CUDA 13 and the
// cudaDeviceProp fields, from one place so that cudaDeviceGetAttribute and cudaGetDeviceProperties
// agree. Values the config sets (cores, clocks, core limits, caches, the "device" section's memory
// and compute capability) come from it; limits the model has no notion of (texture sizes, PCI
// ids) are CUDA's documented values for compute capability 7.x-9.0 (CUDA C++ Programming Guide,
// "Features and Technical Specifications"), and capabilities the simulator lacks read 0.
#pragma once

#include <optional>

#include "models/gpu/gpu_spec.h"
#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

// The value of cudaDeviceAttr `attr`; nullopt for a value CUDA 13 does not define (and its
// reserved ones), which cudaDeviceGetAttribute answers with cudaErrorInvalidValue.
std::optional<int> device_attribute(const gpu::GpuSpec& spec, int attr);

// cudaGetDeviceProperties.
void fill_properties(const gpu::GpuSpec& spec, DeviceProp& p);

// CUDA's 1024 threads a block, or fewer when the config's core holds fewer.
uint32_t max_threads_per_block(const gpu::GpuSpec& spec);

}  // namespace gputlm::runtime
