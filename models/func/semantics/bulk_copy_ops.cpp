// cp.async.bulk (PTX ISA 9.7.9.25.4, sm_90; the forms without .multicast::cluster, which is
// sm_90a, and without .ignore_oob or .cp_mask, which later PTX versions add):
//
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.L2::cache_hint} [dst], [src], size, [mbar]{, policy}
//   cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes{.L2::cache_hint}     [dst], [src], size, [mbar]{, policy}
//   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes             [dst], [src], size, [mbar]
//   cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}                       [dst], [src], size{, policy}
//   cp.async.bulk.commit_group;  cp.async.bulk.wait_group{.read} N;
//   cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [src], size{, policy}
//
// Each active thread copies `size` bytes (a multiple of 16; both addresses 16-byte aligned, as
// the ISA requires: anything else is a kernel fault here). Shared addresses are .shared::cta
// offsets, and .shared::cluster ones may name another CTA of the cluster (cluster_state.h). The
// .mbarrier::complete_tx::bytes forms perform complete-tx of `size` on the mbarrier object once
// the data has landed.
//
// When: as for cp.async (async_copy_ops.cpp) the functional engine copies when the instruction
// executes, so the complete-tx happens then too, every bulk group is complete when committed
// and wait_group has nothing left to wait for. The timing model sends the copy's global lines
// through the L1 (reads for a copy from global, writes for one to global) without the warp
// waiting for them, and a copy from global memory completes its mbarrier transaction when its
// last line has returned (CtaState::defer_tx; memory_stage.cpp): the data is in shared memory
// from the start, but a thread waiting on the mbarrier waits for the copy's time. (A second lane
// of the same warp instruction copying with complete-tx completes at once.) prefetch.L2 is a hint: its lines go to the memory system when they are inside an
// allocation, and nothing else happens.
//
// cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2) combines instead of copying: each element of the
// destination becomes redOp(destination, source), the operations and rounding of atom/red
// (atomic_apply.h; f16/bf16 add.noftz as red.add.noftz, f16/bf16 min/max as min/max without .NaN):
//
//   cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type [dst], [src], size, [mbar]
//     (.b32 .u32 .s32 .b64 .u64)
//   cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp{.noftz}.type [dst], [src], size{, policy}
//     (add: .u32 .s32 .u64 .f32 .f64, .noftz .f16 .bf16; min/max: .u32 .s32 .u64 .s64 .f16 .bf16;
//      inc/dec: .u32; and/or/xor: .b32 .b64)
//
// timed as a copy of the same direction (global: its lines written through the L1).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "models/func/semantics/atomic_apply.h"
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/small_float.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::AsyncOp;
using isa::Space;

// The shared bytes at `addr` .. addr + size (the CTA's, or another's of its cluster), or a fault
// naming which operand overran.
uint8_t* shared_range(ExecCtx& c, uint32_t tid, uint64_t addr, uint64_t size, const char* which) {
  uint8_t* p = c.cta->shared_at(addr, size);
  if (!p) c.fault(std::string("cp.async.bulk: shared ") + which + " of " + std::to_string(size) + " bytes: " + c.cta->shared_miss(addr), tid, addr);
  return p;
}

// A lane's [dst], [src], size of a bulk copy or reduction (`what`), checked as the ISA requires:
// size a multiple of 16, both addresses 16-byte aligned.
struct BulkOperands {
  uint64_t dst, src, size;
};
BulkOperands bulk_operands(ExecCtx& c, unsigned lane, uint32_t tid, const char* what) {
  const isa::Instruction& in = *c.in;
  const BulkOperands b{operand_address(c, tid, in.ops[0]), operand_address(c, tid, in.ops[1]), c.raw(in.ops[2], lane, tid) & 0xffffffffu};
  if (b.size % 16 != 0) c.fault(std::string(what) + ": size " + std::to_string(b.size) + " is not a multiple of 16", tid, 0, false);
  if (b.dst % 16 != 0) c.fault(std::string(what) + ": destination not 16-byte aligned", tid, b.dst);
  if (b.src % 16 != 0) c.fault(std::string(what) + ": source not 16-byte aligned", tid, b.src);
  return b;
}

void bulk_copy(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const isa::AsyncForm& a = in.async;
  ExecResult& r = *c.result;
  uint64_t most = 0;  // the largest copy: the bytes per lane the memory system sees
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const auto [dst, src, size] = bulk_operands(c, lane, tid, "cp.async.bulk");
    GlobalMemory& mem = *c.launch().memory;
    if (a.bulk_src == Space::Global) {  // global -> shared
      uint8_t* d = shared_range(c, tid, dst, size, "destination");
      c.check_global(src, size, tid, "cp.async.bulk: global source");
      mem.read(src, d, size);
    } else if (a.bulk_dst == Space::Global) {  // shared -> global
      const uint8_t* s = shared_range(c, tid, src, size, "source");
      c.check_global(dst, size, tid, "cp.async.bulk: global destination");
      mem.write(dst, s, size);
    } else {  // shared -> shared (the CTA's own: no clusters)
      uint8_t* d = shared_range(c, tid, dst, size, "destination");
      std::memmove(d, shared_range(c, tid, src, size, "source"), size);
    }
    // What the memory system sees (recorded after the mbarrier's own record): the global side.
    const bool global = a.bulk_src == Space::Global || a.bulk_dst == Space::Global;
    if (a.complete_tx) {  // deferred for the timing model when the data comes from global memory (one lane a warp)
      const bool later = c.cta->defer_tx && global && size > 0 && r.tx_mbar < 0;
      mbarrier_complete_tx(c, lane, tid, in.ops[3], static_cast<uint32_t>(size), !later);
    }
    r.space = global ? Space::Global : Space::Shared;
    r.accessed |= LaneMask{1} << lane;
    r.addr[lane] = a.bulk_dst == Space::Global ? dst : (global ? src : dst);
    most = std::max(most, size);
  });
  r.access_bytes = static_cast<uint32_t>(most);
}

// prefetch.L2: a hint with no architectural effect; lines inside an allocation are recorded for
// the timing model.
void bulk_prefetch(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  ExecResult& r = *c.result;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t src = operand_address(c, tid, in.ops[0]);
    const uint64_t size = c.raw(in.ops[1], lane, tid) & 0xffffffffu;
    if (size == 0 || !c.launch().memory->find(src, size)) return;
    r.space = Space::Global;
    r.access_bytes = std::max(r.access_bytes, static_cast<uint32_t>(size));
    r.accessed |= LaneMask{1} << lane;
    r.addr[lane] = src;
  });
}

// The element-wise reduction of `bytes` of source s into destination d (one per type).
using ReduceFn = void (*)(uint8_t* d, const uint8_t* s, uint64_t bytes, const isa::Instruction& in);

template <class T>
void reduce_elements(uint8_t* d, const uint8_t* s, uint64_t bytes, const isa::Instruction& in) {
  for (uint64_t i = 0; i < bytes; i += sizeof(T)) {
    T old, b;
    std::memcpy(&old, d + i, sizeof(T));
    std::memcpy(&b, s + i, sizeof(T));
    const T nv = atomic_apply<T>(in.atom, old, b, T(0));
    std::memcpy(d + i, &nv, sizeof(T));
  }
}

// f16/bf16: add.noftz rounds as red.add.noftz; min/max keep the smaller (larger) operand, a NaN
// giving the other one.
void reduce_halves(uint8_t* d, const uint8_t* s, uint64_t bytes, const isa::Instruction& in) {
  const bool bf = in.type == isa::DType::BF16;
  for (uint64_t i = 0; i < bytes; i += 2) {
    uint16_t old, b;
    std::memcpy(&old, d + i, 2);
    std::memcpy(&b, s + i, 2);
    uint16_t nv;
    if (in.atom == isa::AtomOp::Add) {
      nv = static_cast<uint16_t>(half_atomic_add(in.type, old, b));
    } else {
      const double x = bf ? from_bf16(old) : from_f16(old), y = bf ? from_bf16(b) : from_f16(b);
      if (x != x) nv = b;
      else if (y != y) nv = old;
      else nv = (in.atom == isa::AtomOp::Min ? y < x : y > x) ? b : old;
    }
    std::memcpy(d + i, &nv, 2);
  }
}

// cp.reduce.async.bulk: as bulk_copy (the checks, what the memory system sees, the mbarrier's
// complete-tx for a shared destination: at once, the source being shared memory).
template <ReduceFn F>
void bulk_reduce(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  ExecResult& r = *c.result;
  const bool to_global = in.async.bulk_dst == Space::Global;
  uint64_t most = 0;
  std::vector<uint8_t> buffer;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const auto [dst, src, size] = bulk_operands(c, lane, tid, "cp.reduce.async.bulk");
    const uint8_t* s = shared_range(c, tid, src, size, "source");
    if (to_global) {
      GlobalMemory& mem = *c.launch().memory;
      c.check_global(dst, size, tid, "cp.reduce.async.bulk: global destination");
      buffer.resize(size);
      mem.read(dst, buffer.data(), size);
      F(buffer.data(), s, size, in);
      mem.write(dst, buffer.data(), size);
    } else {
      F(shared_range(c, tid, dst, size, "destination"), s, size, in);
      mbarrier_complete_tx(c, lane, tid, in.ops[3], static_cast<uint32_t>(size));
    }
    r.space = to_global ? Space::Global : Space::Shared;
    r.accessed |= LaneMask{1} << lane;
    r.addr[lane] = dst;
    most = std::max(most, size);
  });
  r.access_bytes = static_cast<uint32_t>(most);
}

void nothing_pending(ExecCtx&) {}

bool is_address(const isa::Instruction& in, unsigned i) { return in.nops > i && in.ops[i].kind == isa::OperandKind::Address; }
bool is_value(const isa::Instruction& in, unsigned i) {
  return in.nops > i && (in.ops[i].kind == isa::OperandKind::Reg || in.ops[i].kind == isa::OperandKind::Imm);
}

bool valid_copy(const isa::Instruction& in) {
  const isa::AsyncForm& a = in.async;
  const bool hint = in.has(isa::kCacheHint);
  if (!is_address(in, 0) || !is_address(in, 1) || !is_value(in, 2)) return false;
  if (a.bulk_dst == Space::Shared && a.complete_tx && !a.bulk_group) {  // into shared memory, mbarrier completion
    if (a.bulk_src == Space::Shared && hint) return false;
    return (a.bulk_src == Space::Global || a.bulk_src == Space::Shared) && is_address(in, 3) && in.nops == 4u + (hint ? 1 : 0);
  }
  return a.bulk_dst == Space::Global && a.bulk_src == Space::Shared && a.bulk_group && !a.complete_tx &&
         in.nops == 3u + (hint ? 1 : 0);
}

// The reduction and type pairs of the ISA (see the top of this file), or null.
ExecFn bind_reduce(const isa::Instruction& in) {
  using isa::AtomOp;
  using isa::DType;
  const isa::AsyncForm& a = in.async;
  const DType t = in.type;
  const bool hint = in.has(isa::kCacheHint);
  if (a.bulk_src != Space::Shared) return nullptr;
  if (a.bulk_dst == Space::Shared) {  // into a cluster's shared memory
    const bool b32 = t == DType::B32 || t == DType::U32 || t == DType::S32, b64 = t == DType::B64 || t == DType::U64;
    if (!a.complete_tx || a.bulk_group || hint || in.has(isa::kNoftz) || !(b32 || b64) || in.nops != 4) return nullptr;
  } else if (a.bulk_dst != Space::Global || !a.bulk_group || a.complete_tx || in.nops != 3u + (hint ? 1 : 0)) {
    return nullptr;
  }
  const bool half = t == DType::F16 || t == DType::BF16;
  bool ok = false;
  switch (in.atom) {
    case AtomOp::Add:
      ok = half ? in.has(isa::kNoftz)
                : !in.has(isa::kNoftz) && (t == DType::U32 || t == DType::S32 || t == DType::U64 || t == DType::F32 || t == DType::F64);
      break;
    case AtomOp::Min: case AtomOp::Max:
      ok = !in.has(isa::kNoftz) && (half || t == DType::U32 || t == DType::S32 || t == DType::U64 || t == DType::S64);
      break;
    case AtomOp::Inc: case AtomOp::Dec: ok = t == DType::U32; break;
    case AtomOp::And: case AtomOp::Or: case AtomOp::Xor: ok = t == DType::B32 || t == DType::B64; break;
    default: break;
  }
  if (!ok || !is_address(in, 0) || !is_address(in, 1) || !is_value(in, 2)) return nullptr;
  if (half) return bulk_reduce<reduce_halves>;
  if (t == DType::F32) return bulk_reduce<reduce_elements<float>>;
  if (t == DType::F64) return bulk_reduce<reduce_elements<double>>;
  switch (t) {
    case DType::U32: case DType::B32: return bulk_reduce<reduce_elements<uint32_t>>;
    case DType::S32: return bulk_reduce<reduce_elements<int32_t>>;
    case DType::U64: case DType::B64: return bulk_reduce<reduce_elements<uint64_t>>;
    case DType::S64: return bulk_reduce<reduce_elements<int64_t>>;
    default: return nullptr;
  }
}

}  // namespace

ExecFn bind_bulk_copy(const isa::Instruction& in) {
  if (in.async.tensor_dim) return bind_tensor_copy(in);
  switch (in.async.op) {
    case AsyncOp::BulkCopy: return valid_copy(in) ? ExecFn(bulk_copy) : nullptr;
    case AsyncOp::BulkReduce: return bind_reduce(in);
    case AsyncOp::BulkCommit: return in.nops == 0 ? ExecFn(nothing_pending) : nullptr;
    case AsyncOp::BulkWait:
      return in.nops == 1 && in.ops[0].kind == isa::OperandKind::Imm && in.ops[0].imm >= 0 ? ExecFn(nothing_pending) : nullptr;
    case AsyncOp::BulkPrefetch:
      return in.async.bulk_src == Space::Global && is_address(in, 0) && is_value(in, 1) &&
                     in.nops == 2u + (in.has(isa::kCacheHint) ? 1 : 0)
                 ? ExecFn(bulk_prefetch)
                 : nullptr;
    default: return nullptr;
  }
}

}  // namespace gputlm::func::sem
