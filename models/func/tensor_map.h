// A TMA tensor map (CUtensorMap, 128 opaque bytes, 64-byte aligned; CUDA driver API
// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col): how cp.async.bulk.tensor (PTX ISA
// 9.7.9.25.5) finds a box of a tensor in global memory and lays it out in shared memory. The
// driver's encoding is its own; this is gputlm's, written by the runtime's encoders and read by the
// functional engine (tensor_box.h walks a box of either kind).
#pragma once

#include <cstdint>
#include <cstring>

namespace gputlm::func {

struct TensorMap {
  static constexpr uint32_t kMagic = 0x504d5447;  // "GTMP"
  static constexpr unsigned kMaxRank = 5;
  enum Swizzle : uint8_t { None = 0, B32 = 1, B64 = 2, B128 = 3 };  // CUtensorMapSwizzle 0-3

  uint32_t magic = 0;
  uint8_t data_type = 0;  // CUtensorMapDataType
  uint8_t rank = 0;       // 1..5
  uint8_t swizzle = None;
  uint8_t nan_fill = 0;  // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA: out-of-bound elements
                         // read NaN, else zero
  uint8_t element_bytes = 0;
  uint8_t is_float = 0;
  uint8_t im2col =
      0;  // made by cuTensorMapEncodeIm2col (PTX ISA 5.5.4): the fields below the strides
  uint8_t interleave =
      0;  // CUtensorMapInterleave: 0 none, 1 16 bytes (NC/8DHWC8), 2 32 bytes (NC/16DHWC16)
  uint8_t pad[4] = {};
  uint64_t address = 0;  // global address of element (0, ..., 0)
  uint32_t dim_minus_1[kMaxRank] =
      {};  // elements along each dimension, less one (a dimension may be 2^32)
  uint64_t stride[kMaxRank - 1] = {};  // bytes from one index of dimension i + 1 to the next
  uint16_t box[kMaxRank] = {};         // elements the box spans along each dimension (<= 256)
  uint8_t element_stride[kMaxRank] =
      {};  // traversal step along each dimension (1..8; dimension 0's is 1 unless interleaved)
  // im2col (rank 3..5: C, then the spatial dimensions W{, H{, D}}, then N): the bounding box's
  // corners in W, H, D order (lower from 0, upper from the dimension's last index, both inclusive),
  // the channels of each pixel and the pixels of one copy.
  int16_t lower[3] = {}, upper[3] = {};
  uint16_t channels = 0, pixels = 0;

  uint64_t dim(unsigned d) const { return uint64_t{dim_minus_1[d]} + 1; }
  // Elements the box holds along dimension d: ceil(box / element stride).
  uint32_t box_count(unsigned d) const {
    return (box[d] + element_stride[d] - 1u) / element_stride[d];
  }
  // Elements of one row of the box in shared memory (along dimension 0; im2col: one pixel's
  // channels).
  uint32_t row_elements() const { return im2col ? channels : box_count(0); }
  uint64_t elements() const {
    if (im2col) return uint64_t{channels} * pixels;
    uint64_t n = 1;
    for (unsigned d = 0; d < rank; ++d) n *= box_count(d);
    return n;
  }
  uint64_t box_bytes() const { return elements() * element_bytes; }
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
