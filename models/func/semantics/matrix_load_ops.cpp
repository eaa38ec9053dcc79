// Moving matrix fragments (warp collectives):
//  - wmma.load.{a,b,c} / wmma.store.d (PTX ISA 9.7.14.4.1/.2): element (r, c) of the matrix lives
//    at p + (r * stride + c) elements for .row, p + (c * stride + r) for .col; the stride (in
//    elements) defaults to the row length (.row) or the column length (.col). Which lane holds
//    which element is gputlm's choice (tensor_fragments.h, wmma_element).
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

// The space of `addr` (an address of the instruction's space, or generic); a generic shared
// address becomes its offset in the shared block.
Space matrix_space(const ExecCtx& c, const isa::Operand& a, uint64_t& addr) {
  if (c.in->space != Space::Generic) return c.in->space;
  if (a.reg < 0 && a.sym_space == Space::Shared) return Space::Shared;
  if (addr - kSharedWindow >= kWindowSize) return Space::Global;
  addr -= kSharedWindow;
  return Space::Shared;
}
// Where `bytes` bytes at `addr` (an address of the instruction's space, or generic) live; faults
// outside shared memory or the global allocations.
uint8_t* matrix_memory(ExecCtx& c, uint32_t tid, const isa::Operand& a, uint64_t addr,
                       uint32_t bytes, Space& space) {
  space = matrix_space(c, a, addr);
  if (addr % bytes != 0)
    c.fault("misaligned " + std::to_string(bytes) + "-byte matrix access", tid, addr);
  if (space == Space::Shared) {
    uint8_t* p = c.cta->shared_at(addr, bytes);
    if (!p) c.fault(c.cta->shared_miss(addr), tid, addr);
    return p;
  }
  if (space != Space::Global)
    c.fault("matrix access to unsupported state space " + std::string(isa::space_name(space)), tid,
            addr);
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
  // The fragment's element order walks a walk_rows x walk_cols matrix row-major: the matrix, or
  // its transpose for a column-major fragment (tensor_fragments.h). `dense`: that order is the
  // memory layout's, so a walk row is adjacent elements of memory.
  unsigned walk_rows, walk_cols;
  bool dense;
  uint64_t stride;
};
// The fragment's shape (the same in every lane); set_stride gives a lane's stride.
WmmaAccess wmma_access(ExecCtx& c, unsigned vec_op) {
  const isa::TensorForm& t = c.in->tensor;
  WmmaAccess w{};
  w.type = t.types[0];
  w.f = elem_format(w.type);
  wmma_dims(t, t.part, w.rows, w.cols);
  w.per_lane = c.in->ops[vec_op].vec_n * w.f.per_reg;
  const bool transposed = column_major_fragment(t.part, t.a_col);
  w.walk_rows = transposed ? w.cols : w.rows;
  w.walk_cols = transposed ? w.rows : w.cols;
  w.dense = transposed || !t.a_col;
  return w;
}
void set_stride(ExecCtx& c, WmmaAccess& w, unsigned lane, uint32_t tid) {
  w.stride =
      c.in->nops > 2 ? c.raw(c.in->ops[2], lane, tid) : (c.in->tensor.a_col ? w.rows : w.cols);
}
// Elements from the fragment's base to the element at walk position (i, j): .row stores element
// (r, col) at r * stride + col, .col at col * stride + r.
uint64_t element_index(const WmmaAccess& w, unsigned i, unsigned j) {
  return w.dense ? uint64_t{i} * w.stride + j : uint64_t{j} * w.stride + i;
}
// Bit offset from the fragment's base of element e of logical lane l.
uint64_t element_bit(const WmmaAccess& w, unsigned l, unsigned e) {
  unsigned i, j;
  wmma_element(l, e, w.per_lane, w.walk_rows, w.walk_cols, i, j);
  return element_index(w, i, j) * w.f.bits;
}

// Elements elem .. elem + count - 1 of a lane's fragment, adjacent in memory from `offset` bytes
// past the fragment's base: in .row layout, the lane's elements within one matrix row.
struct Run {
  unsigned elem, count;
  uint64_t offset;
};
// The runs of lane `lane`'s fragment (whole-byte types) into `runs` (at most per_lane); `hi` is
// the end of the furthest.
unsigned lane_runs(const WmmaAccess& w, unsigned lane, Run* runs, uint64_t& hi) {
  const uint64_t bytes = w.f.bits / 8;
  const unsigned total = w.walk_rows * w.walk_cols;
  unsigned n = 0, idx = lane * w.per_lane % total;
  hi = 0;
  for (unsigned e = 0; e < w.per_lane; ++n) {
    const unsigned i = idx / w.walk_cols, j = idx % w.walk_cols;
    const unsigned count = w.dense ? std::min(w.per_lane - e, w.walk_cols - j) : 1;
    runs[n] = {e, count, element_index(w, i, j) * bytes};
    hi = std::max(hi, runs[n].offset + count * bytes);
    e += count;
    idx += count;
    if (idx == total) idx = 0;
  }
  return n;
}

// The host memory of a fragment's bytes [base, base + hi), resolved once: in one shared block or
// one global allocation (resolve() is false otherwise: the caller then goes element by element,
// which faults or warns precisely).
struct FragmentMemory {
  Space space = Space::Generic;
  uint8_t* shared = nullptr;  // shared: host memory of the base
  GlobalMemory* global = nullptr;
  uint64_t addr = 0;  // global: the base
};
bool resolve(ExecCtx& c, const isa::Operand& a, uint64_t base, uint64_t hi, uint64_t bytes,
             FragmentMemory& m) {
  if (base % bytes != 0) return false;
  uint64_t addr = base;
  m.space = matrix_space(c, a, addr);
  if (m.space == Space::Shared) {
    m.shared = c.cta->shared_at(addr, hi);
    return m.shared != nullptr;
  }
  m.global = c.launch().memory;
  m.addr = addr;
  return m.space == Space::Global && m.global->find(addr, hi) != nullptr;
}
// Calls move(host pointer, element, count) for each of a lane's runs.
template <class Move>
void move_lane(const FragmentMemory& m, uint64_t bytes, const Run* runs, unsigned n, Move&& move) {
  for (unsigned i = 0; i < n; ++i) {
    const Run& r = runs[i];
    if (m.shared) {
      move(m.shared + r.offset, r.elem, r.count);
      continue;
    }
    // device_ptr's unit is one 64KB page of the simulated memory: a run across two goes by
    // elements.
    const uint64_t at = m.addr + r.offset;
    if ((at ^ (at + r.count * bytes - 1)) >> GlobalMemory::kPageBits == 0) {
      move(m.global->device_ptr(at), r.elem, r.count);
      continue;
    }
    for (unsigned e = 0; e < r.count; ++e)
      move(m.global->device_ptr(at + e * bytes), r.elem + e, 1u);
  }
}
// One lane's fragment on its own: whether all of it lies in one block or allocation (and was
// moved).
template <class Move>
bool move_runs(ExecCtx& c, const isa::Operand& a, uint64_t base, const WmmaAccess& w, unsigned lane,
               Space& space, Move&& move) {
  const uint64_t bytes = w.f.bits / 8;
  Run runs[32];
  uint64_t hi;
  const unsigned n = lane_runs(w, lane, runs, hi);
  FragmentMemory m;
  const bool ok = resolve(c, a, base, hi, bytes, m);
  space = m.space;
  if (ok) move_lane(m, bytes, runs, n, move);
  return ok;
}

// memcpy of `n` bytes with the common element sizes known to the compiler.
void copy_bytes(uint8_t* d, const uint8_t* s, size_t n) {
  switch (n) {
    case 2:
      std::memcpy(d, s, 2);
      break;
    case 4:
      std::memcpy(d, s, 4);
      break;
    case 8:
      std::memcpy(d, s, 8);
      break;
    case 16:
      std::memcpy(d, s, 16);
      break;
    case 32:
      std::memcpy(d, s, 32);
      break;
    default:
      std::memcpy(d, s, n);
      break;
  }
}

// A fragment's registers as bytes, element 0 first (the registers' little-endian packing).
unsigned reg_bytes(const WmmaAccess& w) { return w.f.per_reg * w.f.bits / 8; }
// The register holding the `rb` (4 or 8) bytes at p.
uint64_t register_word(const uint8_t* p, unsigned rb) {
  if (rb == 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    return word;
  }
  uint32_t word;
  std::memcpy(&word, p, 4);
  return word;
}

// Whether operand `o` has one value in the 32 consecutive threads from tid0.
bool uniform(ExecCtx& c, const isa::Operand& o, uint32_t tid0) {
  if (o.reg < 0) return true;
  const uint64_t* r = &c.reg(o.reg, tid0);
  for (unsigned l = 1; l < kWarpSize; ++l)
    if (r[l] != r[0]) return false;
  return true;
}

// A whole warp of consecutive threads that give one address and stride, as wmma code does: the
// memory is resolved once for the whole matrix, and each register written across the lanes.
// False (nothing done) when that does not hold or the matrix is not in one block or allocation.
bool wmma_load_warp(ExecCtx& c, WmmaAccess& w) {
  const isa::Instruction& in = *c.in;
  const uint32_t tid0 = c.group.base_tid;
  if (w.f.bits < 8 || c.mask != kFullMask || c.group.tids || !uniform(c, in.ops[1], tid0) ||
      (in.nops > 2 && !uniform(c, in.ops[2], tid0)))
    return false;
  set_stride(c, w, 0, tid0);
  const uint64_t bytes = w.f.bits / 8, base = base_address(c, in.ops[1], tid0);
  FragmentMemory m;
  if (!resolve(c, in.ops[1], base, (element_index(w, w.walk_rows - 1, w.walk_cols - 1) + 1) * bytes,
               bytes, m))
    return false;
  const isa::Operand& v = in.ops[0];
  const unsigned rb = reg_bytes(w);
  // A warp's matrix spans up to 32 rows, often each a host cache miss: its lines are all asked for
  // before the first is copied, so that the misses overlap.
  Run runs[kWarpSize][32];
  unsigned nruns[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    uint64_t hi;
    nruns[l] = lane_runs(w, l, runs[l], hi);
    move_lane(m, bytes, runs[l], nruns[l], [&](const uint8_t* p, unsigned, unsigned count) {
      __builtin_prefetch(p);
      __builtin_prefetch(p + count * bytes - 1);
    });
  }
  uint8_t frag[kWarpSize][32 * 8];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    move_lane(m, bytes, runs[l], nruns[l], [&](const uint8_t* p, unsigned e, unsigned count) {
      copy_bytes(frag[l] + e * bytes, p, count * bytes);
    });
    record(c, l, m.space, base, w.per_lane * w.f.bits / 8);
  }
  for (unsigned j = 0; j < v.vec_n; ++j) {
    if (v.vec[j] < 0) continue;
    uint64_t* regs = &c.reg(v.vec[j], tid0);
    for (unsigned l = 0; l < kWarpSize; ++l) regs[l] = register_word(frag[l] + j * rb, rb);
  }
  return true;
}

void wmma_load(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  WmmaAccess w = wmma_access(c, 0);
  if (wmma_load_warp(c, w)) return;
  const uint32_t bytes = w.f.bits >= 8 ? w.f.bits / 8 : 1;
  const isa::Operand& v = in.ops[0];
  lanes(c, [&](unsigned lane, uint32_t tid) {
    set_stride(c, w, lane, tid);
    const uint64_t base = base_address(c, in.ops[1], tid);
    Space space = Space::Generic;
    uint8_t frag[32 * 8];
    auto gather = [&](const uint8_t* p, unsigned e, unsigned count) {
      copy_bytes(frag + e * bytes, p, count * bytes);
    };
    if (w.f.bits >= 8 && move_runs(c, in.ops[1], base, w, tid % kWarpSize, space, gather)) {
      const unsigned rb = reg_bytes(w);
      for (unsigned j = 0; j < v.vec_n; ++j)
        if (v.vec[j] >= 0) c.reg(v.vec[j], tid) = register_word(frag + j * rb, rb);
      record(c, lane, space, base, w.per_lane * w.f.bits / 8);
      return;
    }
    uint64_t elems[32] = {};
    for (unsigned e = 0; e < w.per_lane; ++e) {
      const uint64_t bit = element_bit(w, tid % kWarpSize, e);
      const uint8_t* p = matrix_memory(c, tid, in.ops[1], base + bit / 8, bytes, space);
      uint64_t x = 0;
      std::memcpy(&x, p, bytes);
      elems[e] = w.f.bits >= 8 ? x : (x >> (bit % 8)) & ((1u << w.f.bits) - 1);
    }
    record(c, lane, space, base, w.per_lane * w.f.bits / 8);
    write_fragment(c, v, tid, w.f, elems);
  });
}

void wmma_store(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  WmmaAccess w = wmma_access(c, 1);
  const uint32_t bytes = w.f.bits / 8;
  const isa::Operand& v = in.ops[1];
  lanes(c, [&](unsigned lane, uint32_t tid) {
    set_stride(c, w, lane, tid);
    const uint64_t base = base_address(c, in.ops[0], tid);
    Space space = Space::Generic;
    uint8_t frag[32 * 8];
    const unsigned rb = reg_bytes(w);
    for (unsigned j = 0; j < v.vec_n; ++j) {
      const uint64_t word = v.vec[j] >= 0 ? c.reg(v.vec[j], tid) : 0;
      copy_bytes(frag + j * rb, reinterpret_cast<const uint8_t*>(&word), rb);
    }
    auto scatter = [&](uint8_t* p, unsigned e, unsigned count) {
      copy_bytes(p, frag + e * bytes, count * bytes);
    };
    if (!move_runs(c, in.ops[0], base, w, tid % kWarpSize, space, scatter))
      for (unsigned e = 0; e < w.per_lane; ++e) {
        const uint64_t bit = element_bit(w, tid % kWarpSize, e);
        std::memcpy(matrix_memory(c, tid, in.ops[0], base + bit / 8, bytes, space),
                    frag + e * bytes, bytes);
      }
    record(c, lane, space, base, w.per_lane * w.f.bits / 8);
  });
}

// wmma.load.{a,b,c} and wmma.store.d: the fragment types and shapes of PTX ISA 9.7.14.4.1.
ExecFn bind_wmma_memory(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  const bool store = t.part == isa::MatrixPart::D;
  const unsigned vec_op = store ? 1 : 0;
  if (in.nops < 2 || t.ntypes != 1 || t.nlayouts != 1 || !in.has(isa::kSync) ||
      !in.has(isa::kAligned))
    return nullptr;
  if (in.space != Space::Generic && in.space != Space::Global && in.space != Space::Shared)
    return nullptr;
  if (in.ops[store ? 0 : 1].kind != isa::OperandKind::Address &&
      in.ops[store ? 0 : 1].kind != isa::OperandKind::Imm)
    return nullptr;
  const unsigned regs = wmma_fragment_regs(t, store ? isa::MatrixPart::C : t.part, t.types[0]);
  if (regs == 0 || in.ops[vec_op].kind != isa::OperandKind::Vector || in.ops[vec_op].vec_n != regs)
    return nullptr;
  if (store) return wmma_store;
  return t.part == isa::MatrixPart::None ? nullptr : ExecFn(wmma_load);
}

// ---- ldmatrix / stmatrix / movmatrix: 8x8 .b16 matrices ----
// Element (r, col) of an 8x8 .b16 fragment: lane r * 4 + col / 2, half col % 2.
uint16_t fragment_half(const uint32_t* words, unsigned r, unsigned col) {
  return static_cast<uint16_t>(words[r * 4 + col / 2] >> (16 * (col % 2)));
}
int32_t vector_reg(const isa::Operand& o, unsigned i) {
  return o.kind == isa::OperandKind::Reg ? o.reg : o.vec[i];
}

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
      if (const int32_t reg = vector_reg(in.ops[0], i); reg >= 0)
        c.reg(reg, tid) = lo | uint32_t{hi} << 16;
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
      for (unsigned col = 0; col < 8; ++col)
        row[col] = in.tensor.trans ? fragment_half(words, col, r) : fragment_half(words, r, col);
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
    c.reg(c.in->ops[0].reg, tid) =
        fragment_half(words, c0, r) | uint32_t{fragment_half(words, c0 + 1, r)} << 16;
  });
}

bool b16_form(const isa::Instruction& in) {
  const isa::TensorForm& t = in.tensor;
  return t.ntypes == 1 && t.types[0] == MmaType::B16 && t.m == 8 && t.n == 8 && t.k == 0 &&
         in.has(isa::kSync) && in.has(isa::kAligned);
}
// The register operand of ldmatrix/stmatrix: {r0..r(count-1)} (a lone register for .x1).
bool fragment_regs(const isa::Operand& o, unsigned count) {
  return (o.kind == isa::OperandKind::Vector && o.vec_n == count) ||
         (o.kind == isa::OperandKind::Reg && count == 1);
}

}  // namespace

ExecFn bind_matrix_memory(const isa::Instruction& in) {
  const unsigned n = in.tensor.count;
  const bool space_ok = in.space == Space::Shared || in.space == Space::Generic;
  switch (in.op) {
    case isa::Opcode::Wmma:
      return bind_wmma_memory(in);
    case isa::Opcode::Ldmatrix:
      return b16_form(in) && space_ok && n != 0 && fragment_regs(in.ops[0], n) &&
                     in.ops[1].kind == isa::OperandKind::Address
                 ? ExecFn(ldmatrix)
                 : nullptr;
    case isa::Opcode::Stmatrix:
      return b16_form(in) && space_ok && n != 0 && fragment_regs(in.ops[1], n) &&
                     in.ops[0].kind == isa::OperandKind::Address
                 ? ExecFn(stmatrix)
                 : nullptr;
    case isa::Opcode::Movmatrix:
      return b16_form(in) && in.tensor.trans && in.ops[0].kind == isa::OperandKind::Reg &&
                     in.ops[1].kind == isa::OperandKind::Reg
                 ? ExecFn(movmatrix)
                 : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
