// Sparse warp-level MMA (PTX ISA 9.7.14.6, sm_80; .e4m3/.e5m2 sm_89): mma.sp and
// mma.sp::ordered_metadata, d, a, b, c, e, f. A (16 x K) is structured sparse: each row keeps half
// its elements, stored compressed (16 x K/2), and the metadata e says where each kept one goes.
//
// What the ISA's text states (9.7.14.6.1/2), and how it is read here:
//  - The compressed A is laid out as the dense mma A fragment of shape m16n8k(K/2) (the ISA's
//    row/col formulas for each sparse shape are exactly those), B and C/D as the dense mma of the
//    full K (mma_a, mma_b, mma_c in tensor_fragments.h).
//  - Positions count in units: 16 bits for .f16/.bf16/.tf32, 8 bits for the 8- and 4-bit types.
//    Every kept pair of units in a chunk of 4 units has two 2-bit indices, the first in the low
//    bits (0b0100: units 0 and 1). This one rule is each type's granularity: 2:4 for 16- and
//    8-bit elements, .tf32's 1:2 (a .tf32 is two units; 0b0100 and 0b1110, the ISA's only
//    meaningful values, keep element 0 or 1) and .u4/.s4's pair-wise 4:8 (a unit is a pair).
//  - Which threads hold the metadata: the ISA's sparsity-selector rules (one thread of a quad for
//    16 chunks of a row pair, a pair of threads for 32, all four for 64) follow from each thread
//    holding four chunks of row groupID in bits 0-15 and the same four of row groupID + 8 in bits
//    16-31, the quad's holders being threads f * h .. f * h + h - 1 (h holders, f the selector),
//    the lower thread the lower columns. The ISA draws this in figures only (119-139); the reading
//    is the one LLVM's sm_80 integration test of mma.sp (mlir/test/Integration/GPU/CUDA/sm80)
//    states for m16n8k32 (thread 2i+p: row-pair p-th 16 columns, the first 8 rows in the low half),
//    and the one XLA's Ampere lowering of its Triton sparse dot builds for m16n8k32 .f16/.bf16 with
//    selector 0 (openxla/xla, the sparse passes' SparseLocalLoadToLLVM and convertSparseMMA: lane l
//    loads the 16-column metadata word l % 2 of rows l / 4 and l / 4 + 8 and packs the first in
//    bits 0-15), code that runs on A100s. Neither exercises the k16 selectors 1-3 or the 8-bit
//    types.
//  - Metadata the ISA calls invalid or undefined (both indices equal; for ::ordered_metadata,
//    indices not increasing) is a kernel fault naming the lane and bits (a choice).
// Products and accumulation as mma.sync's (multiply_accumulate).
#include "models/func/semantics/semantics.h"
#include "models/func/semantics/tensor_fragments.h"

namespace gputlm::func::sem {
namespace {

using isa::MmaType;

unsigned unit_bits(MmaType t) { return elem_format(t).bits >= 16 ? 16 : 8; }

// The shape/type combinations of mma.sp (PTX ISA 9.7.14.6.3) on sm_80 to sm_90 (the .kind and
// .block_scale forms are sm_120a's); all .row.col, m16n8, .dtype = .ctype.
bool sparse_form_exists(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  if (t.ntypes != 4 || t.nlayouts != 2 || t.a_col || !t.b_col || !in.has(isa::kSync) ||
      !in.has(isa::kAligned) || t.m != 16 || t.n != 8)
    return false;
  const MmaType td = t.types[0], ta = t.types[1], tb = t.types[2], tc = t.types[3];
  auto k = [&](unsigned x, unsigned y) { return t.k == x || t.k == y; };
  auto is = [](MmaType x, MmaType y, MmaType z) { return x == y || x == z; };
  if (td != tc) return false;
  if (ta == MmaType::F16 && tb == MmaType::F16)
    return k(16, 32) && is(td, MmaType::F16, MmaType::F32);
  if (ta == MmaType::BF16 && tb == MmaType::BF16) return k(16, 32) && td == MmaType::F32;
  if (ta == MmaType::TF32 && tb == MmaType::TF32) return k(8, 16) && td == MmaType::F32;
  if (is(ta, MmaType::E4M3, MmaType::E5M2) && is(tb, MmaType::E4M3, MmaType::E5M2))
    return t.k == 64 && td == MmaType::F32;
  if (td != MmaType::S32) return false;
  if (is(ta, MmaType::S8, MmaType::U8) && is(tb, MmaType::S8, MmaType::U8)) return k(32, 64);
  if (is(ta, MmaType::S4, MmaType::U4) && is(tb, MmaType::S4, MmaType::U4)) return k(64, 128);
  return false;
}

// Chunks (of 4 units) in a row of A, and the quad's threads that hold their metadata.
unsigned row_chunks(const isa::TensorForm& t) {
  return t.k * elem_format(t.types[1]).bits / unit_bits(t.types[1]) / 4;
}
unsigned holders(const isa::TensorForm& t) { return row_chunks(t) / 4; }

// Unit `u` of row `r` of `m` (elements of `bits`), and the same written into a zeroed row.
uint64_t get_unit(const Matrix& m, unsigned r, unsigned u, unsigned bits, unsigned ub) {
  if (bits > ub)
    return (m.at(r, u / 2) >> (ub * (u % 2))) & ((uint64_t{1} << ub) - 1);  // a .tf32 half
  uint64_t v = 0;
  for (unsigned e = 0; e < ub / bits; ++e) v |= m.at(r, u * (ub / bits) + e) << (e * bits);
  return v;
}
void put_unit(Matrix& m, unsigned r, unsigned u, unsigned bits, unsigned ub, uint64_t v) {
  if (bits > ub) {
    m.at(r, u / 2) |= v << (ub * (u % 2));
    return;
  }
  for (unsigned e = 0; e < ub / bits; ++e)
    m.at(r, u * (ub / bits) + e) = (v >> (e * bits)) & ((uint64_t{1} << bits) - 1);
}

void sparse_mma(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::TensorForm& t = in.tensor;
  const MmaType td = t.types[0], ta = t.types[1], tb = t.types[2], tc = t.types[3];
  const ElemFormat fa = elem_format(ta);
  const unsigned m = t.m, n = t.n, k = t.k, chunks = row_chunks(t), h = holders(t),
                 ub = unit_bits(ta);
  Matrix packed(m, k / 2), a(m, k), b(k, n), cm(m, n), d(m, n);
  uint64_t meta[16] = {};  // per row of A: 4 bits per chunk
  const uint32_t tid0 = first_tid(c);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const uint32_t tid = warp_thread(tid0, l);
    if (tid >= c.cta->nthreads) continue;
    gather_mma_fragments(c, l, tid, packed, b, cm);
    const unsigned q = l & 3, g = l >> 2;
    if (q < t.selector * h || q >= (t.selector + 1u) * h) continue;
    const auto e = static_cast<uint32_t>(c.raw(in.ops[4], l, tid));
    meta[g] |= uint64_t{e & 0xFFFFu} << (16 * (q - t.selector * h));
    meta[g + 8] |= uint64_t{e >> 16} << (16 * (q - t.selector * h));
  }
  for (unsigned r = 0; r < m; ++r) {
    for (unsigned ch = 0; ch < chunks; ++ch) {
      const unsigned nibble = (meta[r] >> (4 * ch)) & 0xF, i0 = nibble & 3, i1 = nibble >> 2;
      if (i0 == i1 || (t.sparse == 2 && i0 > i1)) {
        const unsigned lane = 4 * (r % 8) + t.selector * h + ch / 4,
                       bit = 16 * (r / 8) + 4 * (ch % 4);
        c.fault("mma.sp metadata 0x" + std::string(1, "0123456789abcdef"[nibble]) + " (lane " +
                    std::to_string(lane) + ", bits " + std::to_string(bit + 3) + ".." +
                    std::to_string(bit) + ", row " + std::to_string(r) + ") " +
                    (i0 == i1 ? "names one position twice"
                              : "is not in increasing order, as ::ordered_metadata requires") +
                    ": undefined in the PTX ISA",
                warp_thread(tid0, lane), 0, false);
      }
      put_unit(a, r, 4 * ch + i0, fa.bits, ub, get_unit(packed, r, 2 * ch, fa.bits, ub));
      put_unit(a, r, 4 * ch + i1, fa.bits, ub, get_unit(packed, r, 2 * ch + 1, fa.bits, ub));
    }
  }
  multiply_accumulate(a, b, cm, d, ta, tb, tc, td, in.has(isa::kSatFinite), in.atom);
  scatter_mma_result(c, d);
}

}  // namespace

ExecFn bind_sparse_mma(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  if (in.nops != 5 || !sparse_form_exists(in)) return nullptr;
  if (t.selector >= 4 / holders(t)) return nullptr;  // the ISA's selector ranges: 0..3, 0..1, or 0
  const unsigned m = t.m, n = t.n, k = t.k;
  if (!vector_holds(in, 0, t.types[0], m * n / kWarpSize) ||
      !vector_holds(in, 1, t.types[1], m * k / 2 / kWarpSize) ||
      !vector_holds(in, 2, t.types[2], k * n / kWarpSize) ||
      !vector_holds(in, 3, t.types[3], m * n / kWarpSize))
    return nullptr;
  if (in.ops[4].kind != isa::OperandKind::Reg && in.ops[4].kind != isa::OperandKind::Imm)
    return nullptr;
  return sparse_mma;
}

}  // namespace gputlm::func::sem
