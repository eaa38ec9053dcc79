#include "models/func/semantics/tensor_fragments.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {

using isa::MmaType;

ElemFormat elem_format(MmaType t) {
  switch (t) {
    case MmaType::F16: case MmaType::BF16: case MmaType::B16: return {16, 2};
    case MmaType::TF32: case MmaType::F32: case MmaType::S32: return {32, 1};
    case MmaType::F64: return {64, 1};
    case MmaType::S8: case MmaType::U8: return {8, 4};
    case MmaType::S4: case MmaType::U4: return {4, 8};
    case MmaType::B1: return {1, 32};
    default: return {};
  }
}

bool is_float_mma(MmaType t) {
  return t == MmaType::F16 || t == MmaType::BF16 || t == MmaType::TF32 || t == MmaType::F32 || t == MmaType::F64;
}

uint64_t fragment_element(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f, unsigned i) {
  const int32_t r = v.vec[i / f.per_reg];
  const uint64_t word = r >= 0 ? c.reg(r, tid) : 0;
  if (f.bits == 64) return word;
  return (word >> ((i % f.per_reg) * f.bits)) & ((uint64_t{1} << f.bits) - 1);
}

void write_fragment(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f, const uint64_t* elems) {
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

double real_value(MmaType t, uint64_t bits) {
  switch (t) {
    case MmaType::F16: return from_f16(static_cast<uint16_t>(bits));
    case MmaType::BF16: return from_bf16(static_cast<uint16_t>(bits));
    case MmaType::TF32: return get<float>(bits & 0xFFFFE000u);  // .tf32: only the top 19 bits count
    case MmaType::F32: return get<float>(bits);
    default: return get<double>(bits);
  }
}
int64_t int_value(MmaType t, uint64_t bits) {
  switch (t) {
    case MmaType::S8: return static_cast<int8_t>(bits);
    case MmaType::U8: return static_cast<uint8_t>(bits);
    case MmaType::S4: return static_cast<int64_t>((bits & 0xF) ^ 0x8) - 8;
    case MmaType::U4: return static_cast<int64_t>(bits & 0xF);
    case MmaType::B1: return static_cast<int64_t>(bits & 1);
    default: return static_cast<int32_t>(bits);  // .s32
  }
}
uint64_t encode_real(MmaType t, double x) {
  switch (t) {
    case MmaType::F16: return to_f16(x);
    // Round to nearest (the host's mode here): the cast is to_f32's result for all but NaN.
    case MmaType::F32: return put<float>(std::isnan(x) ? to_f32(x) : static_cast<float>(x));
    default: return put<double>(x);
  }
}

// A's elements row-major and B's transposed (column j contiguous), each decoded once.
template <class T, class DecodeA, class DecodeB>
void decode_operands(const Matrix& a, const Matrix& b, std::vector<T>& av, std::vector<T>& bt, DecodeA decode_a,
                     DecodeB decode_b) {
  av.resize(a.bits.size());
  bt.resize(b.bits.size());
  for (size_t e = 0; e < av.size(); ++e) av[e] = decode_a(a.bits[e]);
  for (unsigned x = 0; x < b.rows; ++x)
    for (unsigned j = 0; j < b.cols; ++j) bt[size_t{j} * b.rows + x] = decode_b(b.at(x, j));
}

}  // namespace

void multiply_accumulate(const Matrix& a, const Matrix& b, const Matrix& cm, Matrix& d, MmaType ta, MmaType tb,
                         MmaType tc, MmaType td, bool satfinite, isa::AtomOp bop) {
  const unsigned m = a.rows, n = b.cols, k = a.cols;
  if (is_float_mma(td)) {
    std::vector<double> av, bt;
    decode_operands<double>(a, b, av, bt, [ta](uint64_t x) { return real_value(ta, x); },
                            [tb](uint64_t x) { return real_value(tb, x); });
    for (unsigned i = 0; i < m; ++i)
      for (unsigned j = 0; j < n; ++j) {
        const double* p = &av[size_t{i} * k];
        const double* q = &bt[size_t{j} * k];
        double acc = real_value(tc, cm.at(i, j));
        if (td == MmaType::F64)
          for (unsigned x = 0; x < k; ++x) acc = std::fma(p[x], q[x], acc);
        else
          for (unsigned x = 0; x < k; ++x) acc += p[x] * q[x];
        d.at(i, j) = encode_real(td, acc);
      }
    return;
  }
  std::vector<int64_t> av, bt;
  decode_operands<int64_t>(a, b, av, bt, [ta](uint64_t x) { return int_value(ta, x); },
                           [tb](uint64_t x) { return int_value(tb, x); });
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
        acc = std::clamp<int64_t>(acc, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      d.at(i, j) = static_cast<uint32_t>(acc);
    }
}

void wmma_dims(const isa::TensorForm& t, isa::MatrixPart part, unsigned& rows, unsigned& cols) {
  switch (part) {
    case isa::MatrixPart::A: rows = t.m, cols = t.k; break;
    case isa::MatrixPart::B: rows = t.k, cols = t.n; break;
    default: rows = t.m, cols = t.n; break;
  }
}

unsigned wmma_fragment_regs(const isa::TensorForm& t, isa::MatrixPart part, MmaType type) {
  auto shape = [&](unsigned m, unsigned n, unsigned k) { return t.m == m && t.n == n && t.k == k; };
  const bool half_shape = shape(16, 16, 16) || shape(32, 8, 16) || shape(8, 32, 16);
  const bool ab = part == isa::MatrixPart::A || part == isa::MatrixPart::B;
  bool ok = false;
  switch (type) {
    case MmaType::F16: ok = half_shape; break;
    case MmaType::BF16: case MmaType::S8: case MmaType::U8: ok = ab && half_shape; break;
    case MmaType::TF32: ok = ab && shape(16, 16, 8); break;
    case MmaType::S4: case MmaType::U4: ok = ab && shape(8, 8, 32); break;
    case MmaType::B1: ok = ab && shape(8, 8, 128); break;
    case MmaType::F32: ok = !ab && (half_shape || shape(16, 16, 8)); break;
    case MmaType::S32: ok = !ab && (half_shape || shape(8, 8, 32) || shape(8, 8, 128)); break;
    case MmaType::F64: ok = shape(8, 8, 4); break;
    default: break;
  }
  if (!ok) return 0;
  if (ab && type == MmaType::F16) return 8;  // 8 .f16x2 registers (PTX ISA 9.7.14.4.1), whatever the shape
  unsigned rows, cols;
  wmma_dims(t, part, rows, cols);
  return rows * cols * elem_format(type).bits / (kWarpSize * (type == MmaType::F64 ? 64 : 32));
}

}  // namespace gputlm::func::sem
