// Matrix fragments of the tensor-core instructions (PTX ISA 9.7.14 "Warp Level Matrix Multiply-
// Accumulate Instructions"): how a warp's registers hold the elements of a matrix, the element
// codecs and the multiply-accumulate itself. Shared by tensor_ops.cpp (mma.sync, wmma.mma) and
// matrix_load_ops.cpp (wmma.load/store).
//
// A fragment element is `bits` wide; a register holds `per_reg` of them, element 0 in the low
// bits (the packed .f16x2 / .b32-of-4-.s8 convention of PTX ISA 5.2.x; a .b1 register holds 32
// elements, element 0 in bit 0). .f64 fragments use whole 64-bit registers.
#pragma once

#include <cstdint>
#include <vector>

#include "models/func/exec_context.h"
#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {

struct ElemFormat {
  unsigned bits = 0;     // 0: not a fragment type
  unsigned per_reg = 0;  // elements per register
};
constexpr ElemFormat elem_format(isa::MmaType t) {
  switch (t) {
    case isa::MmaType::F16:
    case isa::MmaType::BF16:
    case isa::MmaType::B16:
      return {16, 2};
    case isa::MmaType::TF32:
    case isa::MmaType::F32:
    case isa::MmaType::S32:
      return {32, 1};
    case isa::MmaType::F64:
      return {64, 1};
    case isa::MmaType::S8:
    case isa::MmaType::U8:
    case isa::MmaType::E4M3:
    case isa::MmaType::E5M2:
      return {8, 4};
    case isa::MmaType::S4:
    case isa::MmaType::U4:
      return {4, 8};
    case isa::MmaType::B1:
      return {1, 32};
    default:
      return {};
  }
}
bool is_float_mma(isa::MmaType t);

// A matrix of raw element bits, row-major.
struct Matrix {
  unsigned rows = 0, cols = 0;
  std::vector<uint64_t> bits;
  Matrix(unsigned r, unsigned c) : rows(r), cols(c), bits(size_t{r} * c, 0) {}
  uint64_t& at(unsigned r, unsigned c) { return bits[size_t{r} * cols + c]; }
  uint64_t at(unsigned r, unsigned c) const { return bits[size_t{r} * cols + c]; }
};

// Element `i` of a fragment held in the registers of `v` (a Vector operand) of thread `tid`.
uint64_t fragment_element(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f,
                          unsigned i);
// Packs `elems` (count = v.vec_n * per_reg) into the registers of `v` of thread `tid`.
void write_fragment(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f,
                    const uint64_t* elems);

// The value of a float fragment element (.f16, .bf16, .tf32: its top 19 bits, .f32, .f64) and
// the accumulator bits of a value (.f16 and .f32 rounded to nearest, .f64 as it is).
inline double real_value(isa::MmaType t, uint64_t bits) {
  switch (t) {
    case isa::MmaType::F16:
      return from_f16(static_cast<uint16_t>(bits));
    case isa::MmaType::BF16:
      return from_bf16(static_cast<uint16_t>(bits));
    case isa::MmaType::E4M3:
      return from_e4m3(static_cast<uint8_t>(bits));
    case isa::MmaType::E5M2:
      return from_e5m2(static_cast<uint8_t>(bits));
    case isa::MmaType::TF32:
      return get<float>(bits & 0xFFFFE000u);  // .tf32: only the top 19 bits count
    case isa::MmaType::F32:
      return get<float>(bits);
    default:
      return get<double>(bits);
  }
}
inline uint64_t encode_real(isa::MmaType t, double x) {
  switch (t) {
    case isa::MmaType::F16:
      return to_f16(x);
    // Round to nearest (the host's mode here): the cast is to_f32's result for all but NaN.
    case isa::MmaType::F32:
      return put<float>(std::isnan(x) ? to_f32(x) : static_cast<float>(x));
    default:
      return put<double>(x);
  }
}

// The float multiply-accumulate on decoded values, all row-major: `acc` (M x N) holds C on entry
// and D (unrounded) on exit; A is M x K, B is K x N. Each element's sum runs over k in order,
// products exact in double, added (or fused, `fused`: .f64) one by one.
void multiply_accumulate_real(const double* a, const double* b, double* acc, unsigned m, unsigned n,
                              unsigned k, bool fused);

// D = A x B + C with A: M x K (type ta), B: K x N (tb), C: M x N (tc), D: M x N (td).
// Floats: every product is exact in double, the sum is taken in double and rounded once to the
// accumulator type (the ISA fixes neither the order of the additions nor an intermediate
// precision beyond single; f64 accumulates fma by fma in k order). Integers: exact sum, wrapped
// to 32 bits, or clamped to the s32 range with .satfinite. .b1: D = C + popc(A op B) per
// row/column pair, op = .xor or .and (`bop`).
void multiply_accumulate(const Matrix& a, const Matrix& b, const Matrix& cm, Matrix& d,
                         isa::MmaType ta, isa::MmaType tb, isa::MmaType tc, isa::MmaType td,
                         bool satfinite, isa::AtomOp bop);

// mma.sync fragments (PTX ISA 9.7.14.5.x): (row, column) of element i of lane `lane`'s fragment
// (groupID = lane / 4, threadID_in_group = lane % 4; `p` elements per register). These closed forms
// reproduce the ISA's per-shape tables of 9.7.14.5.x for every mma shape but m8n8k4 with .f16
// inputs:
//  A (M x K): row = groupID (+8 for the odd registers of the m16 shapes), col = threadID_in_group
//    * p + i % p (+4p for registers 2 and 3), e.g. m16n8k16 .f16: a0,a1 row g, a2,a3 row g+8,
//    a4..a7 columns +8; m16n8k8 .tf32: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4).
//  B (K x N): row = threadID_in_group * p + i % p + 4p * register, col = groupID.
//  C/D (M x N): row = groupID (+8 for c2, c3), col = threadID_in_group * 2 + (i & 1).
struct Coord {
  unsigned row, col;
};
inline Coord mma_a(unsigned lane, unsigned i, unsigned p) {
  const unsigned g = lane >> 2, t = lane & 3, r = i / p;
  return {g + 8 * (r & 1), t * p + i % p + 4 * p * (r >> 1)};
}
inline Coord mma_b(unsigned lane, unsigned i, unsigned p) {
  const unsigned g = lane >> 2, t = lane & 3, r = i / p;
  return {t * p + i % p + 4 * p * r, g};
}
inline Coord mma_c(unsigned lane, unsigned i) {
  return {(lane >> 2) + 8 * (i >> 1), (lane & 3) * 2 + (i & 1)};
}

// The first executing thread: the warp collectives read the registers of its logical warp.
inline uint32_t first_tid(ExecCtx& c) { return c.group.tid(lowest_lane(c.mask)); }

// Whether operand `op` of `in` is a vector of exactly the registers `elems` elements of `t` need.
inline bool vector_holds(const isa::Instruction& in, unsigned op, isa::MmaType t, unsigned elems) {
  const isa::Operand& o = in.ops[op];
  return o.kind == isa::OperandKind::Vector && o.vec_n * elem_format(t).per_reg == elems;
}

// mma's operands 1-3 (A, B, C) of lane `lane` (thread `tid`) into `a`, `b`, `cm`, placed by
// mma_a/mma_b/mma_c: each lane holds rows x cols / 32 elements of each (`a` is the compressed A
// of mma.sp). And D from `d` into the destination registers of every executing thread.
void gather_mma_fragments(ExecCtx& c, unsigned lane, uint32_t tid, Matrix& a, Matrix& b,
                          Matrix& cm);
void scatter_mma_result(ExecCtx& c, const Matrix& d);

// The thread index of logical lane `l` of the warp that `tid` belongs to.
inline uint32_t warp_thread(uint32_t tid, unsigned l) { return tid - tid % kWarpSize + l; }

// wmma fragments (PTX ISA 9.7.14.4.x): the ISA leaves which lane holds which element unspecified.
// gputlm's choice: element e of lane l's fragment (E elements per lane) is element
// (l * E + e) mod (rows * cols) of the matrix in row-major order, or, for an A or B fragment
// loaded .col, in column-major order (wmma.mma's .alayout/.blayout must match the layout its A and
// B were loaded with, so the fragment may depend on it; C and D, which wmma.mma gives no layout,
// are row-major whatever their memory layout). A lane's elements are thus adjacent in memory when
// the matrix is stored densely in its layout. Fragments larger than the matrix (the .f16 A and B
// fragments of 8 registers) hold it replicated.
inline bool column_major_fragment(isa::MatrixPart part, bool col_layout) {
  return col_layout && (part == isa::MatrixPart::A || part == isa::MatrixPart::B);
}
// Position (r, col) of element e of lane l in a matrix of rows x cols walked row-major.
inline void wmma_element(unsigned lane, unsigned e, unsigned per_lane, unsigned rows, unsigned cols,
                         unsigned& r, unsigned& col) {
  const unsigned idx = (lane * per_lane + e) % (rows * cols);
  r = idx / cols;
  col = idx % cols;
}
// Row-major positions in a rows x cols matrix of the fragment order's elements idx, idx + 1, ...
// (the order wraps at the end), the order being row-major or column-major.
class FragmentOrder {
 public:
  FragmentOrder(unsigned idx, unsigned rows, unsigned cols, bool col_major)
      : m_rows(rows), m_cols(cols), m_col_major(col_major) {
    const unsigned minor = col_major ? rows : cols;
    m_major = idx / minor, m_minor = idx % minor;
  }
  unsigned pos() const {
    return m_col_major ? m_minor * m_cols + m_major : m_major * m_cols + m_minor;
  }
  void next() {
    if (++m_minor < (m_col_major ? m_rows : m_cols)) return;
    m_minor = 0;
    if (++m_major == (m_col_major ? m_cols : m_rows)) m_major = 0;
  }

 private:
  unsigned m_rows, m_cols, m_major = 0, m_minor = 0;
  bool m_col_major;
};
// Rows and columns of wmma matrix `part` (A: M x K, B: K x N, C/D: M x N) of the instruction's
// shape.
void wmma_dims(const isa::TensorForm& t, isa::MatrixPart part, unsigned& rows, unsigned& cols);
// The element type of wmma matrix `part` of wmma.mma, and the registers its fragment has
// (PTX ISA 9.7.14.4.1 "Matrix Fragments for WMMA"); 0 if the shape/type pair does not exist.
unsigned wmma_fragment_regs(const isa::TensorForm& t, isa::MatrixPart part, isa::MmaType type);

}  // namespace gputlm::func::sem
