// Driver API: TMA tensor maps (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col,
// cuTensorMapReplaceAddress; cuda.h of CUDA 13, "Tensor Map Object Management"), encoded as
// func::TensorMap for cp.async.bulk.tensor. The requirements cuda.h lists are checked
// (CUDA_ERROR_INVALID_VALUE otherwise), and the PTX ISA's (5.5.6: interleaved layouts are 3-D to
// 5-D). Interleaved layouts (NC/8DHWC8, NC/16DHWC16: dimension 0 is the slice of channels) move
// boxes as the plain layout does, dimension 0's element stride then counting. The packed 4- and
// 6-bit types and the 128B_ATOM swizzles (sm_100) are not modelled (exit 2 naming them).
#include <cstdint>
#include <string>

#include "models/func/tensor_map.h"
#include "runtime/driver_support.h"

using namespace gputlm::runtime;
using gputlm::func::TensorMap;

namespace {

// CUtensorMapDataType 0-12: bytes per element, and whether it is a float type.
constexpr uint8_t kElementBytes[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
bool is_float_type(int t) { return t >= 6; }

// What both encoders share: the type, layout and fill, the tensor's dimensions and strides, and
// the element strides (`api` names the encoder in an exit 2).
CudaError encode_common(TensorMap& m, const char* api, int type, unsigned rank, uint64_t address,
                        const uint64_t* dims, const uint64_t* strides,
                        const unsigned* element_strides, int interleave, int swizzle, int l2,
                        int oob) {
  if (type >= 13 && type <= 15)
    not_implemented(std::string(api) + " of the packed 4- and 6-bit types");
  if (swizzle >= 4 && swizzle <= 6) not_implemented(std::string(api) + " with a 128B_ATOM swizzle");
  if (type < 0 || type > 12 || interleave < 0 || interleave > 2 || swizzle < 0 || swizzle > 3 ||
      l2 < 0 || l2 > 3 || oob < 0 || oob > 1)
    return kErrorInvalidValue;
  if (rank == 0 || rank > TensorMap::kMaxRank || address % 16 != 0 || !dims || !element_strides ||
      (rank > 1 && !strides))
    return kErrorInvalidValue;
  if (oob == 1 && !is_float_type(type)) return kErrorInvalidValue;
  const unsigned align =
      interleave == 2 ? 32 : 16;  // NC/16DHWC16: 32-byte address and strides; the 32-byte swizzle
  if (interleave != 0 && (rank < 3 || address % align != 0 || (interleave == 2 && swizzle != 1)))
    return kErrorInvalidValue;
  m = TensorMap{};
  m.magic = TensorMap::kMagic;
  m.data_type = static_cast<uint8_t>(type);
  m.rank = static_cast<uint8_t>(rank);
  m.swizzle = static_cast<uint8_t>(swizzle);
  m.nan_fill = static_cast<uint8_t>(oob);
  m.element_bytes = kElementBytes[type];
  m.is_float = is_float_type(type);
  m.interleave = static_cast<uint8_t>(interleave);
  m.address = address;
  for (unsigned d = 0; d < rank; ++d) {
    if (dims[d] == 0 || dims[d] > (uint64_t{1} << 32) || element_strides[d] == 0 ||
        element_strides[d] > 8)
      return kErrorInvalidValue;
    m.dim_minus_1[d] = static_cast<uint32_t>(dims[d] - 1);
    m.element_stride[d] = static_cast<uint8_t>(
        d == 0 && interleave == 0
            ? 1
            : element_strides[d]);  // dimension 0's is ignored unless interleaved
    if (d + 1 < rank) {
      if (strides[d] % align != 0 || strides[d] >= (uint64_t{1} << 40)) return kErrorInvalidValue;
      m.stride[d] = strides[d];
    }
  }
  return kSuccess;
}

// The bounding box's inner dimension (bytes of a row in shared memory) against the swizzle.
bool inner_fits(const TensorMap& m, uint64_t inner) {
  if (m.interleave == 0 && inner % 16 != 0) return false;
  return m.interleave != 0 || m.swizzle == 0 || inner <= (16u << m.swizzle);  // 32, 64, 128 bytes
}

CudaError encode_tiled(TensorMap& m, int type, unsigned rank, uint64_t address,
                       const uint64_t* dims, const uint64_t* strides, const unsigned* box,
                       const unsigned* element_strides, int interleave, int swizzle, int l2,
                       int oob) {
  if (!box) return kErrorInvalidValue;
  const CudaError e = encode_common(m, "cuTensorMapEncodeTiled", type, rank, address, dims, strides,
                                    element_strides, interleave, swizzle, l2, oob);
  if (e != kSuccess) return e;
  for (unsigned d = 0; d < rank; ++d) {
    if (box[d] == 0 || box[d] > 256) return kErrorInvalidValue;
    m.box[d] = static_cast<uint16_t>(box[d]);
  }
  return inner_fits(m, uint64_t{box[0]} * m.element_bytes) ? kSuccess : kErrorInvalidValue;
}

// cuTensorMapEncodeIm2col: rank 3 to 5; the corners (W, H, D order, as the dimensions) within
// [-2^15, 2^15 - 1], [-2^7, 2^7 - 1] or [-2^4, 2^4 - 1] by rank; a bounding box of non-zero
// area, i.e. at least one position in each spatial dimension (a choice: cuda.h says only "non-zero
// area"); channels per pixel 1..256; pixels per column 1..1024.
CudaError encode_im2col(TensorMap& m, int type, unsigned rank, uint64_t address,
                        const uint64_t* dims, const uint64_t* strides, const int* lower,
                        const int* upper, unsigned channels, unsigned pixels,
                        const unsigned* element_strides, int interleave, int swizzle, int l2,
                        int oob) {
  if (rank < 3 || rank > 5 || !lower || !upper || channels == 0 || channels > 256 || pixels == 0 ||
      pixels > 1024)
    return kErrorInvalidValue;
  const CudaError e = encode_common(m, "cuTensorMapEncodeIm2col", type, rank, address, dims,
                                    strides, element_strides, interleave, swizzle, l2, oob);
  if (e != kSuccess) return e;
  const int limit = rank == 3 ? 1 << 15 : rank == 4 ? 1 << 7 : 1 << 4;
  for (unsigned s = 0; s + 2 < rank; ++s) {
    if (lower[s] < -limit || lower[s] >= limit || upper[s] < -limit || upper[s] >= limit)
      return kErrorInvalidValue;
    if (static_cast<int64_t>(dims[1 + s]) - 1 + upper[s] < lower[s]) return kErrorInvalidValue;
    m.lower[s] = static_cast<int16_t>(lower[s]);
    m.upper[s] = static_cast<int16_t>(upper[s]);
  }
  m.im2col = 1;
  m.channels = static_cast<uint16_t>(channels);
  m.pixels = static_cast<uint16_t>(pixels);
  return inner_fits(m, uint64_t{channels} * m.element_bytes) ? kSuccess : kErrorInvalidValue;
}

// Writes the map when the encoding succeeded.
template <class Encode>
int encode_into(const char* api, void* map, Encode&& encode) {
  return driver(api, [&] {
    if (!map || reinterpret_cast<uintptr_t>(map) % 64 != 0) return kErrorInvalidValue;
    TensorMap m;
    const CudaError e = encode(m);
    if (e == kSuccess) std::memcpy(map, &m, sizeof m);
    return e;
  });
}

}  // namespace

extern "C" {

int cuTensorMapEncodeTiled(void* map, int type, unsigned rank, void* address, const uint64_t* dims,
                           const uint64_t* strides, const unsigned* box,
                           const unsigned* element_strides, int interleave, int swizzle, int l2,
                           int oob) {
  return encode_into("cuTensorMapEncodeTiled", map, [&](TensorMap& m) {
    return encode_tiled(m, type, rank, reinterpret_cast<uintptr_t>(address), dims, strides, box,
                        element_strides, interleave, swizzle, l2, oob);
  });
}

int cuTensorMapEncodeIm2col(void* map, int type, unsigned rank, void* address, const uint64_t* dims,
                            const uint64_t* strides, const int* lower, const int* upper,
                            unsigned channels, unsigned pixels, const unsigned* element_strides,
                            int interleave, int swizzle, int l2, int oob) {
  return encode_into("cuTensorMapEncodeIm2col", map, [&](TensorMap& m) {
    return encode_im2col(m, type, rank, reinterpret_cast<uintptr_t>(address), dims, strides, lower,
                         upper, channels, pixels, element_strides, interleave, swizzle, l2, oob);
  });
}

int cuTensorMapReplaceAddress(void* map, void* address) {
  return driver("cuTensorMapReplaceAddress", [&] {
    if (!map || reinterpret_cast<uintptr_t>(address) % 16 != 0) return kErrorInvalidValue;
    TensorMap m = gputlm::func::read_tensor_map(map);
    if (m.magic != TensorMap::kMagic) return kErrorInvalidValue;
    m.address = reinterpret_cast<uintptr_t>(address);
    std::memcpy(map, &m, sizeof m);
    return kSuccess;
  });
}

}  // extern "C"
