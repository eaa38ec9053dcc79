// The CUDA 13.0 driver API's virtual memory management structures (cuda.h: CUmemLocation,
// CUmemAllocationProp, CUmemAccessDesc) and the enumeration values the stand-in reads from them,
// declared bit for bit so that the library builds without the toolkit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gputlm::runtime {

// CUmemLocationType.
enum MemLocationType : int {
  kLocationInvalid = 0,
  kLocationDevice = 1,
  kLocationHost = 2,
  kLocationHostNuma = 3,
  kLocationHostNumaCurrent = 4
};
// CUmemAllocationType.
enum MemAllocationType : int {
  kAllocationInvalid = 0,
  kAllocationPinned = 1,
  kAllocationManaged = 2
};
// CUmemAccess_flags.
enum MemAccessFlags : int { kAccessNone = 0, kAccessRead = 1, kAccessReadWrite = 3 };
// CUmemAllocationGranularity_flags.
enum MemGranularityOption : int { kGranularityMinimum = 0, kGranularityRecommended = 1 };
// CUmemAllocationCompType.
constexpr unsigned char kCompressionNone = 0, kCompressionGeneric = 1;

struct MemLocation {
  int type;  // MemLocationType
  int id;    // the device ordinal for kLocationDevice
};
static_assert(sizeof(MemLocation) == 8);

struct MemAllocationProp {
  int type;                  // MemAllocationType
  int requestedHandleTypes;  // CUmemAllocationHandleType bits
  MemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};
static_assert(sizeof(MemAllocationProp) == 32 && offsetof(MemAllocationProp, allocFlags) == 24);

struct MemAccessDesc {
  MemLocation location;
  int flags;  // MemAccessFlags
};
static_assert(sizeof(MemAccessDesc) == 12);

}  // namespace gputlm::runtime
