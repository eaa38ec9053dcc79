// Texture instructions through texture objects (PTX ISA 9.7.10; unified texture mode, the
// object's handle in a .u64 register):
//   tex.geom.v4.dtype.ctype  d, [a, c] {, lod | , dPdx, dPdy}
//     geom 1d {x}, 2d {x, y}, 3d {x, y, z, _}, a1d {layer, x}, a2d {layer, x, y, _},
//     cube {x, y, z, _}, acube {layer, x, y, z}; dtype f32 s32 u32; ctype f32 or s32 (a1d/a2d:
//     the layer is an integer whatever ctype is). tex.level and tex.grad read level 0, the only
//     level a non-mipmapped resource has (the level is clamped to the resource's levels).
//   tld4.{r,g,b,a}.2d.v4.dtype.f32  d, [a, {x, y}] (and .a2d with {layer, x, y, _})
//   txq.query.b32  d, [a]
// Sampling is func::tex (texture_sampling.h). A handle that is no live texture object is a
// kernel fault. The lane's access for the timing model is the first texel it reads.
#include <stdexcept>
#include <string>

#include "models/func/semantics/semantics.h"
#include "models/func/texture_sampling.h"
#include "models/func/texture_table.h"

namespace gputlm::func::sem {
namespace {

using isa::TexGeom;

// Coordinates the geometry takes (the vector's length) and whether the first is the layer.
unsigned coord_count(TexGeom g) {
  switch (g) {
    case TexGeom::D1:
      return 1;
    case TexGeom::D2:
    case TexGeom::A1D:
      return 2;
    default:
      return 4;
  }
}
bool has_layer(TexGeom g) { return g == TexGeom::A1D || g == TexGeom::A2D || g == TexGeom::ACube; }
unsigned spatial_dims(TexGeom g) {
  switch (g) {
    case TexGeom::D1:
    case TexGeom::A1D:
      return 1;
    case TexGeom::D2:
    case TexGeom::A2D:
      return 2;
    default:
      return 3;
  }
}

}  // namespace

// The live object a lane's handle names; faults otherwise. Shared with surface_ops.cpp.
const TextureObject& texture_object(ExecCtx& c, uint32_t tid, bool surface) {
  const isa::Operand& a =
      c.in->ops[c.in->op == isa::Opcode::Sust || c.in->op == isa::Opcode::Sured ? 0 : 1];
  const uint64_t handle = c.reg(a.reg, tid);
  const TextureTable* table = c.launch().textures;
  const TextureObject* o = table ? table->find(handle) : nullptr;
  if (!o || o->surface != surface)
    c.fault(std::string(surface ? "surface" : "texture") + " handle " + std::to_string(handle) +
                " is not a live " + (surface ? "surface" : "texture") + " object",
            tid, handle, false);
  return *o;
}

namespace {

tex::TexCoord coordinates(ExecCtx& c, uint32_t tid, TexGeom g) {
  const isa::Operand& a = c.in->ops[1];
  tex::TexCoord tc;
  tc.integer = c.in->type2 == isa::DType::S32;
  unsigned k = 0;
  if (has_layer(g)) tc.layer = static_cast<int32_t>(c.reg(a.vec[k++], tid));
  for (unsigned d = 0; d < spatial_dims(g); ++d, ++k) {
    const uint64_t bits = c.reg(a.vec[k], tid);
    tc.f[d] = get<float>(bits);
    tc.i[d] = static_cast<int32_t>(bits);
  }
  return tc;
}

void write_result(ExecCtx& c, unsigned lane, uint32_t tid, const tex::Fetch& f, uint32_t bytes) {
  const isa::Operand& d = c.in->ops[0];
  for (unsigned i = 0; i < 4; ++i)
    if (d.vec[i] >= 0) c.reg(d.vec[i], tid) = f.v[i];
  if (!f.address) return;
  ExecResult& r = *c.result;
  r.space = isa::Space::Global;
  r.access_bytes = bytes;
  r.accessed |= LaneMask{1} << lane;
  r.addr[lane] = f.address;
}

void tex_fetch(ExecCtx& c) {
  const GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const TextureObject& o = texture_object(c, tid, false);
    write_result(c, lane, tid, tex::sample(o, memory, coordinates(c, tid, c.in->tex.geom)),
                 o.resource.format.bytes());
  });
}

void tld4(ExecCtx& c) {
  const GlobalMemory& memory = *c.launch().memory;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const TextureObject& o = texture_object(c, tid, false);
    const tex::TexCoord tc = coordinates(c, tid, c.in->tex.geom);
    write_result(c, lane, tid, tex::gather(o, memory, tc, static_cast<unsigned>(c.in->tex.comp)),
                 o.resource.format.bytes());
  });
}

// txq and suq: a property of the texture (surface) object.
template <bool Surface>
void query(ExecCtx& c) {
  lanes(c, [&](unsigned, uint32_t tid) {
    const TextureObject& o = texture_object(c, tid, Surface);
    c.reg(c.in->ops[0].reg, tid) = tex::query(o, static_cast<tex::Query>(c.in->tex.query));
  });
}

// istypep.{texref,samplerref,surfref} p, a (PTX ISA 9.7.10.5): whether the 64-bit handle is a live
// object of that kind. A texture object carries its sampler (CUDA's unified mode), so it is a
// .samplerref too (a choice; the ISA defines the independent mode's separate samplers).
void istypep(ExecCtx& c) {
  const TextureTable* table = c.launch().textures;
  const int ref = c.in->tex.ref;
  lanes(c, [&](unsigned, uint32_t tid) {
    const TextureObject* o = table ? table->find(c.reg(c.in->ops[1].reg, tid)) : nullptr;
    c.reg(c.in->ops[0].reg, tid) = o && o->surface == (ref == 2);
  });
}

bool result_type(isa::DType t) {
  return t == isa::DType::F32 || t == isa::DType::S32 || t == isa::DType::U32;
}

// [a, {c}] with the geometry's coordinate count, and a four-register destination.
bool fetch_operands(const isa::Instruction& in) {
  const isa::Operand &d = in.ops[0], &a = in.ops[1];
  return in.vec == 4 && d.kind == isa::OperandKind::Vector && d.vec_n == 4 &&
         a.kind == isa::OperandKind::Address && a.reg >= 0 && a.vec_n == coord_count(in.tex.geom);
}

ExecFn bind_tex(const isa::Instruction& in) {
  const TexGeom g = in.tex.geom;
  if (g == TexGeom::D2MS || g == TexGeom::A2DMS)
    throw std::invalid_argument("multisample textures (tex.2dms, tex.a2dms) are not supported");
  if (!result_type(in.type) || (in.type2 != isa::DType::F32 && in.type2 != isa::DType::S32) ||
      !fetch_operands(in))
    return nullptr;
  if ((g == TexGeom::Cube || g == TexGeom::ACube) && in.type2 != isa::DType::F32) return nullptr;
  const unsigned extra = in.tex.mip == isa::TexMip::Level  ? 1
                         : in.tex.mip == isa::TexMip::Grad ? 2
                                                           : 0;
  return in.nops == 2 + extra ? tex_fetch : nullptr;
}

}  // namespace

ExecFn bind_texture(const isa::Instruction& in) {
  switch (in.op) {
    case isa::Opcode::Tex:
      return bind_tex(in);
    case isa::Opcode::Tld4:
      if (in.tex.geom != TexGeom::D2 && in.tex.geom != TexGeom::A2D)
        throw std::invalid_argument("tld4 is supported for .2d and .a2d textures");
      return in.tex.comp >= 0 && result_type(in.type) && in.type2 == isa::DType::F32 &&
                     in.nops == 2 && fetch_operands(in)
                 ? tld4
                 : nullptr;
    case isa::Opcode::Txq:
    case isa::Opcode::Suq: {
      const bool ok = in.type == isa::DType::B32 && in.tex.query >= 0 &&
                      in.ops[0].kind == isa::OperandKind::Reg &&
                      in.ops[1].kind == isa::OperandKind::Address && in.ops[1].reg >= 0 &&
                      in.ops[1].vec_n == 0 && in.ops[1].imm == 0;
      return !ok ? nullptr : in.op == isa::Opcode::Suq ? query<true> : query<false>;
    }
    case isa::Opcode::Istypep:
      return in.tex.ref >= 0 && in.ops[0].kind == isa::OperandKind::Reg &&
                     in.ops[1].kind == isa::OperandKind::Reg
                 ? istypep
                 : nullptr;
    default:
      return bind_surface(in);
  }
}

}  // namespace gputlm::func::sem
