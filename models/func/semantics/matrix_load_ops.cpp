// Moving matrix fragments (warp collectives):
//  - wmma.load.{a,b,c} / wmma.store.d (PTX ISA 9.7.14.4.1/.2): element (r, c) of the matrix lives
//    at p + (r * stride + c) elements for .row, p + (c * stride + r) for .col; the stride (in
//    elements) defaults to the row length (.row) or the column length (.col). Which lane holds which
//    element is gputlm's choice (tensor_fragments.h, wmma_element).
//  - ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 (PTX ISA 9.7.9.x "ldmatrix"):
//    threads 8i..8i+7 give the addresses of rows 0..7 of matrix i (16 bytes each); thread l
//    receives in register i row l/4, columns 2(l%4) and 2(l%4)+1 of matrix i (.trans: of its
//    transpose), the lower column in the low half.
//  - stmatrix (sm_90; PTX ISA "stmatrix"): the inverse of ldmatrix.
//  - movmatrix.sync.aligned.m8n8.trans.b16 (PTX ISA "movmatrix"): the same fragment layout, the
//    matrix transposed in registers.
// A thread that supplies a row address but is not executing is read as it stands (as in shfl).
#include <algorithm>
#include <cstring>

#include "models/func/semantics/semantics.h"
#include "models/func/semantics/tensor_fragments.h"

namespace gputlm::func::sem {
namespace {

using isa::MmaType;
using isa::Space;

// Where `bytes` bytes at `addr` (an address of the instruction's space, or generic) live; faults
// outside shared memory or the global allocations.
// The space of `addr` (an address of the instruction's space, or generic); a generic shared
// address becomes its offset in the shared block.
Space matrix_space(const ExecCtx& c, const isa::Operand& a, uint64_t& addr) {
  if (c.in->space != Space::Generic) return c.in->space;
  if (a.reg < 0 && a.sym_space == Space::Shared) return Space::Shared;
  if (addr - kSharedWindow >= kWindowSize) return Space::Global;
  addr -= kSharedWindow;
  return Space::Shared;
}
uint8_t* matrix_memory(ExecCtx& c, uint32_t tid, const isa::Operand& a, uint64_t addr, uint32_t bytes, Space& space) {
  space = matrix_space(c, a, addr);
  if (addr % bytes != 0) c.fault("misaligned " + std::to_string(bytes) + "-byte matrix access", tid, addr);
  if (space == Space::Shared) {
    uint8_t* p = c.cta->shared_at(addr, bytes);
    if (!p) c.fault(c.cta->shared_miss(addr), tid, addr);
    return p;
  }
  if (space != Space::Global) c.fault("matrix access to unsupported state space " + std::string(isa::space_name(space)), tid, addr);
  GlobalMemory& mem = *c.launch().memory;
  c.check_global(addr, bytes, tid, "global address");
  return mem.device_ptr(addr);
}
uint64_t base_address(ExecCtx& c, const isa::Operand& a, uint32_t tid) {
  return (a.reg >= 0 ? c.reg(a.reg, tid) : 0) + static_cast<uint64_t>(a.imm);
}
void record(ExecCtx& c, unsigned lane, Space space, uint64_t addr, uint32_t bytes) {
  ExecResult& r = *c.result;
  r.space = space;
  r.access_bytes = bytes;
  r.accessed |= LaneMask{1} << lane;
  r.addr[lane] = addr;
}

// ---- wmma.load / wmma.store ----
struct WmmaAccess {
  MmaType type;
  ElemFormat f;
  unsigned rows, cols, per_lane;
  uint64_t stride;
};
WmmaAccess wmma_access(ExecCtx& c, unsigned vec_op, unsigned lane, uint32_t tid) {
  const isa::TensorForm& t = c.in->tensor;
  WmmaAccess w{};
  w.type = t.types[0];
  w.f = elem_format(w.type);
  wmma_dims(t, t.part, w.rows, w.cols);
  w.per_lane = c.in->ops[vec_op].vec_n * w.f.per_reg;
  w.stride = c.in->nops > 2 ? c.raw(c.in->ops[2], lane, tid) : (t.a_col ? w.rows : w.cols);
  return w;
}
// Elements from the fragment's base to element (r, col) of the matrix (.row or .col layout).
uint64_t element_index(const isa::TensorForm& t, const WmmaAccess& w, unsigned r, unsigned col) {
  return t.a_col ? uint64_t{col} * w.stride + r : uint64_t{r} * w.stride + col;
}
// Bit offset from the fragment's base of element e of logical lane l.
uint64_t element_bit(const isa::TensorForm& t, const WmmaAccess& w, unsigned l, unsigned e) {
  unsigned r, col;
  wmma_element(l, e, w.per_lane, w.rows, w.cols, r, col);
  return element_index(t, w, r, col) * w.f.bits;
}

// The byte offsets from the fragment's base of a lane's elements (whole-byte types), and the
// host memory holding all of them, when every one lies in one shared block or global allocation
// (nullptr otherwise: the caller goes element by element, which faults or warns precisely).
const uint8_t* lane_block(ExecCtx& c, uint32_t tid, const isa::Operand& a, uint64_t base, const WmmaAccess& w,
                          unsigned lane, uint64_t* offsets, Space& space) {
  const isa::TensorForm& t = c.in->tensor;
  const uint64_t bytes = w.f.bits / 8;
  uint64_t hi = 0;
  WmmaWalk at(lane, w.per_lane, w.rows, w.cols);
  for (unsigned e = 0; e < w.per_lane; ++e, at.next()) {
    offsets[e] = element_index(t, w, at.row(), at.col()) * bytes;
    hi = std::max(hi, offsets[e] + bytes);
  }
  if (base % bytes != 0) return nullptr;
  uint64_t addr = base;
  space = matrix_space(c, a, addr);
  if (space == Space::Shared) return c.cta->shared_at(addr, hi);
  // Global: one allocation, and one 64KB page of the simulated memory (device_ptr's unit).
  GlobalMemory& mem = *c.launch().memory;
  if (space != Space::Global || (addr ^ (addr + hi - 1)) >> GlobalMemory::kPageBits != 0 || !mem.find(addr, hi))
    return nullptr;
  return mem.device_ptr(addr);
}

void wmma_load(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const WmmaAccess w = wmma_access(c, 0, lane, tid);
    const uint64_t base = base_address(c, in.ops[1], tid);
    const uint32_t bytes = w.f.bits >= 8 ? w.f.bits / 8 : 1;
    Space space = Space::Generic;
    uint64_t elems[32] = {};
    uint64_t offsets[32];
    if (const uint8_t* p = w.f.bits >= 8 ? lane_block(c, tid, in.ops[1], base, w, tid % kWarpSize, offsets, space) : nullptr) {
      for (unsigned e = 0; e < w.per_lane; ++e) std::memcpy(&elems[e], p + offsets[e], bytes);
      record(c, lane, space, base, w.per_lane * w.f.bits / 8);
      write_fragment(c, in.ops[0], tid, w.f, elems);
      return;
    }
    for (unsigned e = 0; e < w.per_lane; ++e) {
      const uint64_t bit = element_bit(in.tensor, w, tid % kWarpSize, e);
      const uint8_t* p = matrix_memory(c, tid, in.ops[1], base + bit / 8, bytes, space);
      uint64_t v = 0;
      std::memcpy(&v, p, bytes);
      elems[e] = w.f.bits >= 8 ? v : (v >> (bit % 8)) & ((1u << w.f.bits) - 1);
    }
    record(c, lane, space, base, w.per_lane * w.f.bits / 8);
    write_fragment(c, in.ops[0], tid, w.f, elems);
  });
}

void wmma_store(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const WmmaAccess w = wmma_access(c, 1, lane, tid);
    const uint64_t base = base_address(c, in.ops[0], tid);
    Space space = Space::Generic;
    for (unsigned e = 0; e < w.per_lane; ++e) {
      const uint64_t bit = element_bit(in.tensor, w, tid % kWarpSize, e);
      uint8_t* p = matrix_memory(c, tid, in.ops[0], base + bit / 8, w.f.bits / 8, space);
      const uint64_t v = fragment_element(c, in.ops[1], tid, w.f, e);
      std::memcpy(p, &v, w.f.bits / 8);
    }
    record(c, lane, space, base, w.per_lane * w.f.bits / 8);
  });
}

// wmma.load.{a,b,c} and wmma.store.d: the fragment types and shapes of PTX ISA 9.7.14.4.1.
ExecFn bind_wmma_memory(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  const bool store = t.part == isa::MatrixPart::D;
  const unsigned vec_op = store ? 1 : 0;
  if (in.nops < 2 || t.ntypes != 1 || t.nlayouts != 1 || !in.has(isa::kSync) || !in.has(isa::kAligned)) return nullptr;
  if (in.space != Space::Generic && in.space != Space::Global && in.space != Space::Shared) return nullptr;
  if (in.ops[store ? 0 : 1].kind != isa::OperandKind::Address && in.ops[store ? 0 : 1].kind != isa::OperandKind::Imm) return nullptr;
  const unsigned regs = wmma_fragment_regs(t, store ? isa::MatrixPart::C : t.part, t.types[0]);
  if (regs == 0 || in.ops[vec_op].kind != isa::OperandKind::Vector || in.ops[vec_op].vec_n != regs) return nullptr;
  if (store) return wmma_store;
  return t.part == isa::MatrixPart::None ? nullptr : ExecFn(wmma_load);
}

// ---- ldmatrix / stmatrix / movmatrix: 8x8 .b16 matrices ----
// Element (r, col) of an 8x8 .b16 fragment: lane r * 4 + col / 2, half col % 2.
uint16_t fragment_half(const uint32_t* words, unsigned r, unsigned col) {
  return static_cast<uint16_t>(words[r * 4 + col / 2] >> (16 * (col % 2)));
}
int32_t vector_reg(const isa::Operand& o, unsigned i) { return o.kind == isa::OperandKind::Reg ? o.reg : o.vec[i]; }

void ldmatrix(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const unsigned count = in.tensor.count;
  const uint32_t tid0 = c.group.tid(lowest_lane(c.mask));
  uint16_t rows[4][8][8] = {};
  Space space = Space::Generic;
  for (unsigned i = 0; i < count; ++i)
    for (unsigned r = 0; r < 8; ++r) {
      const uint32_t tid = warp_thread(tid0, 8 * i + r);
      if (tid >= c.cta->nthreads) continue;
      const uint64_t addr = base_address(c, in.ops[1], tid);
      std::memcpy(rows[i][r], matrix_memory(c, tid, in.ops[1], addr, 16, space), 16);
    }
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const unsigned l = tid % kWarpSize;
    if (l < 8 * count) record(c, lane, space, base_address(c, in.ops[1], tid), 16);
    const unsigned r = l / 4, c0 = 2 * (l % 4);
    for (unsigned i = 0; i < count; ++i) {
      const uint16_t lo = in.tensor.trans ? rows[i][c0][r] : rows[i][r][c0];
      const uint16_t hi = in.tensor.trans ? rows[i][c0 + 1][r] : rows[i][r][c0 + 1];
      if (const int32_t reg = vector_reg(in.ops[0], i); reg >= 0) c.reg(reg, tid) = lo | uint32_t{hi} << 16;
    }
  });
}

// The 32 lanes' values of register i of operand `op` (a fragment of an 8x8 .b16 matrix).
void gather_fragment(ExecCtx& c, unsigned op, unsigned i, uint32_t tid0, uint32_t* words) {
  const int32_t reg = vector_reg(c.in->ops[op], i);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const uint32_t tid = warp_thread(tid0, l);
    words[l] = reg >= 0 && tid < c.cta->nthreads ? static_cast<uint32_t>(c.reg(reg, tid)) : 0;
  }
}

void stmatrix(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint32_t tid0 = c.group.tid(lowest_lane(c.mask));
  for (unsigned i = 0; i < in.tensor.count; ++i) {
    uint32_t words[kWarpSize];
    gather_fragment(c, 1, i, tid0, words);
    lanes(c, [&](unsigned lane, uint32_t tid) {
      const unsigned l = tid % kWarpSize;
      if (l / 8 != i) return;
      const unsigned r = l % 8;
      uint16_t row[8];
      for (unsigned col = 0; col < 8; ++col) row[col] = in.tensor.trans ? fragment_half(words, col, r) : fragment_half(words, r, col);
      const uint64_t addr = base_address(c, in.ops[0], tid);
      Space space = Space::Generic;
      std::memcpy(matrix_memory(c, tid, in.ops[0], addr, 16, space), row, 16);
      record(c, lane, space, addr, 16);
    });
  }
}

void movmatrix(ExecCtx& c) {
  uint32_t words[kWarpSize];
  gather_fragment(c, 1, 0, c.group.tid(lowest_lane(c.mask)), words);
  lanes(c, [&](unsigned, uint32_t tid) {
    const unsigned l = tid % kWarpSize, r = l / 4, c0 = 2 * (l % 4);
    // Row r of the transpose is column r of the source.
    c.reg(c.in->ops[0].reg, tid) = fragment_half(words, c0, r) | uint32_t{fragment_half(words, c0 + 1, r)} << 16;
  });
}

bool b16_form(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  return t.ntypes == 1 && t.types[0] == MmaType::B16 && t.m == 8 && t.n == 8 && t.k == 0 && in.has(isa::kSync) &&
         in.has(isa::kAligned);
}
// The register operand of ldmatrix/stmatrix: {r0..r(count-1)} (a lone register for .x1).
bool fragment_regs(const isa::Operand& o, unsigned count) {
  return (o.kind == isa::OperandKind::Vector && o.vec_n == count) || (o.kind == isa::OperandKind::Reg && count == 1);
}

}  // namespace

ExecFn bind_matrix_memory(const isa::Instruction& in) {
  const unsigned n = in.tensor.count;
  const bool space_ok = in.space == Space::Shared || in.space == Space::Generic;
  switch (in.op) {
    case isa::Opcode::Wmma: return bind_wmma_memory(in);
    case isa::Opcode::Ldmatrix:
      return b16_form(in) && space_ok && n != 0 && fragment_regs(in.ops[0], n) && in.ops[1].kind == isa::OperandKind::Address ? ExecFn(ldmatrix) : nullptr;
    case isa::Opcode::Stmatrix:
      return b16_form(in) && space_ok && n != 0 && fragment_regs(in.ops[1], n) && in.ops[0].kind == isa::OperandKind::Address ? ExecFn(stmatrix) : nullptr;
    case isa::Opcode::Movmatrix:
      return b16_form(in) && in.tensor.trans && in.ops[0].kind == isa::OperandKind::Reg && in.ops[1].kind == isa::OperandKind::Reg ? ExecFn(movmatrix) : nullptr;
    default: return nullptr;
  }
}

}  // namespace gputlm::func::sem
