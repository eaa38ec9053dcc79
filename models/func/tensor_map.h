// A TMA tensor map (CUtensorMap, 128 opaque bytes, 64-byte aligned; CUDA driver API
// cuTensorMapEncodeTiled): how cp.async.bulk.tensor (PTX ISA 9.7.9.25.5) finds a box of a tensor
// in global memory and lays it out in shared memory. The driver's encoding is its own; this is
// gputlm's, written by the runtime's cuTensorMapEncodeTiled and read by the functional engine.
#pragma once

#include <cstdint>
#include <cstring>

namespace gputlm::func {

struct TensorMap {
  static constexpr uint32_t kMagic = 0x504d5447;  // "GTMP"
  static constexpr unsigned kMaxRank = 5;
  enum Swizzle : uint8_t { None = 0, B32 = 1, B64 = 2, B128 = 3 };  // CUtensorMapSwizzle 0-3

  uint32_t magic = 0;
  uint8_t data_type = 0;     // CUtensorMapDataType
  uint8_t rank = 0;          // 1..5
  uint8_t swizzle = None;
  uint8_t nan_fill = 0;      // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA: out-of-bound elements read NaN, else zero
  uint8_t element_bytes = 0;
  uint8_t is_float = 0;
  uint8_t pad[6] = {};
  uint64_t address = 0;          // global address of element (0, ..., 0)
  uint32_t dim_minus_1[kMaxRank] = {};  // elements along each dimension, less one (a dimension may be 2^32)
  uint64_t stride[kMaxRank - 1] = {};   // bytes from one index of dimension i + 1 to the next
  uint16_t box[kMaxRank] = {};          // elements the box spans along each dimension (<= 256)
  uint8_t element_stride[kMaxRank] = {};  // traversal step along each dimension (1..8; dimension 0's is 1)

  uint64_t dim(unsigned d) const { return uint64_t{dim_minus_1[d]} + 1; }
  // Elements the box holds along dimension d: ceil(box / element stride).
  uint32_t box_count(unsigned d) const { return (box[d] + element_stride[d] - 1u) / element_stride[d]; }
  uint64_t box_bytes() const {
    uint64_t n = element_bytes;
    for (unsigned d = 0; d < rank; ++d) n *= box_count(d);
    return n;
  }
  // The shared memory address of a byte of the box laid out densely from `base`, after the
  // swizzle (CUDA C++ Programming Guide, TMA swizzle; CUTLASS cute::Swizzle<B, 4, 3>): the 16-byte
  // chunk within each 32, 64 or 128 bytes (bits 4 up) XORed with the 128-byte row (bits 7 up), so
  // the pattern repeats every 256, 512 or 1024 bytes.
  uint64_t swizzled(uint64_t address) const {
    if (swizzle == None) return address;
    const uint64_t mask = (uint64_t{1} << swizzle) - 1;  // 1, 3, 7
    return address ^ (((address >> 7) & mask) << 4);
  }
};
static_assert(sizeof(TensorMap) <= 128, "a CUtensorMap is 128 bytes");

inline TensorMap read_tensor_map(const void* bytes) {
  TensorMap m;
  std::memcpy(&m, bytes, sizeof m);
  return m;
}

}  // namespace gputlm::func
