// Driver API: TMA tensor maps (cuTensorMapEncodeTiled, cuTensorMapReplaceAddress; cuda.h of CUDA
// 13, "Tensor Map Object Management"), encoded as func::TensorMap for cp.async.bulk.tensor. The
// requirements cuda.h lists for the tiled form are checked (CUDA_ERROR_INVALID_VALUE otherwise);
// interleaved layouts, the packed 4- and 6-bit types and the 128B_ATOM swizzles are not modelled
// (exit 2 naming them).
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

CudaError encode_tiled(TensorMap& m, int type, unsigned rank, uint64_t address, const uint64_t* dims, const uint64_t* strides,
                       const unsigned* box, const unsigned* element_strides, int interleave, int swizzle, int l2, int oob) {
  if (type >= 13 && type <= 15) not_implemented("cuTensorMapEncodeTiled of the packed 4- and 6-bit types");
  if (interleave == 1 || interleave == 2) not_implemented("cuTensorMapEncodeTiled with an interleaved layout");
  if (swizzle >= 4 && swizzle <= 6) not_implemented("cuTensorMapEncodeTiled with a 128B_ATOM swizzle");
  if (type < 0 || type > 12 || interleave != 0 || swizzle < 0 || swizzle > 3 || l2 < 0 || l2 > 3 || oob < 0 || oob > 1)
    return kErrorInvalidValue;
  if (rank == 0 || rank > TensorMap::kMaxRank || address % 16 != 0 || !dims || !box || !element_strides || (rank > 1 && !strides))
    return kErrorInvalidValue;
  if (oob == 1 && !is_float_type(type)) return kErrorInvalidValue;
  m = TensorMap{};
  m.magic = TensorMap::kMagic;
  m.data_type = static_cast<uint8_t>(type);
  m.rank = static_cast<uint8_t>(rank);
  m.swizzle = static_cast<uint8_t>(swizzle);
  m.nan_fill = static_cast<uint8_t>(oob);
  m.element_bytes = kElementBytes[type];
  m.is_float = is_float_type(type);
  m.address = address;
  for (unsigned d = 0; d < rank; ++d) {
    if (dims[d] == 0 || dims[d] > (uint64_t{1} << 32) || box[d] == 0 || box[d] > 256 || element_strides[d] == 0 || element_strides[d] > 8)
      return kErrorInvalidValue;
    m.dim_minus_1[d] = static_cast<uint32_t>(dims[d] - 1);
    m.box[d] = static_cast<uint16_t>(box[d]);
    m.element_stride[d] = static_cast<uint8_t>(d == 0 ? 1 : element_strides[d]);  // dimension 0's is ignored
    if (d + 1 < rank) {
      if (strides[d] % 16 != 0 || strides[d] >= (uint64_t{1} << 40)) return kErrorInvalidValue;
      m.stride[d] = strides[d];
    }
  }
  const uint64_t inner = uint64_t{box[0]} * m.element_bytes;
  if (inner % 16 != 0) return kErrorInvalidValue;
  if (swizzle != 0 && inner > (16u << swizzle)) return kErrorInvalidValue;  // 32, 64, 128 bytes
  return kSuccess;
}

}  // namespace

extern "C" {

int cuTensorMapEncodeTiled(void* map, int type, unsigned rank, void* address, const uint64_t* dims, const uint64_t* strides,
                           const unsigned* box, const unsigned* element_strides, int interleave, int swizzle, int l2, int oob) {
  return driver("cuTensorMapEncodeTiled", [&] {
    if (!map || reinterpret_cast<uintptr_t>(map) % 64 != 0) return kErrorInvalidValue;
    TensorMap m;
    const CudaError e = encode_tiled(m, type, rank, reinterpret_cast<uintptr_t>(address), dims, strides, box, element_strides,
                                     interleave, swizzle, l2, oob);
    if (e == kSuccess) std::memcpy(map, &m, sizeof m);
    return e;
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
