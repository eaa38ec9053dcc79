#include "models/func/texture_sampling.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "models/func/semantics/small_float.h"

namespace gputlm::func::tex {
namespace {

// One texel's four channels as floats (float-valued textures) or 32-bit integers.
struct Texel {
  std::array<float, 4> f{0, 0, 0, 1};
  std::array<uint32_t, 4> u{0, 0, 0, 1};
};

bool is_layered(TexShape s) {
  return s == TexShape::Layered1D || s == TexShape::Layered2D || s == TexShape::LayeredCube;
}
unsigned dims_of(TexShape s) {
  switch (s) {
    case TexShape::D2:
    case TexShape::Layered2D:
    case TexShape::Cube:
    case TexShape::LayeredCube:
      return 2;
    case TexShape::D3:
      return 3;
    default:
      return 1;
  }
}
uint32_t size_of(const TexResource& r, unsigned axis) {
  return axis == 0 ? r.width : axis == 1 ? r.height : r.depth;
}

float channel_float(const TexelFormat& fmt, bool normalized, uint32_t raw) {
  if (fmt.kind == ChannelKind::Float) {
    if (fmt.bits == 16) return static_cast<float>(sem::from_f16(static_cast<uint16_t>(raw)));
    float f;
    std::memcpy(&f, &raw, 4);
    return f;
  }
  if (fmt.kind == ChannelKind::Unsigned)
    return normalized ? float(raw / double((uint64_t{1} << fmt.bits) - 1)) : float(raw);
  const int64_t s =
      static_cast<int64_t>(static_cast<uint64_t>(raw) << (64 - fmt.bits)) >> (64 - fmt.bits);
  if (!normalized) return float(s);
  return std::max(-1.0f, float(s / double((int64_t{1} << (fmt.bits - 1)) - 1)));
}
uint32_t channel_int(const TexelFormat& fmt, uint32_t raw) {
  if (fmt.kind != ChannelKind::Signed || fmt.bits == 32) return raw;
  return static_cast<uint32_t>(static_cast<int32_t>(raw << (32 - fmt.bits)) >> (32 - fmt.bits));
}

Texel read_texel(const TextureObject& o, const GlobalMemory& memory, uint64_t address) {
  const TexelFormat& fmt = o.resource.format;
  uint8_t bytes[16] = {};
  memory.read(address, bytes, fmt.bytes());
  Texel t;
  for (unsigned ch = 0; ch < fmt.channels; ++ch) {
    uint32_t raw = 0;
    std::memcpy(&raw, bytes + ch * fmt.bits / 8, fmt.bits / 8);
    t.f[ch] = channel_float(fmt, o.sampler.normalized_float, raw);
    t.u[ch] = channel_int(fmt, raw);
  }
  return t;
}
Texel border_texel(const TextureObject& o) {
  Texel t;
  for (unsigned ch = 0; ch < 4; ++ch) {
    t.f[ch] = o.sampler.border[ch];
    t.u[ch] = static_cast<uint32_t>(static_cast<int64_t>(o.sampler.border[ch]));
  }
  return t;
}

// Texel index i of an axis of size n after the address mode; -1 for the border.
int64_t address_index(int64_t i, int64_t n, AddressMode mode, bool normalized) {
  if (!normalized && (mode == AddressMode::Wrap || mode == AddressMode::Mirror))
    mode = AddressMode::Clamp;
  switch (mode) {
    case AddressMode::Wrap:
      return ((i % n) + n) % n;
    case AddressMode::Mirror: {
      const int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case AddressMode::Clamp:
      return std::clamp<int64_t>(i, 0, n - 1);
    default:
      return i < 0 || i >= n ? -1 : i;
  }
}

// The texels one fetch reads: index per axis (after addressing), the slice, and for linear
// filtering the second index and weight per axis.
struct Footprint {
  unsigned dims = 1;
  std::array<int64_t, 3> i0{}, i1{};
  std::array<float, 3> a{};  // weight of i1
  int64_t slice = 0;
};

// Where texel (x, y) of `slice` is; false for the border (an index of -1).
bool texel_address(const TexResource& r, int64_t x, int64_t y, int64_t z, uint64_t& address) {
  if (x < 0 || y < 0 || z < 0) return false;
  address = r.base + uint64_t(z) * r.slice_pitch + uint64_t(y) * r.row_pitch +
            uint64_t(x) * r.format.bytes();
  return true;
}

float quantize_weight(float frac) { return std::nearbyint(frac * 256.0f) / 256.0f; }

// The footprint of float coordinates (already face coordinates for a cube map).
Footprint float_footprint(const TextureObject& o, const std::array<float, 3>& f, bool linear,
                          bool normalized, const std::array<AddressMode, 3>& modes) {
  Footprint fp;
  fp.dims = dims_of(o.resource.shape);
  for (unsigned a = 0; a < fp.dims; ++a) {
    const int64_t n = size_of(o.resource, a);
    float x = normalized ? f[a] * float(n) : f[a];
    if (linear) x -= 0.5f;
    const float fl = std::floor(x);
    const int64_t i = std::isfinite(fl) ? static_cast<int64_t>(std::clamp(fl, -1e9f, 1e9f)) : 0;
    fp.i0[a] = address_index(i, n, modes[a], normalized);
    fp.i1[a] = address_index(i + 1, n, modes[a], normalized);
    fp.a[a] = linear ? quantize_weight(x - fl) : 0.0f;
  }
  return fp;
}

// Cube map: the face and its normalised (u, v) for direction (x, y, z) (CUDA programming guide,
// "Cubemap Textures").
void cube_face(const std::array<float, 3>& d, unsigned& face, float& u, float& v) {
  const float ax = std::fabs(d[0]), ay = std::fabs(d[1]), az = std::fabs(d[2]);
  float m, s, t;
  if (ax >= ay && ax >= az) {
    face = d[0] >= 0 ? 0 : 1, m = ax, s = d[0] >= 0 ? -d[2] : d[2], t = -d[1];
  } else if (ay >= az) {
    face = d[1] >= 0 ? 2 : 3, m = ay, s = d[0], t = d[1] >= 0 ? d[2] : -d[2];
  } else {
    face = d[2] >= 0 ? 4 : 5, m = az, s = d[2] >= 0 ? d[0] : -d[0], t = -d[1];
  }
  u = m > 0 ? (s / m + 1) / 2 : 0.5f;
  v = m > 0 ? (t / m + 1) / 2 : 0.5f;
}

int64_t layer_slice(const TexResource& r, int32_t layer) {
  return std::clamp<int64_t>(layer, 0, int64_t(r.layers) - 1);
}

Footprint footprint(const TextureObject& o, const TexCoord& c, bool linear) {
  const TexResource& r = o.resource;
  const bool cube = r.shape == TexShape::Cube || r.shape == TexShape::LayeredCube;
  if (cube) {
    unsigned face;
    float u, v;
    cube_face(c.f, face, u, v);
    const std::array<AddressMode, 3> clamp{AddressMode::Clamp, AddressMode::Clamp,
                                           AddressMode::Clamp};
    Footprint fp = float_footprint(o, {u, v, 0}, linear, true, clamp);
    fp.slice = face + (r.shape == TexShape::LayeredCube ? 6 * layer_slice(r, c.layer) : 0);
    return fp;
  }
  Footprint fp;
  if (c.integer) {
    fp.dims = dims_of(r.shape);
    for (unsigned a = 0; a < fp.dims; ++a) {
      const AddressMode m =
          r.shape == TexShape::Linear ? AddressMode::Border : o.sampler.address[a];
      fp.i0[a] = fp.i1[a] = address_index(c.i[a], size_of(r, a), m, false);
    }
  } else {
    fp = float_footprint(o, c.f, linear, o.sampler.normalized_coords, o.sampler.address);
  }
  if (is_layered(r.shape)) fp.slice = layer_slice(r, c.layer);
  return fp;
}

// Texel k of the footprint (bit a of k: i1 instead of i0 on axis a).
Texel corner(const TextureObject& o, const GlobalMemory& memory, const Footprint& fp, unsigned k,
             uint64_t& first) {
  std::array<int64_t, 3> idx{0, 0, fp.slice};
  for (unsigned a = 0; a < fp.dims; ++a) idx[a] = (k >> a & 1) ? fp.i1[a] : fp.i0[a];
  uint64_t address;
  if (!texel_address(o.resource, idx[0], idx[1], idx[2], address)) return border_texel(o);
  if (!first) first = address;
  return read_texel(o, memory, address);
}

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

bool returns_float(const TextureObject& o) {
  return o.resource.format.kind == ChannelKind::Float || o.sampler.normalized_float;
}

Fetch sample(const TextureObject& o, const GlobalMemory& memory, const TexCoord& c) {
  const bool floats = returns_float(o);
  const bool linear = floats && o.sampler.linear_filter && !c.integer;
  const Footprint fp = footprint(o, c, linear);
  Fetch out;
  if (!linear) {
    const Texel t = corner(o, memory, fp, 0, out.address);
    for (unsigned ch = 0; ch < 4; ++ch) out.v[ch] = floats ? float_bits(t.f[ch]) : t.u[ch];
    return out;
  }
  std::array<float, 4> sum{};
  for (unsigned k = 0; k < (1u << fp.dims); ++k) {
    float w = 1.0f;
    for (unsigned a = 0; a < fp.dims; ++a) w *= (k >> a & 1) ? fp.a[a] : 1.0f - fp.a[a];
    const Texel t = corner(o, memory, fp, k, out.address);
    for (unsigned ch = 0; ch < 4; ++ch) sum[ch] += w * t.f[ch];
  }
  for (unsigned ch = 0; ch < 4; ++ch) out.v[ch] = float_bits(sum[ch]);
  return out;
}

Fetch gather(const TextureObject& o, const GlobalMemory& memory, const TexCoord& c, unsigned comp) {
  const Footprint fp = footprint(o, c, true);
  const bool floats = returns_float(o);
  Fetch out;
  // corner k: bit 0 = i+1, bit 1 = j+1; the order (i, j+1), (i+1, j+1), (i+1, j), (i, j).
  static constexpr unsigned kOrder[4] = {2, 3, 1, 0};
  uint64_t first = 0;
  for (unsigned n = 0; n < 4; ++n) {
    const Texel t = corner(o, memory, fp, kOrder[n], first);
    out.v[n] = floats ? float_bits(t.f[comp]) : t.u[comp];
  }
  out.address = first;
  return out;
}

uint32_t query(const TextureObject& o, Query q) {
  const TexResource& r = o.resource;
  const TexelFormat& f = r.format;
  switch (q) {
    case Query::Width:
      return r.width;
    case Query::Height:
      return r.height;
    case Query::Depth:
      return r.depth;
    case Query::ChannelDataType: {
      // OpenCL's CL_SNORM_INT8 .. CL_FLOAT (0x10D0..0x10DE).
      const unsigned wide = f.bits == 16 ? 1 : f.bits == 32 ? 2 : 0;
      if (f.kind == ChannelKind::Float) return f.bits == 16 ? 0x10DD : 0x10DE;
      if (o.sampler.normalized_float && f.bits < 32)
        return (f.kind == ChannelKind::Signed ? 0x10D0 : 0x10D2) + wide;
      return (f.kind == ChannelKind::Signed ? 0x10D7 : 0x10DA) + wide;
    }
    case Query::ChannelOrder: {
      static constexpr uint32_t kOrders[5] = {0, 0x10B0, 0x10B2, 0x10B4,
                                              0x10B5};  // CL_R, CL_RG, CL_RGB, CL_RGBA
      return kOrders[std::min<unsigned>(f.channels, 4)];
    }
    case Query::NormalizedCoords:
      return o.sampler.normalized_coords;
    case Query::FilterMode:
      return o.sampler.linear_filter;
    case Query::AddrMode0:
    case Query::AddrMode1:
    case Query::AddrMode2:
      return static_cast<uint32_t>(
          o.sampler.address[static_cast<unsigned>(q) - static_cast<unsigned>(Query::AddrMode0)]);
    case Query::NumMipmapLevels:
      return 1;
    case Query::NumSamples:
      return 1;
    case Query::ArraySize:
      return is_layered(r.shape) ? r.layers : 0;
    case Query::MemoryLayout:
      return r.shape == TexShape::Linear;
  }
  return 0;
}

bool surface_address(const TextureObject& o, int64_t x, int64_t y, int64_t z, uint32_t bytes,
                     OutOfRange mode, uint64_t& address) {
  const TexResource& r = o.resource;
  const int64_t row_bytes = int64_t{r.width} * r.format.bytes();
  const int64_t rows = dims_of(r.shape) >= 2 ? r.height : 1;
  const int64_t slices = r.slices();
  const bool inside =
      x >= 0 && x + bytes <= row_bytes && y >= 0 && y < rows && z >= 0 && z < slices;
  if (!inside) {
    if (mode != OutOfRange::Clamp) return false;
    x = std::clamp<int64_t>(x, 0, std::max<int64_t>(0, row_bytes - bytes));
    y = std::clamp<int64_t>(y, 0, rows - 1);
    z = std::clamp<int64_t>(z, 0, slices - 1);
  }
  address = r.base + uint64_t(z) * r.slice_pitch + uint64_t(y) * r.row_pitch + uint64_t(x);
  return true;
}

}  // namespace gputlm::func::tex
