// The parts of the CUDA runtime's binary interface (CUDA 13.0) the stand-in implements, declared
// here so that the library builds without the CUDA toolkit: error codes, memcpy kinds and the
// layouts of the structures the API fills or reads: dim3, cudaDeviceProp (offsets checked
// below against the values CUDA 13.0's driver_types.h gives; the test programs read the fields
// back), cudaFuncAttributes, cudaPointerAttributes, cudaLaunchConfig_t's attributes and the 3D
// copy's. Programs include NVIDIA's headers; these must agree with them bit for bit.
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
  kErrorInvalidPitchValue = 12,
  kErrorInvalidSymbol = 13,
  kErrorInvalidHostPointer = 16,
  kErrorInvalidDevicePointer = 17,
  kErrorInvalidMemcpyDirection = 21,
  kErrorInvalidDeviceFunction = 98,
  kErrorInvalidDevice = 101,
  kErrorUnsupportedLimit = 215,
  kErrorPeerAccessUnsupported = 217,
  kErrorInvalidResourceHandle = 400,
  kErrorIllegalState = 401,
  kErrorNotReady = 600,
  kErrorAssert = 710,
  kErrorHostMemoryAlreadyRegistered = 712,
  kErrorHostMemoryNotRegistered = 713,
  kErrorLaunchFailure = 719,
  kErrorCooperativeLaunchTooLarge = 720,
  kErrorNotPermitted = 800,
  kErrorNotSupported = 801,
  kErrorStreamCaptureUnsupported = 900,
  kErrorStreamCaptureInvalidated = 901,
  kErrorStreamCaptureMerge = 902,
  kErrorStreamCaptureUnmatched = 903,
  kErrorStreamCaptureUnjoined = 904,
  kErrorStreamCaptureIsolation = 905,
  kErrorStreamCaptureImplicit = 906,
  kErrorStreamCaptureWrongThread = 908,
  kErrorGraphExecUpdateFailure = 910,
  kErrorInvalidClusterSize = 912,
};

enum MemcpyKind : int {
  kHostToHost = 0,
  kHostToDevice = 1,
  kDeviceToHost = 2,
  kDeviceToDevice = 3,
  kDefault = 4
};

struct Dim3 {
  unsigned x, y, z;
};

// cudaDeviceProp of CUDA 13.0 (1008 bytes), field by field.
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
  int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2],
      maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3],
      maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3],
      maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3],
      maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap,
      maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver,
      asyncEngineCount, unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize,
      maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported,
      localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID,
      hostNativeAtomicSupported, pageableMemoryAccess, concurrentManagedAccess,
      computePreemptionSupported, canUseHostPointerForRegisteredMem, cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost,
      maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
      timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers,
      deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
  unsigned gpuPciDeviceID, gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};
static_assert(offsetof(DeviceProp, totalGlobalMem) == 288);
static_assert(offsetof(DeviceProp, multiProcessorCount) == 384);
static_assert(offsetof(DeviceProp, maxThreadsPerMultiProcessor) == 604);
static_assert(offsetof(DeviceProp, sharedMemPerMultiprocessor) == 624);
static_assert(offsetof(DeviceProp, maxBlocksPerMultiProcessor) == 688);
static_assert(sizeof(DeviceProp) == 1008);

// cudaFuncAttributes (cudaFuncGetAttributes).
struct FuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
      maxDynamicSharedSizeBytes, preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth,
      requiredClusterHeight, requiredClusterDepth, clusterSchedulingPolicyPreference,
      nonPortableClusterSizeAllowed;
  int reserved[16];
};
static_assert(sizeof(FuncAttributes) == 144);

// cudaPointerAttributes and cudaMemoryType.
enum MemoryType : int {
  kMemoryUnregistered = 0,
  kMemoryHost = 1,
  kMemoryDevice = 2,
  kMemoryManaged = 3
};
struct PointerAttributes {
  MemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};

// cudaLaunchConfig_t and its attributes (cudaLaunchKernelExC).
struct LaunchAttribute {
  int id;  // cudaLaunchAttributeID
  char pad[4];
  union {
    char bytes[64];
    int cooperative;  // cudaLaunchAttributeCooperative (2)
    struct {
      unsigned x, y, z;
    } clusterDim;  // cudaLaunchAttributeClusterDimension (4)
  } val;
};
static_assert(sizeof(LaunchAttribute) == 72);
enum LaunchAttributeId : int { kLaunchAttrCooperative = 2, kLaunchAttrClusterDimension = 4 };
struct LaunchConfigEx {
  Dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  void* stream;
  LaunchAttribute* attrs;
  unsigned numAttrs;
};

// cudaPitchedPtr, cudaExtent, cudaPos and cudaMemcpy3DParms.
struct PitchedPtr {
  void* ptr;
  size_t pitch, xsize, ysize;
};
struct Extent {
  size_t width, height, depth;
};
struct Pos {
  size_t x, y, z;
};
struct Memcpy3DParms {
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  Extent extent;
  int kind;
};

}  // namespace gputlm::runtime
