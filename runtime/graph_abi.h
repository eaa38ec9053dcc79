// The parts of CUDA 13.0's binary interface that graphs and stream capture use (driver_types.h):
// node parameter structures, cudaGraphNodeParams of cudaGraphAddNode, the instantiation and update
// results, edge data and the enumerations' values. Programs include NVIDIA's headers; these must
// agree with them bit for bit (sizes checked below against CUDA 13.0's).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

// cudaGraphNodeType.
enum class NodeType : int {
  kKernel = 0,
  kMemcpy = 1,
  kMemset = 2,
  kHost = 3,
  kGraph = 4,
  kEmpty = 5,
  kWaitEvent = 6,
  kEventRecord = 7,
  kExtSemSignal = 8,
  kExtSemWait = 9,
  kMemAlloc = 10,
  kMemFree = 11,
  kConditional = 13,
};

// cudaKernelNodeParams (and its V2, the same layout).
struct KernelNodeParams {
  void* func;
  Dim3 gridDim, blockDim;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
};
static_assert(sizeof(KernelNodeParams) == 56);

// cudaMemsetParams (and V2): `width` elements of `elementSize` (1, 2 or 4) bytes, `height` rows.
struct MemsetParams {
  void* dst;
  size_t pitch;
  unsigned value, elementSize;
  size_t width, height;
};
static_assert(sizeof(MemsetParams) == 40);

// cudaHostNodeParams (and V2).
struct HostNodeParams {
  void (*fn)(void*);
  void* userData;
};

// cudaMemPoolProps and cudaMemAllocNodeParams (and V2).
struct MemPoolProps {
  int allocType, handleTypes;
  struct {
    int type, id;
  } location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
static_assert(sizeof(MemPoolProps) == 88);
struct MemAllocNodeParams {
  MemPoolProps poolProps;
  const void* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;  // out: the allocation's address
};
static_assert(sizeof(MemAllocNodeParams) == 120);

// cudaConditionalNodeParams.
struct ConditionalNodeParams {
  uint64_t handle;
  int type;
  unsigned size;
  void** phGraph_out;
};

// cudaGraphNodeParams (cudaGraphAddNode, cudaGraphNodeSetParams).
struct GraphNodeParams {
  NodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    KernelNodeParams kernel;
    struct {
      int flags;
      int reserved[3];
      Memcpy3DParms copyParams;
    } memcpy;
    MemsetParams memset;
    HostNodeParams host;
    struct {
      void* graph;
      int ownership;
    } graph;  // cudaChildGraphNodeParams
    struct {
      void* event;
    } eventWait, eventRecord;
    MemAllocNodeParams alloc;
    struct {
      void* dptr;
    } free;
    ConditionalNodeParams conditional;
  };
  long long reserved2;
};
static_assert(sizeof(GraphNodeParams) == 256);

// cudaGraphEdgeData: only the default edge (all zero) is modelled.
struct GraphEdgeData {
  unsigned char from_port, to_port, type, reserved[5];
};
static_assert(sizeof(GraphEdgeData) == 8);

// cudaGraphInstantiateParams and cudaGraphInstantiateResult.
struct GraphInstantiateParams {
  unsigned long long flags;
  void* uploadStream;
  void* errNode_out;
  int result_out;
};
static_assert(sizeof(GraphInstantiateParams) == 32);
enum GraphInstantiateResult : int {
  kInstantiateSuccess = 0,
  kInstantiateError = 1,
  kInstantiateInvalidStructure = 2
};

// cudaGraphExecUpdateResultInfo and cudaGraphExecUpdateResult.
struct GraphExecUpdateResultInfo {
  int result;
  void* errorNode;
  void* errorFromNode;
};
static_assert(sizeof(GraphExecUpdateResultInfo) == 24);
enum GraphExecUpdateResult : int {
  kUpdateSuccess = 0,
  kUpdateError = 1,
  kUpdateTopologyChanged = 2,
  kUpdateNodeTypeChanged = 3,
  kUpdateFunctionChanged = 4,
  kUpdateParametersChanged = 5,
  kUpdateNotSupported = 6,
};

// cudaStreamCaptureStatus and cudaStreamCaptureMode.
enum CaptureStatus : int { kCaptureNone = 0, kCaptureActive = 1, kCaptureInvalidated = 2 };
enum CaptureMode : int { kCaptureGlobal = 0, kCaptureThreadLocal = 1, kCaptureRelaxed = 2 };

// cudaGraphMemAttributeType.
enum GraphMemAttribute : int {
  kUsedMemCurrent = 0,
  kUsedMemHigh = 1,
  kReservedMemCurrent = 2,
  kReservedMemHigh = 3
};

}  // namespace gputlm::runtime
