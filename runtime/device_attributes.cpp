#include "runtime/device_attributes.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

namespace gputlm::runtime {
namespace {

int clamp_int(uint64_t v) { return static_cast<int>(std::min<uint64_t>(v, INT_MAX)); }

// cudaDeviceAttr values (driver_types.h of CUDA 13.0) this file names.
enum : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockDimX,
  kMaxBlockDimY,
  kMaxBlockDimZ,
  kMaxGridDimX,
  kMaxGridDimY,
  kMaxGridDimZ,
  kMaxSharedMemoryPerBlock,
  kTotalConstantMemory,
  kWarpSize,
  kMaxPitch,
  kMaxRegistersPerBlock,
  kClockRate,
  kTextureAlignment,
  kGpuOverlap,
  kMultiProcessorCount,
  kKernelExecTimeout,
  kIntegrated,
  kCanMapHostMemory,
  kComputeMode,
  kMaxTexture1DWidth,
  kMaxTexture2DWidth,
  kMaxTexture2DHeight,
  kMaxTexture3DWidth,
  kMaxTexture3DHeight,
  kMaxTexture3DDepth,
  kMaxTexture2DLayeredWidth,
  kMaxTexture2DLayeredHeight,
  kMaxTexture2DLayeredLayers,
  kSurfaceAlignment,
  kConcurrentKernels,
  kEccEnabled,
  kPciBusId,
  kPciDeviceId,
  kTccDriver,
  kMemoryClockRate,
  kGlobalMemoryBusWidth,
  kL2CacheSize,
  kMaxThreadsPerMultiProcessor,
  kAsyncEngineCount,
  kUnifiedAddressing,
  kMaxTexture1DLayeredWidth,
  kMaxTexture1DLayeredLayers,
  kMaxTexture2DGatherWidth = 45,
  kMaxTexture2DGatherHeight,
  kMaxTexture3DWidthAlt,
  kMaxTexture3DHeightAlt,
  kMaxTexture3DDepthAlt,
  kPciDomainId,
  kTexturePitchAlignment,
  kMaxTextureCubemapWidth,
  kMaxTextureCubemapLayeredWidth,
  kMaxTextureCubemapLayeredLayers,
  kMaxSurface1DWidth,
  kMaxSurface2DWidth,
  kMaxSurface2DHeight,
  kMaxSurface3DWidth,
  kMaxSurface3DHeight,
  kMaxSurface3DDepth,
  kMaxSurface1DLayeredWidth,
  kMaxSurface1DLayeredLayers,
  kMaxSurface2DLayeredWidth,
  kMaxSurface2DLayeredHeight,
  kMaxSurface2DLayeredLayers,
  kMaxSurfaceCubemapWidth,
  kMaxSurfaceCubemapLayeredWidth,
  kMaxSurfaceCubemapLayeredLayers,
  kMaxTexture1DLinearWidth,
  kMaxTexture2DLinearWidth,
  kMaxTexture2DLinearHeight,
  kMaxTexture2DLinearPitch,
  kMaxTexture2DMipmappedWidth,
  kMaxTexture2DMipmappedHeight,
  kComputeCapabilityMajor,
  kComputeCapabilityMinor,
  kMaxTexture1DMipmappedWidth,
  kStreamPrioritiesSupported,
  kGlobalL1CacheSupported,
  kLocalL1CacheSupported,
  kMaxSharedMemoryPerMultiprocessor,
  kMaxRegistersPerMultiprocessor,
  kManagedMemory,
  kIsMultiGpuBoard,
  kMultiGpuBoardGroupId,
  kHostNativeAtomicSupported,
  kSingleToDoublePrecisionPerfRatio,
  kPageableMemoryAccess,
  kConcurrentManagedAccess,
  kComputePreemptionSupported,
  kCanUseHostPointerForRegisteredMem,
  kCooperativeLaunch = 95,
  kMaxSharedMemoryPerBlockOptin = 97,
  kCanFlushRemoteWrites,
  kHostRegisterSupported,
  kPageableMemoryAccessUsesHostPageTables,
  kDirectManagedMemAccessFromHost,
  kMaxBlocksPerMultiprocessor = 106,
  kMaxPersistingL2CacheSize = 108,
  kMaxAccessPolicyWindowSize,
  kReservedSharedMemoryPerBlock = 111,
  kSparseCudaArraySupported,
  kHostRegisterReadOnlySupported,
  kTimelineSemaphoreInteropSupported,
  kMemoryPoolsSupported,
  kGpuDirectRdmaSupported,
  kGpuDirectRdmaFlushWritesOptions,
  kGpuDirectRdmaWritesOrdering,
  kMemoryPoolSupportedHandleTypes,
  kClusterLaunch,
  kDeferredMappingCudaArraySupported,
  kIpcEventSupport = 125,
  kMemSyncDomainCount,
  kNumaConfig = 130,
  kNumaId,
  kMpsEnabled = 133,
  kHostNumaId,
  kD3D12CigSupported,
  kVulkanCigSupported = 138,
  kGpuPciDeviceId,
  kGpuPciSubsystemId,
  kHostNumaMemoryPoolsSupported = 142,
  kHostNumaMultinodeIpcSupported,
  kHostMemoryPoolsSupported,
  kOnlyPartialHostNativeAtomicSupported = 147,
};

}  // namespace

uint32_t max_threads_per_block(const gpu::GpuSpec& spec) {
  return std::min<uint32_t>(1024, spec.core.max_threads);
}

std::optional<int> device_attribute(const gpu::GpuSpec& spec, int attr) {
  const sm::CoreSpec& core = spec.core;
  const int block = static_cast<int>(max_threads_per_block(spec));
  switch (attr) {
    // The config's core and GPU.
    case kMaxThreadsPerBlock:
    case kMaxBlockDimX:
    case kMaxBlockDimY:
      return block;
    case kMaxBlockDimZ:
      return std::min(block, 64);
    case kMaxSharedMemoryPerBlock:
    case kMaxSharedMemoryPerMultiprocessor:
    case kMaxSharedMemoryPerBlockOptin:
      return clamp_int(core.shared_bytes);
    case kMaxRegistersPerBlock:
    case kMaxRegistersPerMultiprocessor:
      return clamp_int(core.registers);
    case kClockRate:
      return static_cast<int>(spec.core_clock_mhz() * 1000);  // kHz
    case kMultiProcessorCount:
      return clamp_int(spec.cores);
    case kMaxThreadsPerMultiProcessor:
      return clamp_int(core.max_threads);
    case kMaxBlocksPerMultiprocessor:
      return clamp_int(core.max_ctas);
    case kMemoryClockRate:
      return static_cast<int>(spec.dram.clock_mhz * 1000);  // kHz
    case kGlobalMemoryBusWidth:
      return clamp_int(uint64_t{spec.partitions} * spec.dram.command.bus_bytes * 8);
    case kL2CacheSize:
      return spec.l2 ? clamp_int(spec.l2->size_bytes * spec.partitions) : 0;
    // Persisting L2 lines (cudaAccessPolicyWindow): hints the model accepts and times as ordinary
    // accesses; three quarters of the L2 may be set aside, as on A100 (30 of 40 MB), with CUDA's
    // window limit.
    case kMaxPersistingL2CacheSize:
      return spec.l2 ? clamp_int(spec.l2->size_bytes * spec.partitions * 3 / 4) : 0;
    case kMaxAccessPolicyWindowSize:
      return spec.l2 ? 134213632 : 0;
    case kComputeCapabilityMajor:
      return static_cast<int>(spec.device.cc_major);
    case kComputeCapabilityMinor:
      return static_cast<int>(spec.device.cc_minor);
    // CUDA's limits for compute capability 7.x-9.0.
    case kMaxGridDimX:
      return INT_MAX;
    case kMaxGridDimY:
    case kMaxGridDimZ:
      return 65535;
    case kTotalConstantMemory:
      return 65536;
    case kWarpSize:
      return 32;
    case kMaxPitch:
      return INT_MAX;
    case kTextureAlignment:
    case kSurfaceAlignment:
      return 512;
    case kTexturePitchAlignment:
      return 32;
    case kMaxTexture1DWidth:
    case kMaxTexture2DWidth:
    case kMaxSurface2DWidth:
      return 131072;
    case kMaxTexture2DHeight:
    case kMaxSurface2DHeight:
      return 65536;
    case kMaxTexture3DWidth:
    case kMaxTexture3DHeight:
    case kMaxTexture3DDepth:
    case kMaxSurface3DWidth:
    case kMaxSurface3DHeight:
    case kMaxSurface3DDepth:
      return 16384;
    case kMaxTexture3DWidthAlt:
    case kMaxTexture3DHeightAlt:
      return 8192;
    case kMaxTexture3DDepthAlt:
      return 32768;
    case kMaxTexture2DLayeredWidth:
    case kMaxTexture2DLayeredHeight:
    case kMaxTexture1DLayeredWidth:
    case kMaxTexture2DGatherWidth:
    case kMaxTexture2DGatherHeight:
    case kMaxTextureCubemapWidth:
    case kMaxTextureCubemapLayeredWidth:
    case kMaxSurface1DWidth:
    case kMaxSurface1DLayeredWidth:
    case kMaxSurface2DLayeredWidth:
    case kMaxSurface2DLayeredHeight:
    case kMaxSurfaceCubemapWidth:
    case kMaxSurfaceCubemapLayeredWidth:
    case kMaxTexture2DMipmappedWidth:
    case kMaxTexture2DMipmappedHeight:
    case kMaxTexture1DMipmappedWidth:
      return 32768;
    case kMaxTexture2DLayeredLayers:
    case kMaxTexture1DLayeredLayers:
    case kMaxSurface1DLayeredLayers:
    case kMaxSurface2DLayeredLayers:
      return 2048;
    case kMaxTextureCubemapLayeredLayers:
    case kMaxSurfaceCubemapLayeredLayers:
      return 2046;
    case kMaxTexture1DLinearWidth:
      return 1 << 28;
    case kMaxTexture2DLinearWidth:
      return 131072;
    case kMaxTexture2DLinearHeight:
      return 65000;
    case kMaxTexture2DLinearPitch:
      return 2097120;
    // What the simulated device can do: one device, serialised streams, unified addressing,
    // managed memory, host registration, cooperative launches, stream priorities and pools.
    case kGpuOverlap:
    case kConcurrentKernels:
    case kUnifiedAddressing:
    case kCanMapHostMemory:
    case kStreamPrioritiesSupported:
    case kGlobalL1CacheSupported:
    case kLocalL1CacheSupported:
    case kManagedMemory:
    case kConcurrentManagedAccess:
    case kComputePreemptionSupported:
    case kCooperativeLaunch:
    case kHostRegisterSupported:
    case kMemoryPoolsSupported:
    case kMemSyncDomainCount:
    case kAsyncEngineCount:
      return 1;
    case kComputeMode:
      return 0;  // cudaComputeModeDefault
    case kSingleToDoublePrecisionPerfRatio:
      return 2;
    case kNumaId:
    case kHostNumaId:
      return -1;
    case kKernelExecTimeout:
    case kIntegrated:
    case kEccEnabled:
    case kPciBusId:
    case kPciDeviceId:
    case kTccDriver:
    case kPciDomainId:
    case kIsMultiGpuBoard:
    case kMultiGpuBoardGroupId:
    case kHostNativeAtomicSupported:
    case kPageableMemoryAccess:
    case kCanUseHostPointerForRegisteredMem:
    case kCanFlushRemoteWrites:
    case kPageableMemoryAccessUsesHostPageTables:
    case kDirectManagedMemAccessFromHost:
    case kReservedSharedMemoryPerBlock:
    case kSparseCudaArraySupported:
    case kHostRegisterReadOnlySupported:
    case kTimelineSemaphoreInteropSupported:
    case kGpuDirectRdmaSupported:
    case kGpuDirectRdmaFlushWritesOptions:
    case kGpuDirectRdmaWritesOrdering:
    case kMemoryPoolSupportedHandleTypes:
    case kClusterLaunch:
      return spec.device.cc_major >= 9 ? 1 : 0;  // thread block clusters are sm_90's
    case kDeferredMappingCudaArraySupported:
    case kIpcEventSupport:
    case kNumaConfig:
    case kMpsEnabled:
    case kD3D12CigSupported:
    case kVulkanCigSupported:
    case kGpuPciDeviceId:
    case kGpuPciSubsystemId:
    case kHostNumaMemoryPoolsSupported:
    case kHostNumaMultinodeIpcSupported:
    case kHostMemoryPoolsSupported:
    case kOnlyPartialHostNativeAtomicSupported:
      return 0;
  }
  return std::nullopt;
}

void fill_properties(const gpu::GpuSpec& spec, DeviceProp& p) {
  auto a = [&](int attr) { return *device_attribute(spec, attr); };
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "gputlm %s", spec.name.c_str());
  p.totalGlobalMem = spec.device.memory_bytes();
  p.sharedMemPerBlock = p.sharedMemPerMultiprocessor = p.sharedMemPerBlockOptin =
      spec.core.shared_bytes;
  p.regsPerBlock = a(kMaxRegistersPerBlock);
  p.regsPerMultiprocessor = a(kMaxRegistersPerMultiprocessor);
  p.warpSize = a(kWarpSize);
  p.memPitch = static_cast<size_t>(a(kMaxPitch));
  p.maxThreadsPerBlock = a(kMaxThreadsPerBlock);
  p.maxThreadsDim[0] = a(kMaxBlockDimX);
  p.maxThreadsDim[1] = a(kMaxBlockDimY);
  p.maxThreadsDim[2] = a(kMaxBlockDimZ);
  p.maxGridSize[0] = a(kMaxGridDimX);
  p.maxGridSize[1] = a(kMaxGridDimY);
  p.maxGridSize[2] = a(kMaxGridDimZ);
  p.totalConstMem = static_cast<size_t>(a(kTotalConstantMemory));
  p.major = a(kComputeCapabilityMajor);
  p.minor = a(kComputeCapabilityMinor);
  p.textureAlignment = static_cast<size_t>(a(kTextureAlignment));
  p.texturePitchAlignment = static_cast<size_t>(a(kTexturePitchAlignment));
  p.surfaceAlignment = static_cast<size_t>(a(kSurfaceAlignment));
  p.multiProcessorCount = a(kMultiProcessorCount);
  p.canMapHostMemory = a(kCanMapHostMemory);
  p.maxTexture1D = a(kMaxTexture1DWidth);
  p.maxTexture1DMipmap = a(kMaxTexture1DMipmappedWidth);
  p.maxTexture2D[0] = a(kMaxTexture2DWidth);
  p.maxTexture2D[1] = a(kMaxTexture2DHeight);
  p.maxTexture2DMipmap[0] = a(kMaxTexture2DMipmappedWidth);
  p.maxTexture2DMipmap[1] = a(kMaxTexture2DMipmappedHeight);
  p.maxTexture2DLinear[0] = a(kMaxTexture2DLinearWidth);
  p.maxTexture2DLinear[1] = a(kMaxTexture2DLinearHeight);
  p.maxTexture2DLinear[2] = a(kMaxTexture2DLinearPitch);
  p.maxTexture2DGather[0] = a(kMaxTexture2DGatherWidth);
  p.maxTexture2DGather[1] = a(kMaxTexture2DGatherHeight);
  for (int i = 0; i < 3; ++i) {
    p.maxTexture3D[i] = a(kMaxTexture3DWidth + i);
    p.maxTexture3DAlt[i] = a(kMaxTexture3DWidthAlt + i);
    p.maxSurface3D[i] = a(kMaxSurface3DWidth + i);
    p.maxTexture2DLayered[i] = a(kMaxTexture2DLayeredWidth + i);
    p.maxSurface2DLayered[i] = a(kMaxSurface2DLayeredWidth + i);
  }
  p.maxTextureCubemap = a(kMaxTextureCubemapWidth);
  p.maxTexture1DLayered[0] = a(kMaxTexture1DLayeredWidth);
  p.maxTexture1DLayered[1] = a(kMaxTexture1DLayeredLayers);
  p.maxTextureCubemapLayered[0] = a(kMaxTextureCubemapLayeredWidth);
  p.maxTextureCubemapLayered[1] = a(kMaxTextureCubemapLayeredLayers);
  p.maxSurface1D = a(kMaxSurface1DWidth);
  p.maxSurface2D[0] = a(kMaxSurface2DWidth);
  p.maxSurface2D[1] = a(kMaxSurface2DHeight);
  p.maxSurface1DLayered[0] = a(kMaxSurface1DLayeredWidth);
  p.maxSurface1DLayered[1] = a(kMaxSurface1DLayeredLayers);
  p.maxSurfaceCubemap = a(kMaxSurfaceCubemapWidth);
  p.maxSurfaceCubemapLayered[0] = a(kMaxSurfaceCubemapLayeredWidth);
  p.maxSurfaceCubemapLayered[1] = a(kMaxSurfaceCubemapLayeredLayers);
  p.concurrentKernels = a(kConcurrentKernels);
  p.asyncEngineCount = a(kAsyncEngineCount);
  p.unifiedAddressing = a(kUnifiedAddressing);
  p.memoryBusWidth = a(kGlobalMemoryBusWidth);
  p.l2CacheSize = a(kL2CacheSize);
  p.persistingL2CacheMaxSize = a(kMaxPersistingL2CacheSize);
  p.accessPolicyMaxWindowSize = a(kMaxAccessPolicyWindowSize);
  p.maxThreadsPerMultiProcessor = a(kMaxThreadsPerMultiProcessor);
  p.streamPrioritiesSupported = a(kStreamPrioritiesSupported);
  p.globalL1CacheSupported = a(kGlobalL1CacheSupported);
  p.localL1CacheSupported = a(kLocalL1CacheSupported);
  p.managedMemory = a(kManagedMemory);
  p.concurrentManagedAccess = a(kConcurrentManagedAccess);
  p.computePreemptionSupported = a(kComputePreemptionSupported);
  p.cooperativeLaunch = a(kCooperativeLaunch);
  p.maxBlocksPerMultiProcessor = a(kMaxBlocksPerMultiprocessor);
  p.hostRegisterSupported = a(kHostRegisterSupported);
  p.memoryPoolsSupported = a(kMemoryPoolsSupported);
  p.deviceNumaId = a(kNumaId);
  p.hostNumaId = a(kHostNumaId);
}

}  // namespace gputlm::runtime
