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

namespace gputlm::func::sem {

struct ElemFormat {
  unsigned bits = 0;     // 0: not a fragment type
  unsigned per_reg = 0;  // elements per register
};
ElemFormat elem_format(isa::MmaType t);
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
uint64_t fragment_element(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f, unsigned i);
// Packs `elems` (count = v.vec_n * per_reg) into the registers of `v` of thread `tid`.
void write_fragment(ExecCtx& c, const isa::Operand& v, uint32_t tid, ElemFormat f, const uint64_t* elems);

// D = A x B + C with A: M x K (type ta), B: K x N (tb), C: M x N (tc), D: M x N (td).
// Floats: every product is exact in double, the sum is taken in double and rounded once to the
// accumulator type (the ISA fixes neither the order of the additions nor an intermediate
// precision beyond single; f64 accumulates fma by fma in k order). Integers: exact sum, wrapped
// to 32 bits, or clamped to the s32 range with .satfinite. .b1: D = C + popc(A op B) per
// row/column pair, op = .xor or .and (`bop`).
void multiply_accumulate(const Matrix& a, const Matrix& b, const Matrix& cm, Matrix& d, isa::MmaType ta,
                         isa::MmaType tb, isa::MmaType tc, isa::MmaType td, bool satfinite, isa::AtomOp bop);

// The thread index of logical lane `l` of the warp that `tid` belongs to.
inline uint32_t warp_thread(uint32_t tid, unsigned l) { return tid - tid % kWarpSize + l; }

// wmma fragments (PTX ISA 9.7.14.4.x): the ISA leaves which lane holds which element unspecified.
// gputlm's choice: element e of lane l's fragment (E elements per lane) is element
// (l * E + e) mod (rows * cols) of the matrix in row-major order, whatever the memory layout
// (.row/.col is applied by wmma.load/store). Fragments larger than the matrix (the .f16 A and B
// fragments of 8 registers) hold it replicated.
inline void wmma_element(unsigned lane, unsigned e, unsigned per_lane, unsigned rows, unsigned cols, unsigned& r,
                         unsigned& col) {
  const unsigned idx = (lane * per_lane + e) % (rows * cols);
  r = idx / cols;
  col = idx % cols;
}
// The same positions for e = 0, 1, ... of one lane without a division per element.
class WmmaWalk {
 public:
  WmmaWalk(unsigned lane, unsigned per_lane, unsigned rows, unsigned cols) : m_rows(rows), m_cols(cols) {
    wmma_element(lane, 0, per_lane, rows, cols, m_r, m_c);
  }
  unsigned row() const { return m_r; }
  unsigned col() const { return m_c; }
  void next() {
    if (++m_c < m_cols) return;
    m_c = 0;
    if (++m_r == m_rows) m_r = 0;
  }

 private:
  unsigned m_rows, m_cols, m_r = 0, m_c = 0;
};
// Rows and columns of wmma matrix `part` (A: M x K, B: K x N, C/D: M x N) of the instruction's shape.
void wmma_dims(const isa::TensorForm& t, isa::MatrixPart part, unsigned& rows, unsigned& cols);
// The element type of wmma matrix `part` of wmma.mma, and the registers its fragment has
// (PTX ISA 9.7.14.4.1 "Matrix Fragments for WMMA"); 0 if the shape/type pair does not exist.
unsigned wmma_fragment_regs(const isa::TensorForm& t, isa::MatrixPart part, isa::MmaType type);

}  // namespace gputlm::func::sem
