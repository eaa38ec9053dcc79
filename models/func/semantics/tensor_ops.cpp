// Warp-level matrix multiply-accumulate (PTX ISA 9.7.14): mma.sync with the fragment layouts of
// section 9.7.14.5 "Matrix multiply-accumulate operation using mma instruction", lane by lane,
// and wmma.mma.sync on gputlm's wmma fragments (tensor_fragments.h). Both are warp collectives:
// the sources are read from all 32 threads of the logical warp (a thread that is not executing
// contributes its registers as they stand, as in shfl; the ISA makes that undefined), the
// destination is written in the executing threads.
#include <algorithm>

#include "models/func/semantics/semantics.h"
#include "models/func/semantics/tensor_fragments.h"

namespace gputlm::func::sem {
namespace {

using isa::MmaType;

void mma_sync(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::TensorForm& t = in.tensor;
  Matrix a(t.m, t.k), b(t.k, t.n), cm(t.m, t.n), d(t.m, t.n);
  const uint32_t tid0 = first_tid(c);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const uint32_t tid = warp_thread(tid0, l);
    if (tid < c.cta->nthreads) gather_mma_fragments(c, l, tid, a, b, cm);
  }
  multiply_accumulate(a, b, cm, d, t.types[1], t.types[2], t.types[3], t.types[0],
                      in.has(isa::kSatFinite), in.atom);
  scatter_mma_result(c, d);
}

// mma.m8n8k4 with .f16 inputs (PTX ISA 9.7.14.5.1, the sm_70 form): four independent 8x8x4
// products, computation q by lanes 4q..4q+3 (the low group, rows or columns 0-3 of its fragments)
// and 4q+16..4q+19 (the high group, 4-7). With t = %laneid % 4 and h = 4 for the high group:
//  A row-major (t + h, i), column-major (i + h, t); B row-major (t, i + h), column-major (i, t +
//  h); C/D .f16 (t + h, i); C/D .f32 ((%laneid & 1) + (i & 2) + h, (i & 4) + (%laneid & 2) + (i &
//  1)).
Coord quad_a(unsigned lane, unsigned i, bool col) {
  const unsigned t = lane & 3, h = lane >= 16 ? 4 : 0;
  return col ? Coord{i + h, t} : Coord{t + h, i};
}
Coord quad_b(unsigned lane, unsigned i, bool col) {
  const unsigned t = lane & 3, h = lane >= 16 ? 4 : 0;
  return col ? Coord{i, t + h} : Coord{t, i + h};
}
Coord quad_c(unsigned lane, unsigned i, bool f32) {
  const unsigned h = lane >= 16 ? 4 : 0;
  if (!f32) return {(lane & 3) + h, i};
  return {(lane & 1) + (i & 2) + h, (i & 4) + (lane & 2) + (i & 1)};
}

void mma_quad_pairs(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::TensorForm& t = in.tensor;
  const MmaType td = t.types[0], tc = t.types[3];
  const ElemFormat fh = elem_format(MmaType::F16), fc = elem_format(tc), fd = elem_format(td);
  const uint32_t tid0 = first_tid(c);
  for (unsigned q = 0; q < 4; ++q) {
    Matrix a(8, 4), b(4, 8), cm(8, 8), d(8, 8);
    const unsigned lanes_of_q[8] = {4 * q,      4 * q + 1,  4 * q + 2,  4 * q + 3,
                                    4 * q + 16, 4 * q + 17, 4 * q + 18, 4 * q + 19};
    for (unsigned l : lanes_of_q) {
      const uint32_t tid = warp_thread(tid0, l);
      if (tid >= c.cta->nthreads) continue;
      for (unsigned i = 0; i < 4; ++i) {
        const Coord x = quad_a(l, i, t.a_col), y = quad_b(l, i, t.b_col);
        a.at(x.row, x.col) = fragment_element(c, in.ops[1], tid, fh, i);
        b.at(y.row, y.col) = fragment_element(c, in.ops[2], tid, fh, i);
      }
      for (unsigned i = 0; i < 8; ++i) {
        const Coord x = quad_c(l, i, tc == MmaType::F32);
        cm.at(x.row, x.col) = fragment_element(c, in.ops[3], tid, fc, i);
      }
    }
    multiply_accumulate(a, b, cm, d, MmaType::F16, MmaType::F16, tc, td, false, in.atom);
    lanes(c, [&](unsigned, uint32_t tid) {
      const unsigned l = tid % kWarpSize;
      if ((l & 15) / 4 != q) return;
      uint64_t elems[8] = {};
      for (unsigned i = 0; i < 8; ++i) {
        const Coord x = quad_c(l, i, td == MmaType::F32);
        elems[i] = d.at(x.row, x.col);
      }
      write_fragment(c, in.ops[0], tid, fd, elems);
    });
  }
}

// The shape/type combinations of mma.sync (PTX ISA 9.7.14.5.14 "mma" syntax, sm_80..sm_89) but
// m8n8k4 .f16 (the quad-pair form, any layouts: quad_pairs_exist); all need .row.col.
bool mma_form_exists(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  if (t.ntypes != 4 || t.nlayouts != 2 || t.a_col || !t.b_col || !in.has(isa::kSync) ||
      !in.has(isa::kAligned))
    return false;
  const MmaType td = t.types[0], ta = t.types[1], tb = t.types[2], tc = t.types[3];
  auto shape = [&](unsigned m, unsigned n, unsigned k) { return t.m == m && t.n == n && t.k == k; };
  auto is = [](MmaType x, MmaType y, MmaType z) { return x == y || x == z; };
  if (ta == MmaType::F16 && tb == MmaType::F16)
    return (shape(16, 8, 8) || shape(16, 8, 16)) && is(td, MmaType::F16, MmaType::F32) &&
           is(tc, MmaType::F16, MmaType::F32);
  if (td != tc) return false;
  if (ta == MmaType::BF16 && tb == MmaType::BF16)
    return (shape(16, 8, 8) || shape(16, 8, 16)) && td == MmaType::F32;
  if (ta == MmaType::TF32 && tb == MmaType::TF32)
    return (shape(16, 8, 4) || shape(16, 8, 8)) && td == MmaType::F32;
  if (ta == MmaType::F64 && tb == MmaType::F64) return shape(8, 8, 4) && td == MmaType::F64;
  // .e4m3/.e5m2 in any pairing (PTX ISA 9.7.14.5.14, sm_89): m16n8k32 into .f32, the fragments laid
  // out as .s8's (9.7.14.5.9).
  if (is(ta, MmaType::E4M3, MmaType::E5M2) && is(tb, MmaType::E4M3, MmaType::E5M2))
    return shape(16, 8, 32) && td == MmaType::F32;
  if (td != MmaType::S32) return false;
  if (is(ta, MmaType::S8, MmaType::U8) && is(tb, MmaType::S8, MmaType::U8))
    return shape(8, 8, 16) || shape(16, 8, 16) || shape(16, 8, 32);
  if (is(ta, MmaType::S4, MmaType::U4) && is(tb, MmaType::S4, MmaType::U4))
    return shape(8, 8, 32) || shape(16, 8, 32) || shape(16, 8, 64);
  if (ta == MmaType::B1 && tb == MmaType::B1)
    return (shape(8, 8, 128) || shape(16, 8, 128) || shape(16, 8, 256)) &&
           (in.atom == isa::AtomOp::Xor || in.atom == isa::AtomOp::And);
  return false;
}
bool is_f16_or_f32(MmaType x) { return x == MmaType::F16 || x == MmaType::F32; }

// mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype: 2 + 2 registers of .f16x2 in, 4 of
// .f16x2 or 8 of .f32 accumulators.
ExecFn bind_quad_pairs(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  if (t.ntypes != 4 || t.nlayouts != 2 || !in.has(isa::kSync) || !in.has(isa::kAligned) ||
      !is_f16_or_f32(t.types[0]) || !is_f16_or_f32(t.types[3]))
    return nullptr;
  if (!vector_holds(in, 0, t.types[0], 8) || !vector_holds(in, 1, MmaType::F16, 4) ||
      !vector_holds(in, 2, MmaType::F16, 4) || !vector_holds(in, 3, t.types[3], 8))
    return nullptr;
  return mma_quad_pairs;
}

ExecFn bind_mma(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  if (in.nops == 4 && t.m == 8 && t.n == 8 && t.k == 4 && t.types[1] == MmaType::F16 &&
      t.types[2] == MmaType::F16)
    return bind_quad_pairs(in);
  if (in.nops != 4 || !mma_form_exists(in)) return nullptr;
  const unsigned m = t.m, n = t.n, k = t.k;
  if (!vector_holds(in, 0, t.types[0], m * n / kWarpSize) ||
      !vector_holds(in, 1, t.types[1], m * k / kWarpSize) ||
      !vector_holds(in, 2, t.types[2], k * n / kWarpSize) ||
      !vector_holds(in, 3, t.types[3], m * n / kWarpSize))
    return nullptr;
  return mma_sync;
}

// wmma.mma's types: .dtype.ctype for .f16 inputs, else .dtype.atype.btype.ctype.
void wmma_types(const isa::TensorForm& t, MmaType& td, MmaType& ta, MmaType& tb, MmaType& tc) {
  if (t.ntypes == 2) {
    td = t.types[0], ta = tb = MmaType::F16, tc = t.types[1];
  } else {
    td = t.types[0], ta = t.types[1], tb = t.types[2], tc = t.types[3];
  }
}

// Lane l's element e of a wmma fragment is element (l * E + e) mod (rows * cols) of the matrix,
// row-major, or column-major for an A or B fragment of layout .col (tensor_fragments.h); a
// fragment larger than its matrix holds it replicated and the highest lane's copy is the one read.
unsigned first_lane(unsigned per_lane, unsigned total) {
  return per_lane * kWarpSize > total && total % per_lane == 0 ? kWarpSize - total / per_lane : 0;
}
void read_wmma(ExecCtx& c, unsigned op, MmaType type, Matrix& mat, uint32_t tid0, bool col_major) {
  const isa::Operand& v = c.in->ops[op];
  const ElemFormat f = elem_format(type);
  const unsigned per_lane = v.vec_n * f.per_reg, total = mat.rows * mat.cols;
  const uint64_t mask = f.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << f.bits) - 1;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const uint32_t tid = warp_thread(tid0, l);
    if (tid >= c.cta->nthreads) continue;
    FragmentOrder at(l * per_lane % total, mat.rows, mat.cols, col_major);
    for (unsigned j = 0; j < v.vec_n; ++j) {
      const uint64_t word = v.vec[j] >= 0 ? c.reg(v.vec[j], tid) : 0;
      for (unsigned e = 0; e < f.per_reg; ++e, at.next())
        mat.bits[at.pos()] = f.bits == 64 ? word : (word >> (e * f.bits)) & mask;
    }
  }
}

// real_value of a fragment element without branches: a NaN keeps its payload here, which no
// result shows (the accumulators' encodings give the canonical NaN).
template <MmaType T>
double fragment_value(uint64_t bits) {
  if constexpr (T == MmaType::BF16)
    return get<float>(bits << 16);
  else
    return real_value(T, bits);
}

// The float fragments' values, row-major in `out` (rows x cols): the same elements as read_wmma,
// decoded as they are read. Positions no present thread holds read as +0.
template <MmaType T, bool ColMajor>
void read_wmma_values(ExecCtx& c, const isa::Operand& v, unsigned rows, unsigned cols, double* out,
                      uint32_t tid0) {
  constexpr ElemFormat f = elem_format(T);
  const unsigned per_lane = v.vec_n * f.per_reg, total = rows * cols;
  constexpr uint64_t mask = f.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << f.bits) - 1;
  const bool full = warp_thread(tid0, kWarpSize - 1) < c.cta->nthreads;
  const unsigned from = full ? first_lane(per_lane, total) : 0;
  if (!ColMajor && full && (kWarpSize - from) * per_lane == total) {
    // Lanes from..31 hold the matrix once, lane by lane in row-major order: register by register
    // over the lanes (adjacent in the register file).
    for (unsigned j = 0; j < v.vec_n; ++j) {
      const uint64_t* regs = v.vec[j] >= 0 ? &c.reg(v.vec[j], warp_thread(tid0, 0)) : nullptr;
      for (unsigned l = from; l < kWarpSize; ++l) {
        const uint64_t word = regs ? regs[l] : 0;
        double* o = out + (l - from) * per_lane + j * f.per_reg;
        for (unsigned e = 0; e < f.per_reg; ++e)
          o[e] = fragment_value<T>(f.bits == 64 ? word : (word >> (e * f.bits)) & mask);
      }
    }
    return;
  }
  if (!full) std::fill(out, out + total, 0.0);
  for (unsigned l = from; l < kWarpSize; ++l) {
    const uint32_t tid = warp_thread(tid0, l);
    if (tid >= c.cta->nthreads) continue;
    FragmentOrder at(l * per_lane % total, rows, cols, ColMajor);
    for (unsigned j = 0; j < v.vec_n; ++j) {
      const uint64_t word = v.vec[j] >= 0 ? c.reg(v.vec[j], tid) : 0;
      for (unsigned e = 0; e < f.per_reg; ++e, at.next())
        out[at.pos()] = fragment_value<T>(f.bits == 64 ? word : (word >> (e * f.bits)) & mask);
    }
  }
}
template <MmaType T>
void read_wmma_values(ExecCtx& c, const isa::Operand& v, unsigned rows, unsigned cols,
                      bool col_major, double* out, uint32_t tid0) {
  if (col_major)
    read_wmma_values<T, true>(c, v, rows, cols, out, tid0);
  else
    read_wmma_values<T, false>(c, v, rows, cols, out, tid0);
}
void read_wmma_real(ExecCtx& c, unsigned op, MmaType type, unsigned rows, unsigned cols,
                    bool col_major, double* out, uint32_t tid0) {
  const isa::Operand& v = c.in->ops[op];
  switch (type) {
    case MmaType::F16:
      return read_wmma_values<MmaType::F16>(c, v, rows, cols, col_major, out, tid0);
    case MmaType::BF16:
      return read_wmma_values<MmaType::BF16>(c, v, rows, cols, col_major, out, tid0);
    case MmaType::TF32:
      return read_wmma_values<MmaType::TF32>(c, v, rows, cols, col_major, out, tid0);
    case MmaType::F32:
      return read_wmma_values<MmaType::F32>(c, v, rows, cols, col_major, out, tid0);
    default:
      return read_wmma_values<MmaType::F64>(c, v, rows, cols, col_major, out, tid0);
  }
}

// D's values (row-major, `total` of them) encoded into the fragment registers of the executing
// threads: register by register across a whole warp of consecutive threads.
template <MmaType T>
void write_wmma_values(ExecCtx& c, const isa::Operand& v, const double* acc, unsigned total,
                       uint32_t tid0) {
  constexpr ElemFormat f = elem_format(T);
  constexpr uint64_t mask = f.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << f.bits) - 1;
  const unsigned per_lane = v.vec_n * f.per_reg;
  auto word_at = [&](const double* x) {
    uint64_t word = 0;
    for (unsigned e = 0; e < f.per_reg; ++e) word |= (encode_real(T, x[e]) & mask) << (e * f.bits);
    return word;
  };
  if (c.mask == kFullMask && !c.group.tids && per_lane * kWarpSize == total) {
    for (unsigned j = 0; j < v.vec_n; ++j) {
      if (v.vec[j] < 0) continue;
      uint64_t* regs = &c.reg(v.vec[j], warp_thread(tid0, 0));
      for (unsigned l = 0; l < kWarpSize; ++l)
        regs[l] = word_at(acc + l * per_lane + j * f.per_reg);
    }
    return;
  }
  lanes(c, [&](unsigned, uint32_t tid) {
    double x[16];
    const unsigned first = tid % kWarpSize * per_lane % total;
    for (unsigned e = 0; e < per_lane; ++e) x[e] = acc[(first + e) % total];
    for (unsigned j = 0; j < v.vec_n; ++j)
      if (v.vec[j] >= 0) c.reg(v.vec[j], tid) = word_at(x + j * f.per_reg);
  });
}

// wmma.mma with float types: decoded straight from the registers, no raw-bits matrices (the
// tensor-core GEMMs spend most of their time here).
void wmma_mma_real(ExecCtx& c, const isa::TensorForm& t, MmaType td, MmaType ta, MmaType tb,
                   MmaType tc) {
  constexpr unsigned kMaxElems = 512;  // A of m32n8k16, B of m8n32k16
  double a[kMaxElems], b[kMaxElems], acc[kMaxElems];
  const uint32_t tid0 = first_tid(c);
  const unsigned total = t.m * t.n;
  read_wmma_real(c, 1, ta, t.m, t.k, t.a_col, a, tid0);
  read_wmma_real(c, 2, tb, t.k, t.n, t.b_col, b, tid0);
  read_wmma_real(c, 3, tc, t.m, t.n, false, acc, tid0);
  multiply_accumulate_real(a, b, acc, t.m, t.n, t.k, td == MmaType::F64);
  switch (td) {
    case MmaType::F16:
      return write_wmma_values<MmaType::F16>(c, c.in->ops[0], acc, total, tid0);
    case MmaType::F32:
      return write_wmma_values<MmaType::F32>(c, c.in->ops[0], acc, total, tid0);
    default:
      return write_wmma_values<MmaType::F64>(c, c.in->ops[0], acc, total, tid0);
  }
}

void wmma_mma(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::TensorForm& t = in.tensor;
  MmaType td, ta, tb, tc;
  wmma_types(t, td, ta, tb, tc);
  if (is_float_mma(td)) return wmma_mma_real(c, t, td, ta, tb, tc);
  Matrix a(t.m, t.k), b(t.k, t.n), cm(t.m, t.n), d(t.m, t.n);
  const uint32_t tid0 = first_tid(c);
  read_wmma(c, 1, ta, a, tid0, t.a_col);
  read_wmma(c, 2, tb, b, tid0, t.b_col);
  read_wmma(c, 3, tc, cm, tid0, false);
  multiply_accumulate(a, b, cm, d, ta, tb, tc, td, in.has(isa::kSatFinite), in.atom);
  const ElemFormat fd = elem_format(td);
  const unsigned per_lane = in.ops[0].vec_n * fd.per_reg;
  lanes(c, [&](unsigned, uint32_t tid) {
    uint64_t elems[16] = {};
    FragmentOrder at(tid % kWarpSize * per_lane % (t.m * t.n), t.m, t.n, false);
    for (unsigned e = 0; e < per_lane; ++e, at.next()) elems[e] = d.bits[at.pos()];
    write_fragment(c, in.ops[0], tid, fd, elems);
  });
}

// wmma.mma.sync (PTX ISA 9.7.14.4.3): .f16 inputs with .f16/.f32 accumulators; .bf16 and .tf32
// with .f32; .s8/.u8, .s4/.u4 and .b1 (.xor.popc or .and.popc) with .s32; .f64.
ExecFn bind_wmma_mma(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  if (in.nops != 4 || (t.ntypes != 2 && t.ntypes != 4) || !in.has(isa::kSync) ||
      !in.has(isa::kAligned))
    return nullptr;
  MmaType td, ta, tb, tc;
  wmma_types(t, td, ta, tb, tc);
  const bool ints =
      (ta == MmaType::S8 || ta == MmaType::U8) && (tb == MmaType::S8 || tb == MmaType::U8);
  const bool sub =
      (ta == MmaType::S4 || ta == MmaType::U4) && (tb == MmaType::S4 || tb == MmaType::U4);
  if (ta != tb && !ints && !sub) return nullptr;
  if ((ta == MmaType::BF16 || ta == MmaType::TF32) && (td != MmaType::F32 || tc != MmaType::F32))
    return nullptr;
  if (ta == MmaType::B1 && in.atom != isa::AtomOp::Xor && in.atom != isa::AtomOp::And)
    return nullptr;
  if ((ints || sub || ta == MmaType::B1) && (td != MmaType::S32 || tc != MmaType::S32))
    return nullptr;
  if (ta == MmaType::F64 && (td != MmaType::F64 || tc != MmaType::F64)) return nullptr;
  if (ta == MmaType::F16 && t.ntypes != 2) return nullptr;
  const MmaType types[4] = {td, ta, tb, tc};
  const isa::MatrixPart parts[4] = {isa::MatrixPart::D, isa::MatrixPart::A, isa::MatrixPart::B,
                                    isa::MatrixPart::C};
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned regs = wmma_fragment_regs(t, parts[i], types[i]);
    if (regs == 0 || in.ops[i].kind != isa::OperandKind::Vector || in.ops[i].vec_n != regs)
      return nullptr;
  }
  return wmma_mma;
}

}  // namespace

ExecFn bind_tensor(const isa::Instruction& in) {
  switch (in.op) {
    case isa::Opcode::Mma:
      return in.tensor.sparse ? bind_sparse_mma(in) : bind_mma(in);
    case isa::Opcode::Wmma:
      return in.tensor.part == isa::MatrixPart::Mma ? bind_wmma_mma(in) : bind_matrix_memory(in);
    default:
      return bind_matrix_memory(in);
  }
}

}  // namespace gputlm::func::sem
