#include "models/func/semantics/tensor_fragments.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {

using isa::MmaType;

bool is_float_mma(MmaType t) {
  return t == MmaType::F16 || t == MmaType::BF16 || t == MmaType::TF32 || t == MmaType::F32 ||
         t == MmaType::F64 || t == MmaType::E4M3 || t == MmaType::E5M2;
}

uint64_t fragment_element(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f,
                          unsigned i) {
  const int32_t r = v.vec[i / f.per_reg];
  const uint64_t word = r >= 0 ? c.reg(r, tid) : 0;
  if (f.bits == 64) return word;
  return (word >> ((i % f.per_reg) * f.bits)) & ((uint64_t{1} << f.bits) - 1);
}

void write_fragment(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f,
                    const uint64_t* elems) {
  for (unsigned j = 0; j < v.vec_n; ++j) {
    if (v.vec[j] < 0) continue;
    uint64_t word = 0;
    for (unsigned e = 0; e < f.per_reg; ++e) {
      const uint64_t x = elems[j * f.per_reg + e];
      word |= f.bits == 64 ? x : (x & ((uint64_t{1} << f.bits) - 1)) << (e * f.bits);
    }
    c.reg(v.vec[j], tid) = word;
  }
}

namespace {

// One row of D: the N sums advance together over k (each in k order), so that the compiler can
// keep them in vector registers; N is a compile-time constant for the shapes that exist.
template <unsigned N>
[[gnu::always_inline]] inline void mac_row(const double* a_row, const double* b, double* acc,
                                           unsigned k, bool fused) {
  double sum[N];
  for (unsigned j = 0; j < N; ++j) sum[j] = acc[j];
  if (fused) {
    for (unsigned x = 0; x < k; ++x)
      for (unsigned j = 0; j < N; ++j) sum[j] = std::fma(a_row[x], b[size_t{x} * N + j], sum[j]);
  } else {
    for (unsigned x = 0; x < k; ++x) {
      const double ax = a_row[x];
      for (unsigned j = 0; j < N; ++j) sum[j] += ax * b[size_t{x} * N + j];
    }
  }
  for (unsigned j = 0; j < N; ++j) acc[j] = sum[j];
}

int64_t int_value(MmaType t, uint64_t bits) {
  switch (t) {
    case MmaType::S8:
      return static_cast<int8_t>(bits);
    case MmaType::U8:
      return static_cast<uint8_t>(bits);
    case MmaType::S4:
      return static_cast<int64_t>((bits & 0xF) ^ 0x8) - 8;
    case MmaType::U4:
      return static_cast<int64_t>(bits & 0xF);
    case MmaType::B1:
      return static_cast<int64_t>(bits & 1);
    default:
      return static_cast<int32_t>(bits);  // .s32
  }
}

}  // namespace

// Compiled for AVX-512 and AVX2 as well where the host has them (picked at load time); this file
// is built with -ffp-contract=off, so no clone fuses a product into its sum.
__attribute__((target_clones("avx512f", "avx2", "default"))) void multiply_accumulate_real(
    const double* a, const double* b, double* acc, unsigned m, unsigned n, unsigned k, bool fused) {
  for (unsigned i = 0; i < m; ++i) {
    const double* a_row = a + size_t{i} * k;
    double* row = acc + size_t{i} * n;
    switch (n) {
      case 8:
        mac_row<8>(a_row, b, row, k, fused);
        break;
      case 16:
        mac_row<16>(a_row, b, row, k, fused);
        break;
      case 32:
        mac_row<32>(a_row, b, row, k, fused);
        break;
      default:
        for (unsigned j = 0; j < n; ++j)
          for (unsigned x = 0; x < k; ++x)
            row[j] = fused ? std::fma(a_row[x], b[size_t{x} * n + j], row[j])
                           : row[j] + a_row[x] * b[size_t{x} * n + j];
    }
  }
}

void multiply_accumulate(const Matrix& a, const Matrix& b, const Matrix& cm, Matrix& d, MmaType ta,
                         MmaType tb, MmaType tc, MmaType td, bool satfinite, isa::AtomOp bop) {
  const unsigned m = a.rows, n = b.cols, k = a.cols;
  if (is_float_mma(td)) {
    std::vector<double> av(a.bits.size()), bv(b.bits.size()), acc(cm.bits.size());
    for (size_t e = 0; e < av.size(); ++e) av[e] = real_value(ta, a.bits[e]);
    for (size_t e = 0; e < bv.size(); ++e) bv[e] = real_value(tb, b.bits[e]);
    for (size_t e = 0; e < acc.size(); ++e) acc[e] = real_value(tc, cm.bits[e]);
    multiply_accumulate_real(av.data(), bv.data(), acc.data(), m, n, k, td == MmaType::F64);
    for (size_t e = 0; e < acc.size(); ++e) d.bits[e] = encode_real(td, acc[e]);
    return;
  }
  // B transposed (column j contiguous).
  std::vector<int64_t> av(a.bits.size()), bt(b.bits.size());
  for (size_t e = 0; e < av.size(); ++e) av[e] = int_value(ta, a.bits[e]);
  for (unsigned x = 0; x < b.rows; ++x)
    for (unsigned j = 0; j < b.cols; ++j) bt[size_t{j} * b.rows + x] = int_value(tb, b.at(x, j));
  for (unsigned i = 0; i < m; ++i)
    for (unsigned j = 0; j < n; ++j) {
      const int64_t* p = &av[size_t{i} * k];
      const int64_t* q = &bt[size_t{j} * k];
      int64_t acc = int_value(tc, cm.at(i, j));
      if (ta != MmaType::B1)
        for (unsigned x = 0; x < k; ++x) acc += p[x] * q[x];
      else if (bop == isa::AtomOp::And)
        for (unsigned x = 0; x < k; ++x) acc += p[x] & q[x];
      else
        for (unsigned x = 0; x < k; ++x) acc += p[x] ^ q[x];
      if (satfinite)
        acc = std::clamp<int64_t>(acc, std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max());
      d.at(i, j) = static_cast<uint32_t>(acc);
    }
}

void gather_mma_fragments(ExecCtx& c, unsigned lane, uint32_t tid, Matrix& a, Matrix& b,
                          Matrix& cm) {
  const isa::Instruction& in = *c.in;
  const ElemFormat fa = elem_format(in.tensor.types[1]), fb = elem_format(in.tensor.types[2]),
                   fc = elem_format(in.tensor.types[3]);
  for (unsigned i = 0; i < a.rows * a.cols / kWarpSize; ++i) {
    const Coord x = mma_a(lane, i, fa.per_reg);
    a.at(x.row, x.col) = fragment_element(c, in.ops[1], tid, fa, i);
  }
  for (unsigned i = 0; i < b.rows * b.cols / kWarpSize; ++i) {
    const Coord x = mma_b(lane, i, fb.per_reg);
    b.at(x.row, x.col) = fragment_element(c, in.ops[2], tid, fb, i);
  }
  for (unsigned i = 0; i < cm.rows * cm.cols / kWarpSize; ++i) {
    const Coord x = mma_c(lane, i);
    cm.at(x.row, x.col) = fragment_element(c, in.ops[3], tid, fc, i);
  }
}

void scatter_mma_result(ExecCtx& c, const Matrix& d) {
  const ElemFormat fd = elem_format(c.in->tensor.types[0]);
  lanes(c, [&](unsigned, uint32_t tid) {
    uint64_t elems[8] = {};
    const unsigned l = tid % kWarpSize;
    for (unsigned i = 0; i < d.rows * d.cols / kWarpSize; ++i) {
      const Coord x = mma_c(l, i);
      elems[i] = d.at(x.row, x.col);
    }
    write_fragment(c, c.in->ops[0], tid, fd, elems);
  });
}

void wmma_dims(const isa::TensorForm& t, isa::MatrixPart part, unsigned& rows, unsigned& cols) {
  switch (part) {
    case isa::MatrixPart::A:
      rows = t.m, cols = t.k;
      break;
    case isa::MatrixPart::B:
      rows = t.k, cols = t.n;
      break;
    default:
      rows = t.m, cols = t.n;
      break;
  }
}

unsigned wmma_fragment_regs(const isa::TensorForm& t, isa::MatrixPart part, MmaType type) {
  auto shape = [&](unsigned m, unsigned n, unsigned k) { return t.m == m && t.n == n && t.k == k; };
  const bool half_shape = shape(16, 16, 16) || shape(32, 8, 16) || shape(8, 32, 16);
  const bool ab = part == isa::MatrixPart::A || part == isa::MatrixPart::B;
  bool ok = false;
  switch (type) {
    case MmaType::F16:
      ok = half_shape;
      break;
    case MmaType::BF16:
    case MmaType::S8:
    case MmaType::U8:
      ok = ab && half_shape;
      break;
    case MmaType::TF32:
      ok = ab && shape(16, 16, 8);
      break;
    case MmaType::S4:
    case MmaType::U4:
      ok = ab && shape(8, 8, 32);
      break;
    case MmaType::B1:
      ok = ab && shape(8, 8, 128);
      break;
    case MmaType::F32:
      ok = !ab && (half_shape || shape(16, 16, 8));
      break;
    case MmaType::S32:
      ok = !ab && (half_shape || shape(8, 8, 32) || shape(8, 8, 128));
      break;
    case MmaType::F64:
      ok = shape(8, 8, 4);
      break;
    default:
      break;
  }
  if (!ok) return 0;
  if (ab && type == MmaType::F16)
    return 8;  // 8 .f16x2 registers (PTX ISA 9.7.14.4.1), whatever the shape
  unsigned rows, cols;
  wmma_dims(t, part, rows, cols);
  return rows * cols * elem_format(type).bits / (kWarpSize * (type == MmaType::F64 ? 64 : 32));
}

}  // namespace gputlm::func::sem
