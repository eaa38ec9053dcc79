// The elements one cp.async.bulk.tensor instruction moves (PTX ISA 5.5 "Tensors", 9.7.9.25.5), in
// the order they lie in shared memory: f(shared byte offset before the swizzle, global address,
// whether the element is inside the tensor). Elements outside read the fill and are not written.
//
// Tile mode (5.5.3): the box starts at the coordinates and spans the map's box dimensions, stepping
// by the element strides, dimension 0 fastest.
//
// im2col mode (5.5.4; the map made by cuTensorMapEncodeIm2col): the tensor is C, W{, H{, D}}, N
// (dimension 0 the channels). The bounding box spans, in each spatial dimension, from the lower
// corner to the dimension's last index plus the upper corner (both inclusive). The coordinates give
// the first channel, the filter base (which must lie in the bounding box) and the image; the
// pixels are the filter base's successive positions in the bounding box (W fastest, stepping by the
// element strides, back to the lower corner on passing the upper one, then the next image), each
// moved by the instruction's im2col offsets; each pixel brings `channels` consecutive channels.
// The examples of PTX ISA 5.5.4.1 and those Triton's TMA im2col tutorial checks on a GPU follow
// this walk (tests/unit/func/test_tensor_box.cpp). The N dimension steps by one image (the ISA
// strides D, H and W only); the channels are consecutive whatever dimension 0's element stride.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "models/func/tensor_map.h"

namespace gputlm::func {

// Why an im2col copy cannot start at `start` (the filter base outside the bounding box), or "".
std::string im2col_start_error(const TensorMap& m, const int64_t* start);

template <class F>
void for_each_tile_element(const TensorMap& m, const int64_t* start, F&& f) {
  std::array<uint32_t, TensorMap::kMaxRank> idx{};
  const uint64_t total = m.elements();
  for (uint64_t e = 0; e < total; ++e) {
    uint64_t addr = m.address;
    bool inside = true;
    for (unsigned d = 0; d < m.rank; ++d) {
      const int64_t g = start[d] + int64_t{idx[d]} * m.element_stride[d];
      inside = inside && g >= 0 && static_cast<uint64_t>(g) < m.dim(d);
      addr += static_cast<uint64_t>(g) * (d == 0 ? m.element_bytes : m.stride[d - 1]);
    }
    f(e * m.element_bytes, addr, inside);
    for (unsigned d = 0; d < m.rank && ++idx[d] == m.box_count(d); ++d) idx[d] = 0;
  }
}

// `offsets`: the im2col offsets in W, H, D order (zero for the .im2col_no_offs forms).
template <class F>
void for_each_im2col_element(const TensorMap& m, const int64_t* start, const uint16_t* offsets,
                             F&& f) {
  const unsigned spatial = m.rank - 2u, n_dim = m.rank - 1u;
  std::array<int64_t, 3> pos{}, hi{};
  for (unsigned s = 0; s < spatial; ++s) {
    pos[s] = start[1 + s];
    hi[s] = static_cast<int64_t>(m.dim(1 + s)) - 1 + m.upper[s];
  }
  int64_t image = start[n_dim];
  uint64_t offset = 0;
  for (unsigned p = 0; p < m.pixels; ++p) {
    uint64_t pixel = m.address;
    bool inside = image >= 0 && static_cast<uint64_t>(image) < m.dim(n_dim);
    pixel += static_cast<uint64_t>(image) * m.stride[n_dim - 1];
    for (unsigned s = 0; s < spatial; ++s) {
      const int64_t g = pos[s] + offsets[s];
      inside = inside && g >= 0 && static_cast<uint64_t>(g) < m.dim(1 + s);
      pixel += static_cast<uint64_t>(g) * m.stride[s];
    }
    for (unsigned ch = 0; ch < m.channels; ++ch, offset += m.element_bytes) {
      const int64_t c = start[0] + ch;
      f(offset, pixel + static_cast<uint64_t>(c) * m.element_bytes,
        inside && c >= 0 && static_cast<uint64_t>(c) < m.dim(0));
    }
    unsigned s = 0;  // the next filter base position
    for (; s < spatial; ++s) {
      pos[s] += m.element_stride[1 + s];
      if (pos[s] <= hi[s]) break;
      pos[s] = m.lower[s];
    }
    if (s == spatial) ++image;
  }
}

// Every element the copy moves, in either mode.
template <class F>
void for_each_box_element(const TensorMap& m, const int64_t* start, const uint16_t* offsets,
                          F&& f) {
  if (m.im2col)
    for_each_im2col_element(m, start, offsets, f);
  else
    for_each_tile_element(m, start, f);
}

}  // namespace gputlm::func
