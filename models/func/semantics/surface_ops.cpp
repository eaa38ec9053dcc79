// Surface instructions through surface objects (PTX ISA 9.7.11; the handle in a .u64 register):
//   suld.b.geom{.v2,.v4}.btype{.trap,.clamp,.zero}  d, [a, c]
//   sust.b.geom{.v2,.v4}.btype{.trap,.clamp,.zero}  [a, c], b
//     geom 1d {x}, 2d {x, y}, 3d {x, y, z, _}, a1d {layer, x}, a2d {layer, x, y, _}; btype b8 b16
//     b32 b64. x is in bytes, y and z (or the layer) in rows and slices; each element is btype
//     wide and the elements are consecutive in memory (little-endian).
//   sured.b.op.geom.ctype.clamp [a, c], b   (PTX ISA 9.7.11.3) op add min max and or; geom 1d 2d
//   3d;
//     ctype u32 s32 b32 u64 s64 (add: u32 u64 s32; min, max: u32 s32 u64 s64; and, or: b32)
//   sured.p.op.geom.ctype.clamp [a, c], b   x in samples of ctype (b32: any op; b64: min, max),
//     the data signed when the surface's format is signed
//     An atomic read-modify-write of the element, as red's (atomic_apply.h).
//   sust.p.geom{.v2,.v4}.b32.clamp [a, c], b   (geom 1d 2d 3d) a formatted store: x in samples; b's
//     elements are the sample's R, G, B, A, read as .f32 for a float format, else .u32 or .s32,
//     and converted to the format's channels (16-bit floats rounded to nearest even; integers
//     clamped to the channel's range: a choice, the ISA says only "converted"); channels b does
//     not give are written as zero (the ISA: unpredictable).
// Out of range (texture_sampling.h, surface_address): .trap faults, .zero reads zeros and drops
// the store, .clamp accesses the nearest location in range. suld has no formatted form (.p) in
// the PTX ISA; it is refused at bind time. A handle that is no live surface object is a kernel
// fault.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "models/func/semantics/atomic_apply.h"
#include "models/func/semantics/semantics.h"
#include "models/func/semantics/small_float.h"
#include "models/func/texture_sampling.h"
#include "models/func/texture_table.h"

namespace gputlm::func::sem {
namespace {

using isa::TexGeom;

unsigned surface_coords(TexGeom g) {
  switch (g) {
    case TexGeom::D1:
      return 1;
    case TexGeom::D2:
    case TexGeom::A1D:
      return 2;
    case TexGeom::D3:
    case TexGeom::A2D:
      return 4;
    default:
      return 0;  // no surface of that geometry
  }
}

// The address a lane accesses, or false (a .zero access out of range); faults for .trap.
bool lane_address(ExecCtx& c, uint32_t tid, const isa::Operand& a, uint32_t bytes,
                  uint64_t& address, const TextureObject& o) {
  int64_t v[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < a.vec_n; ++i) v[i] = static_cast<int32_t>(c.reg(a.vec[i], tid));
  const TexGeom g = c.in->tex.geom;
  int64_t x = v[0], y = v[1], z = v[2];
  if (g == TexGeom::A1D) x = v[1], y = 0, z = v[0];
  if (g == TexGeom::A2D) x = v[1], y = v[2], z = v[0];
  if (c.in->tex.formatted) x *= bytes;  // sured.p, sust.p: x counts samples
  const auto mode = static_cast<tex::OutOfRange>(c.in->tex.clamp);
  if (tex::surface_address(o, x, y, z, bytes, mode, address)) return true;
  if (mode == tex::OutOfRange::Trap)
    c.fault("surface access out of range (x " + std::to_string(x) + " bytes, y " +
                std::to_string(y) + ", z/layer " + std::to_string(z) + ", " +
                std::to_string(bytes) + " bytes)",
            tid, 0, false);
  return false;
}

void record(ExecCtx& c, unsigned lane, uint64_t address, uint32_t bytes) {
  ExecResult& r = *c.result;
  r.space = isa::Space::Global;
  r.access_bytes = bytes;
  r.accessed |= LaneMask{1} << lane;
  r.addr[lane] = address;
}

int32_t element_reg(const isa::Operand& o, unsigned i) {
  return o.kind == isa::OperandKind::Reg ? o.reg : o.vec[i];
}

void suld(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint32_t elem = isa::dtype_bits(in.type) / 8, bytes = elem * in.vec;
  GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint64_t address = 0;
    uint8_t data[32] = {};
    if (lane_address(c, tid, in.ops[1], bytes, address, texture_object(c, tid, true))) {
      memory.read(address, data, bytes);
      record(c, lane, address, bytes);
    }
    for (unsigned i = 0; i < in.vec; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, data + i * elem, elem);
      if (const int32_t r = element_reg(in.ops[0], i); r >= 0) c.reg(r, tid) = v;
    }
  });
}

void sust(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint32_t elem = isa::dtype_bits(in.type) / 8, bytes = elem * in.vec;
  GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint64_t address = 0;
    if (!lane_address(c, tid, in.ops[0], bytes, address, texture_object(c, tid, true))) return;
    uint8_t data[32] = {};
    for (unsigned i = 0; i < in.vec; ++i) {
      const int32_t r = element_reg(in.ops[1], i);
      const uint64_t v = r >= 0 ? c.reg(r, tid) : 0;
      std::memcpy(data + i * elem, &v, elem);
    }
    memory.write(address, data, bytes);
    record(c, lane, address, bytes);
  });
}

// One channel of a formatted store: `v` (f32 bits, or a u32/s32) in the format's kind and width.
uint32_t format_channel(uint32_t v, const TexelFormat& f) {
  if (f.kind == ChannelKind::Float) {
    float x;
    std::memcpy(&x, &v, 4);
    return f.bits == 16 ? to_f16(x) : v;
  }
  if (f.bits == 32) return v;
  const bool is_signed = f.kind == ChannelKind::Signed;
  return static_cast<uint32_t>(
      saturate_bits(is_signed ? int64_t{static_cast<int32_t>(v)} : int64_t{v}, f.bits, is_signed));
}

void sust_formatted(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const TextureObject& o = texture_object(c, tid, true);
    const TexelFormat& f = o.resource.format;
    const uint32_t bytes = f.bytes(), channel_bytes = f.bits / 8u;
    uint64_t address = 0;
    if (!lane_address(c, tid, in.ops[0], bytes, address, o)) return;
    uint8_t data[16] = {};
    for (unsigned ch = 0; ch < f.channels && ch < in.vec; ++ch) {
      const int32_t r = element_reg(in.ops[1], ch);
      const uint32_t v = format_channel(r >= 0 ? static_cast<uint32_t>(c.reg(r, tid)) : 0, f);
      std::memcpy(data + ch * channel_bytes, &v, channel_bytes);
    }
    memory.write(address, data, bytes);
    record(c, lane, address, bytes);
  });
}

// The element combined as type T with the lane's value.
template <class T>
void reduce_element(GlobalMemory& memory, isa::AtomOp op, uint64_t address, uint64_t value) {
  T old;
  memory.read(address, &old, sizeof old);
  const T v = atomic_apply<T>(op, old, static_cast<T>(value), T{});
  memory.write(address, &v, sizeof v);
}

void sured(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint32_t bytes = isa::dtype_bits(in.type) / 8;
  GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const TextureObject& o = texture_object(c, tid, true);
    uint64_t address = 0;
    if (!lane_address(c, tid, in.ops[0], bytes, address, o)) return;
    const uint64_t v = c.reg(in.ops[1].reg, tid);
    bool is_signed = in.type == isa::DType::S32 || in.type == isa::DType::S64;
    if (in.tex.formatted)
      is_signed = o.resource.format.kind == ChannelKind::Signed;  // .b32/.b64 by the format
    if (bytes == 4)
      is_signed ? reduce_element<int32_t>(memory, in.atom, address, v)
                : reduce_element<uint32_t>(memory, in.atom, address, v);
    else
      is_signed ? reduce_element<int64_t>(memory, in.atom, address, v)
                : reduce_element<uint64_t>(memory, in.atom, address, v);
    record(c, lane, address, bytes);
  });
}

// The (ctype, op) pairs sured allows.
bool sured_form(const isa::Instruction& in) {
  using isa::AtomOp;
  using isa::DType;
  const AtomOp op = in.atom;
  const bool minmax = op == AtomOp::Min || op == AtomOp::Max,
             bits = op == AtomOp::And || op == AtomOp::Or;
  if (in.tex.formatted)
    return in.type == DType::B32 ? op == AtomOp::Add || minmax || bits
                                 : in.type == DType::B64 && minmax;
  switch (in.type) {
    case DType::U32:
    case DType::S32:
      return op == AtomOp::Add || minmax;
    case DType::U64:
      return op == AtomOp::Add || minmax;
    case DType::S64:
      return minmax;
    case DType::B32:
      return bits;
    default:
      return false;
  }
}

bool data_operand(const isa::Operand& o, unsigned n) {
  return (o.kind == isa::OperandKind::Vector && o.vec_n == n) ||
         (o.kind == isa::OperandKind::Reg && n == 1);
}

}  // namespace

ExecFn bind_surface(const isa::Instruction& in) {
  if (in.op == isa::Opcode::Sured) {
    const isa::TexGeom g = in.tex.geom;
    const bool geom = g == TexGeom::D1 || g == TexGeom::D2 || g == TexGeom::D3;
    const isa::Operand& a = in.ops[0];
    return geom && sured_form(in) && in.tex.bulk != in.tex.formatted && in.nops == 2 &&
                   a.kind == isa::OperandKind::Address && a.reg >= 0 &&
                   a.vec_n == surface_coords(g) && in.ops[1].kind == isa::OperandKind::Reg &&
                   in.vec == 1
               ? sured
               : nullptr;
  }
  const bool load = in.op == isa::Opcode::Suld;
  if (in.op != isa::Opcode::Suld && in.op != isa::Opcode::Sust) return nullptr;
  if (load && in.tex.formatted)
    throw std::invalid_argument(
        "suld has no formatted form (suld.p) in the PTX ISA; suld.b reads bytes");
  if (in.tex.formatted == in.tex.bulk) return nullptr;
  if (in.tex.formatted) {
    const TexGeom g = in.tex.geom;
    const isa::Operand& a = in.ops[0];
    return (g == TexGeom::D1 || g == TexGeom::D2 || g == TexGeom::D3) &&
                   in.type == isa::DType::B32 && in.nops == 2 &&
                   a.kind == isa::OperandKind::Address && a.reg >= 0 &&
                   a.vec_n == surface_coords(g) && data_operand(in.ops[1], in.vec)
               ? sust_formatted
               : nullptr;
  }
  if (surface_coords(in.tex.geom) == 0)
    throw std::invalid_argument("surface geometry not supported (1d, 2d, 3d, a1d, a2d are)");
  const unsigned bits = isa::dtype_bits(in.type);
  const bool bit_type = in.type == isa::DType::B8 || in.type == isa::DType::B16 ||
                        in.type == isa::DType::B32 || in.type == isa::DType::B64;
  const isa::Operand& a = in.ops[load ? 1 : 0];
  if (!bit_type || bits == 0 || in.nops != 2 || a.kind != isa::OperandKind::Address || a.reg < 0 ||
      a.vec_n != surface_coords(in.tex.geom))
    return nullptr;
  if (!data_operand(in.ops[load ? 0 : 1], in.vec)) return nullptr;
  return load ? suld : sust;
}

}  // namespace gputlm::func::sem
