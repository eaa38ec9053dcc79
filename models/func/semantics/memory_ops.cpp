// Memory instructions (PTX ISA 9.7.9): ld ldu st (scalar and .v2/.v4) in the global, const,
// shared, local (call frames included), param and generic spaces; atom and red; the dissertation's
// cond.acc. Each lane's address is checked: misaligned (not a multiple of the whole access size) or
// outside its space (global: outside every allocation) is a kernel fault. Atomics of a warp are
// applied lane by lane in lane order.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "models/func/semantics/atomic_apply.h"
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::Space;

// The address an address operand names for one thread.
inline uint64_t address_of(ExecCtx& c, uint32_t tid, const isa::Operand& a) {
  return operand_address(c, tid, a) + (a.frame ? c.cta->frame_of(tid) : 0);
}

// Resolves, checks and records one lane's access at the operand's address plus `offset`; returns
// where its bytes live.
uint8_t* access(ExecCtx& c, unsigned lane, uint32_t tid, const isa::Operand& a, uint32_t bytes,
                uint64_t offset = 0) {
  uint64_t addr = address_of(c, tid, a) + offset;
  Space space = c.in->space;
  if (space == Space::Generic) {
    if (a.reg < 0 && (a.sym_space == Space::Shared || a.sym_space == Space::Local))
      space = a.sym_space;
    else if (a.reg < 0 && a.sym_space == Space::Const)
      space = Space::Const;
    else if (addr - kSharedWindow < kWindowSize)
      space = Space::Shared, addr -= kSharedWindow;
    else if (addr - kLocalWindow < kWindowSize)
      space = Space::Local, addr -= kLocalWindow;
    else if (addr - kParamWindow < kWindowSize)
      space = Space::Param, addr -= kParamWindow;
    else
      space = Space::Global;
  }
  ExecResult& r = *c.result;
  r.space = space;
  r.access_bytes = bytes;
  r.accessed |= LaneMask{1} << lane;
  r.addr[lane] = addr;
  if (addr % bytes != 0)
    c.fault("misaligned " + std::to_string(bytes) + "-byte " + std::string(isa::space_name(space)) +
                " access",
            tid, addr);
  CtaState& cta = *c.cta;
  switch (space) {
    case Space::Const:  // module .const variables live in global memory (module_image.h)
      if (c.in->is_store() || c.in->is_atomic()) c.fault("write to constant space", tid, addr);
      [[fallthrough]];
    case Space::Global: {
      GlobalMemory& mem = *c.launch().memory;
      c.check_global(addr, bytes, tid, space == Space::Const ? "const address" : "global address");
      return mem.device_ptr(addr);
    }
    case Space::Shared:  // the CTA's, or another's of its cluster (.shared::cluster)
      if (uint8_t* p = cta.shared_at(addr, bytes)) return p;
      c.fault(cta.shared_miss(addr), tid, addr);
    case Space::Local:
      if (addr + bytes > c.launch().kernel->local_bytes)
        c.fault("local memory access beyond the thread's " +
                    std::to_string(c.launch().kernel->local_bytes) + " bytes",
                tid, addr);
      return cta.local_of(tid) + addr;
    case Space::Param:
      if (c.in->is_store() || c.in->is_atomic())
        c.fault("write to kernel parameter space", tid, addr);
      if (addr + bytes > c.launch().params.size())
        c.fault("parameter access beyond the kernel's parameters", tid, addr);
      return const_cast<uint8_t*>(c.launch().params.data()) + addr;
    default:
      c.fault("access to unsupported state space " + std::string(isa::space_name(space)), tid,
              addr);
  }
}

// Where a warp's aligned accesses go, settled from bounds lo <= every address <= hi: the space
// (`space`: the instruction's, resolved for generic addresses) and each active lane's pointer in
// p; false when the bounds leave a lane possibly outside the CTA's shared memory, the
// parameters or one allocation (or generic addresses in more than one space).
bool place_warp(ExecCtx& c, Space& space, uint64_t lo, uint64_t hi, uint32_t bytes, bool whole,
                uint8_t** p) {
  std::array<uint64_t, kWarpSize>& addr = c.result->addr;
  auto point = [&](auto at) {  // p[lane] = at(lane) for every active lane
    if (whole) {
      for (unsigned i = 0; i < kWarpSize; ++i) p[i] = at(i);
    } else {
      for_each_lane(c.mask, [&](unsigned lane) { p[lane] = at(lane); });
    }
  };
  Space where = space;
  uint64_t offset = 0;
  if (where == Space::Generic) {
    if (lo - kSharedWindow < kWindowSize && hi - kSharedWindow < kWindowSize)
      where = Space::Shared, offset = kSharedWindow;
    else if (hi < kParamWindow ||
             lo >= kLocalWindow + kWindowSize)  // below and above the windows: global
      where = Space::Global;
    else
      return false;
  }
  if (where == Space::Shared) {
    CtaState& cta = *c.cta;
    if (hi - offset + bytes > cta.shared.size()) return false;
    uint8_t* base = cta.shared.data();
    point([&](unsigned lane) { return base + (addr[lane] -= offset); });
  } else if (where == Space::Param) {
    const std::vector<uint8_t>& params = c.launch().params;
    if (hi + bytes > params.size()) return false;
    uint8_t* base = const_cast<uint8_t*>(params.data());
    point([&](unsigned lane) { return base + addr[lane]; });
  } else {
    GlobalMemory& mem = *c.launch().memory;
    if (!mem.find(lo, hi + bytes - lo)) return false;
    if (lo >> GlobalMemory::kPageBits == (hi + bytes - 1) >> GlobalMemory::kPageBits) {  // one page
      uint8_t* base = mem.device_ptr(lo);
      point([&](unsigned lane) { return base + (addr[lane] - lo); });
    } else {
      point([&](unsigned lane) { return mem.device_ptr(addr[lane]); });
    }
  }
  space = where;
  return true;
}

// Warp form of access(): when every active lane's address is aligned and, in the global (or
// const) space, inside one allocation, or in the shared space inside the CTA's shared memory, or
// within the kernel's parameters (generic addresses: all lanes in global or all in shared),
// p[lane] is where each active lane's bytes live and the accesses are recorded as access()
// records them. Otherwise it returns false having recorded nothing, and the caller goes lane by
// lane (which faults or warns with the lane's detail).
bool access_warp(ExecCtx& c, const isa::Operand& a, uint32_t bytes, uint8_t** p) {
  Space space = c.in->space;
  if (!c.mask || a.frame || (bytes & (bytes - 1)) != 0) return false;
  if (space == Space::Generic && a.reg < 0) {  // a variable's address: its own space (access())
    if (a.sym_space != Space::Shared && a.sym_space != Space::Const) return false;
    space = a.sym_space;
  }
  const bool writes = c.in->is_store() || c.in->is_atomic();
  if ((space == Space::Const || space == Space::Param) && writes) return false;
  if (space != Space::Global && space != Space::Shared && space != Space::Const &&
      space != Space::Param && space != Space::Generic)
    return false;
  std::array<uint64_t, kWarpSize>& addr = c.result->addr;
  const bool whole = full_warp(c);
  bool placed = false;
  if (whole && a.reg >= 0) {  // register + offset, the registers read through one pointer
    const uint64_t* r = &c.reg(a.reg, c.group.base_tid);
    const uint64_t imm = static_cast<uint64_t>(a.imm);
    uint64_t v[kWarpSize], all_and = ~uint64_t{0}, all_or = 0;
    for (unsigned i = 0; i < kWarpSize; ++i) v[i] = r[i] + imm;
    for (unsigned i = 0; i < kWarpSize; ++i) all_and &= v[i], all_or |= v[i];
    std::memcpy(addr.data(), v, sizeof v);
    if (all_or & (bytes - 1)) return false;
    // The bits every address has and the bits any has bound them (no compare chains); when
    // those bounds are too loose, the exact ones.
    placed = place_warp(c, space, all_and, all_or, bytes, whole, p);
    if (!placed) {
      const auto [lo, hi] = std::minmax_element(v, v + kWarpSize);
      placed = place_warp(c, space, *lo, *hi, bytes, whole, p);
    }
  } else {
    uint64_t lo = ~uint64_t{0}, hi = 0, misaligned = 0;
    lanes(c, [&](unsigned lane, uint32_t tid) {
      const uint64_t v = addr[lane] = address_of(c, tid, a);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      misaligned |= v;
    });
    placed = !(misaligned & (bytes - 1)) && place_warp(c, space, lo, hi, bytes, whole, p);
  }
  if (!placed) return false;
  ExecResult& r = *c.result;
  r.space = space;
  r.access_bytes = bytes;
  r.accessed |= c.mask;
  return true;
}

// A `Bytes`-wide element at p, sign-extended for signed types (Bytes fixed at bind time, so the
// copy is one move).
template <unsigned Bytes, bool Signed>
uint64_t load_bits(const uint8_t* p) {
  uint64_t v = 0;
  std::memcpy(&v, p, Bytes);
  if constexpr (Signed && Bytes < 8) {
    constexpr unsigned shift = 64 - 8 * Bytes;
    v = static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
  }
  return v;
}

// Where each active lane's bytes live: the warp's addresses checked at once, or lane by lane.
void lane_pointers(ExecCtx& c, const isa::Operand& a, uint32_t bytes, uint8_t** p) {
  if (!access_warp(c, a, bytes, p))
    lanes(c, [&](unsigned lane, uint32_t tid) { p[lane] = access(c, lane, tid, a, bytes); });
}

template <unsigned Bytes, bool Signed>
void ld(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::Operand& d = in.ops[0];
  uint8_t* p[kWarpSize];
  lane_pointers(c, in.ops[1], Bytes * in.vec, p);
  if (full_warp(c)) {  // destination registers through pointers (register-major)
    const uint32_t base = c.group.base_tid;
    if (d.kind != isa::OperandKind::Vector) {
      uint64_t* r = &c.reg(d.reg, base);
      for (unsigned i = 0; i < kWarpSize; ++i) r[i] = load_bits<Bytes, Signed>(p[i]);
      return;
    }
    for (unsigned k = 0; k < d.vec_n; ++k) {
      if (d.vec[k] < 0) continue;
      uint64_t* r = &c.reg(d.vec[k], base);
      for (unsigned i = 0; i < kWarpSize; ++i) r[i] = load_bits<Bytes, Signed>(p[i] + k * Bytes);
    }
    return;
  }
  lanes(c, [&](unsigned lane, uint32_t tid) {
    if (d.kind == isa::OperandKind::Vector) {
      for (unsigned i = 0; i < d.vec_n; ++i)
        if (d.vec[i] >= 0) c.reg(d.vec[i], tid) = load_bits<Bytes, Signed>(p[lane] + i * Bytes);
    } else {
      c.reg(d.reg, tid) = load_bits<Bytes, Signed>(p[lane]);
    }
  });
}

template <unsigned Bytes>
void st(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::Operand& s = in.ops[1];
  uint8_t* p[kWarpSize];
  lane_pointers(c, in.ops[0], Bytes * in.vec, p);
  if (full_warp(c) && s.kind == isa::OperandKind::Reg && !s.negate) {  // the common st [a], %r
    const uint64_t* r = &c.reg(s.reg, c.group.base_tid);
    for (unsigned i = 0; i < kWarpSize; ++i) std::memcpy(p[i], &r[i], Bytes);
    return;
  }
  if (full_warp(c) && s.kind == isa::OperandKind::Vector) {
    const uint64_t zero[kWarpSize] = {};
    for (unsigned k = 0; k < s.vec_n; ++k) {
      const uint64_t* r = s.vec[k] >= 0 ? &c.reg(s.vec[k], c.group.base_tid) : zero;
      for (unsigned i = 0; i < kWarpSize; ++i) std::memcpy(p[i] + k * Bytes, &r[i], Bytes);
    }
    return;
  }
  lanes(c, [&](unsigned lane, uint32_t tid) {
    if (s.kind == isa::OperandKind::Vector) {
      for (unsigned i = 0; i < s.vec_n; ++i) {
        const uint64_t v = s.vec[i] >= 0 ? c.reg(s.vec[i], tid) : 0;
        std::memcpy(p[lane] + i * Bytes, &v, Bytes);
      }
    } else {
      const uint64_t v = c.raw(s, lane, tid);
      std::memcpy(p[lane], &v, Bytes);
    }
  });
}

// ld/ldu and st of 1, 2, 4 or 8-byte elements (nullptr for any other width).
ExecFn bind_ld(const isa::Instruction& in) {
  const bool sig = isa::dtype_is_signed(in.type);
  switch (isa::dtype_bytes(in.type)) {
    case 1:
      return sig ? ExecFn(ld<1, true>) : ExecFn(ld<1, false>);
    case 2:
      return sig ? ExecFn(ld<2, true>) : ExecFn(ld<2, false>);
    case 4:
      return sig ? ExecFn(ld<4, true>) : ExecFn(ld<4, false>);
    case 8:
      return ExecFn(ld<8, false>);
    default:
      return nullptr;
  }
}
ExecFn bind_st(const isa::Instruction& in) {
  switch (isa::dtype_bytes(in.type)) {
    case 1:
      return st<1>;
    case 2:
      return st<2>;
    case 4:
      return st<4>;
    case 8:
      return st<8>;
    default:
      return nullptr;
  }
}

// cond.acc d, [base], p, src (dissertation section 7.1, COND_ACC): the lanes whose predicate p
// holds write their src contiguously from base, in lane order (the hardware's exclusive prefix sum
// of the predicates, scaled by the element size, is each lane's offset); every active lane gets
// the count in d. The base is the warp's one pointer: lanes that disagree are a kernel fault.
void cond_acc(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const unsigned elem = isa::dtype_bytes(in.type);
  bool first = true;
  uint64_t base = 0, count = 0;
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t b = address_of(c, tid, in.ops[1]);
    if (!first && b != base)
      c.fault("cond.acc: the base address differs between the warp's threads (" +
                  std::to_string(base) + " and " + std::to_string(b) + ")",
              tid, b);
    base = b;
    first = false;
  });
  lanes(c, [&](unsigned lane, uint32_t tid) {
    if (!(c.raw(in.ops[2], lane, tid) & 1)) return;
    const uint64_t v = c.raw(in.ops[3], lane, tid);
    std::memcpy(access(c, lane, tid, in.ops[1], elem, count * elem), &v, elem);
    ++count;
  });
  lanes(c, [&](unsigned, uint32_t tid) { c.reg(in.ops[0].reg, tid) = count; });
}

// atom d, [a], b{, c} / red [a], b: read-modify-write, lane by lane.
template <class T>
ExecFn atom_fn() {
  return [](ExecCtx& c) {
    const isa::Instruction& in = *c.in;
    const bool red = in.op == isa::Opcode::Red;
    const unsigned addr_op = red ? 0 : 1;
    lanes(c, [&](unsigned lane, uint32_t tid) {
      uint8_t* p = access(c, lane, tid, in.ops[addr_op], sizeof(T));
      T old;
      std::memcpy(&old, p, sizeof(T));
      const T b = src<T>(c, addr_op + 1, lane, tid);
      const T cv = in.atom == isa::AtomOp::Cas ? src<T>(c, addr_op + 2, lane, tid) : T(0);
      const T nv = atomic_apply<T>(in.atom, old, b, cv);
      std::memcpy(p, &nv, sizeof(T));
      if (!red) dst<T>(c, lane, tid, old);
    });
  };
}

// atom/red.add.noftz on .f16 .f16x2 .bf16 .bf16x2 (U: 16 or 32 bits); half_ops.cpp adds.
template <class U>
void half_atom_add(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const unsigned addr_op = in.op == isa::Opcode::Red ? 0 : 1;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    uint8_t* p = access(c, lane, tid, in.ops[addr_op], sizeof(U));
    U old;
    std::memcpy(&old, p, sizeof(U));
    const U nv = static_cast<U>(half_atomic_add(
        in.type, old, static_cast<uint32_t>(c.raw(in.ops[addr_op + 1], lane, tid))));
    std::memcpy(p, &nv, sizeof(U));
    if (addr_op == 1) c.reg(in.ops[0].reg, tid) = old;
  });
}

}  // namespace

ExecFn bind_memory(const isa::Instruction& in) {
  using isa::Opcode;
  if ((in.op == Opcode::St || in.op == Opcode::Red) && in.async.complete_tx)
    return bind_remote_async(in);
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::Ldu:
      return in.type == isa::DType::Pred ? nullptr : bind_ld(in);
    case Opcode::St:
      return in.type == isa::DType::Pred ? nullptr : bind_st(in);
    case Opcode::Prefetch:
    case Opcode::Prefetchu:
    case Opcode::Applypriority:
    case Opcode::Discard:
      // Cache hints (PTX ISA, Data Movement and Conversion Instructions: prefetch, prefetchu,
      // applypriority, discard): no architectural effect. discard.global.L2 leaves the line's
      // contents undefined; keeping them is one of the allowed outcomes.
      return [](ExecCtx&) {};
    case Opcode::CondAcc:
      return isa::dtype_bytes(in.type) == 0 || in.type == isa::DType::Pred ? nullptr
                                                                           : ExecFn(cond_acc);
    case Opcode::Atom:
    case Opcode::Red:
      if (in.space == Space::Local || in.space == Space::Param || in.space == Space::Const)
        return nullptr;
      if (is_half_type(in.type)) {
        if (in.atom != isa::AtomOp::Add || !in.has(isa::kNoftz))
          return nullptr;  // atom.add.noftz only
        return isa::dtype_bits(in.type) == 16 ? ExecFn(half_atom_add<uint16_t>)
                                              : ExecFn(half_atom_add<uint32_t>);
      }
      if (in.type == isa::DType::F32) return atom_fn<float>();
      if (in.type == isa::DType::F64) return atom_fn<double>();
      // atom.cas.b16 (PTX ISA 9.7.13.5, sm_70+: what CUDA's 16-bit atomicCAS and bf16 atomicAdd
      // emit).
      if (isa::dtype_bits(in.type) == 16 && in.atom == isa::AtomOp::Cas && in.op == Opcode::Atom)
        return atom_fn<uint16_t>();
      if (isa::dtype_bits(in.type) < 32) return nullptr;
      { GPUTLM_DISPATCH_INT(in.type, atom_fn) }
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
