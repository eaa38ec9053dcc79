#include "runtime/pitched_copy.h"

namespace gputlm::runtime {

CudaError copy_rows(DeviceMemory& memory, char* dst, size_t dpitch, size_t dst_slice,
                    const char* src, size_t spitch, size_t src_slice, size_t width, size_t height,
                    size_t depth, MemcpyKind kind) {
  if (width > dpitch || width > spitch) return kErrorInvalidPitchValue;
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      if (const CudaError e = memory.copy(dst + z * dst_slice + y * dpitch,
                                          src + z * src_slice + y * spitch, width, kind))
        return e;
  return kSuccess;
}

}  // namespace gputlm::runtime
