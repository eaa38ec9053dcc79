// The parts of the CUDA runtime's binary interface (CUDA 13.0) the stand-in implements, declared
// here so that the library builds without the CUDA toolkit: error codes, memcpy kinds, device
// attributes, dim3 and the layout of cudaDeviceProp (offsets checked below against the values
// CUDA 13.0's driver_types.h gives; the test programs read the fields back). Programs include
// NVIDIA's headers; these must agree with them bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gputlm::runtime {

// cudaError_t: the codes this runtime returns (driver_types.h values).
enum CudaError : int {
  kSuccess = 0,
  kErrorInvalidValue = 1,
  kErrorMemoryAllocation = 2,
  kErrorInvalidConfiguration = 9,
  kErrorInvalidSymbol = 13,
  kErrorInvalidDevicePointer = 17,
  kErrorInvalidMemcpyDirection = 21,
  kErrorInvalidDeviceFunction = 98,
  kErrorInvalidDevice = 101,
  kErrorInvalidResourceHandle = 400,
  kErrorNotReady = 600,
  kErrorLaunchFailure = 719,
};

// The device memory the runtime reports (cudaDeviceProp::totalGlobalMem, cudaMemGetInfo): the
// simulator's memory is sparse host memory, so this is a nominal size.
constexpr size_t kDeviceMemoryBytes = size_t{16} << 30;

enum MemcpyKind : int { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3, kDefault = 4 };

struct Dim3 {
  unsigned x, y, z;
};

// cudaDeviceProp of CUDA 13.0 (1008 bytes) up to the last field this runtime fills; the rest is
// zero.
struct DeviceProp {
  char name[256];
  char uuid[16];
  char luid[8];
  unsigned luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int multiProcessorCount, integrated, canMapHostMemory;
  int textures_and_surfaces[39];  // maxTexture1D ... maxSurfaceCubemapLayered[2]
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount, unifiedAddressing,
      memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported,
      globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
      pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
      cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor;
  unsigned char rest[1008 - 692];
};
static_assert(offsetof(DeviceProp, totalGlobalMem) == 288);
static_assert(offsetof(DeviceProp, multiProcessorCount) == 384);
static_assert(offsetof(DeviceProp, maxThreadsPerMultiProcessor) == 604);
static_assert(offsetof(DeviceProp, sharedMemPerMultiprocessor) == 624);
static_assert(offsetof(DeviceProp, maxBlocksPerMultiProcessor) == 688);
static_assert(sizeof(DeviceProp) == 1008);

// cudaDeviceAttr values cudaDeviceGetAttribute answers.
enum DeviceAttr : int {
  kAttrMaxThreadsPerBlock = 1,
  kAttrMaxSharedMemoryPerBlock = 8,
  kAttrWarpSize = 10,
  kAttrMaxRegistersPerBlock = 12,
  kAttrClockRate = 13,  // kHz
  kAttrMultiProcessorCount = 16,
  kAttrComputeCapabilityMajor = 75,
  kAttrComputeCapabilityMinor = 76,
  kAttrMaxThreadsPerMultiProcessor = 39,
  kAttrMaxSharedMemoryPerMultiprocessor = 81,
  kAttrMaxSharedMemoryPerBlockOptin = 97,
  kAttrMaxBlocksPerMultiprocessor = 106,
};

}  // namespace gputlm::runtime
