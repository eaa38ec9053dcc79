// Copies between pitched ranges of host, device or managed memory, as cudaMemcpy2D/3D and the
// driver's cuMemcpy2D/3D make them: `depth` slices of `height` rows of `width` bytes, the rows
// `pitch` bytes apart and the slices `slice` bytes apart on each side, one DeviceMemory::copy a
// row. kErrorInvalidPitchValue when `width` passes a pitch.
#pragma once

#include <cstddef>

#include "runtime/cuda_abi.h"
#include "runtime/device_memory.h"

namespace gputlm::runtime {

CudaError copy_rows(DeviceMemory& memory, char* dst, size_t dpitch, size_t dst_slice,
                    const char* src, size_t spitch, size_t src_slice, size_t width, size_t height,
                    size_t depth, MemcpyKind kind);

}  // namespace gputlm::runtime
