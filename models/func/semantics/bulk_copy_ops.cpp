// cp.async.bulk (PTX ISA 9.7.9.25.4, sm_90; the forms without .multicast::cluster, which is
// sm_90a, and without .ignore_oob or .cp_mask, which later PTX versions add):
//
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.L2::cache_hint} [dst],
//   [src], size, [mbar]{, policy}
//   cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes{.L2::cache_hint}     [dst],
//   [src], size, [mbar]{, policy}
//   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes             [dst],
//   [src], size, [mbar] cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint} [dst], [src],
//   size{, policy} cp.async.bulk.commit_group;  cp.async.bulk.wait_group{.read} N;
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
// of the same warp instruction copying with complete-tx completes at once.) prefetch.L2 is a hint:
// its lines go to the memory system when they are inside an allocation, and nothing else happens.
//
// cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2) combines instead of copying: each element of the
// destination becomes redOp(destination, source), the operations and rounding of atom/red
// (atomic_apply.h; f16/bf16 add.noftz as red.add.noftz, f16/bf16 min/max as min/max without .NaN):
//
//   cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type [dst],
//   [src], size, [mbar]
//     (.b32 .u32 .s32 .b64 .u64)
//   cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp{.noftz}.type [dst],
//   [src], size{, policy}
//     (add: .u32 .s32 .u64 .f32 .f64, .noftz .f16 .bf16; min/max: .u32 .s32 .u64 .s64 .f16 .bf16;
//      inc/dec: .u32; and/or/xor: .b32 .b64)
//
// timed as a copy of the same direction (global: its lines written through the L1).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "models/func/semantics/bulk_reduce.h"
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/semantics.h"
#include "models/func/semantics/small_float.h"

namespace gputlm::func::sem {
namespace {

using isa::AsyncOp;
using isa::Space;

// The shared bytes at `addr` .. addr + size (the CTA's, or another's of its cluster), or a fault
// naming which operand overran.
uint8_t* shared_range(ExecCtx& c, uint32_t tid, uint64_t addr, uint64_t size, const char* which) {
  uint8_t* p = c.cta->shared_at(addr, size);
  if (!p)
    c.fault(std::string("cp.async.bulk: shared ") + which + " of " + std::to_string(size) +
                " bytes: " + c.cta->shared_miss(addr),
            tid, addr);
  return p;
}

// A lane's [dst], [src], size of a bulk copy or reduction (`what`), checked as the ISA requires:
// size a multiple of 16, both addresses 16-byte aligned.
struct BulkOperands {
  uint64_t dst, src, size;
};
BulkOperands bulk_operands(ExecCtx& c, unsigned lane, uint32_t tid, const char* what) {
  const isa::Instruction& in = *c.in;
  const BulkOperands b{operand_address(c, tid, in.ops[0]), operand_address(c, tid, in.ops[1]),
                       c.raw(in.ops[2], lane, tid) & 0xffffffffu};
  if (b.size % 16 != 0)
    c.fault(std::string(what) + ": size " + std::to_string(b.size) + " is not a multiple of 16",
            tid, 0, false);
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
    if (a.complete_tx) {  // deferred for the timing model when the data comes from global memory
                          // (one lane a warp)
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

// cp.reduce.async.bulk: as bulk_copy (the checks, what the memory system sees, the mbarrier's
// complete-tx for a shared destination: at once, the source being shared memory).
void bulk_reduce(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const ReduceFn reduce = reduce_fn(in.type, in.atom);  // bind_reduce checked the pair
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
      reduce(buffer.data(), s, size, in.atom);
      mem.write(dst, buffer.data(), size);
    } else {
      reduce(shared_range(c, tid, dst, size, "destination"), s, size, in.atom);
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

bool is_address(const isa::Instruction& in, unsigned i) {
  return in.nops > i && in.ops[i].kind == isa::OperandKind::Address;
}
bool is_value(const isa::Instruction& in, unsigned i) {
  return in.nops > i &&
         (in.ops[i].kind == isa::OperandKind::Reg || in.ops[i].kind == isa::OperandKind::Imm);
}

bool valid_copy(const isa::Instruction& in) {
  const isa::AsyncForm& a = in.async;
  const bool hint = in.has(isa::kCacheHint);
  if (!is_address(in, 0) || !is_address(in, 1) || !is_value(in, 2)) return false;
  if (a.bulk_dst == Space::Shared && a.complete_tx &&
      !a.bulk_group) {  // into shared memory, mbarrier completion
    if (a.bulk_src == Space::Shared && hint) return false;
    return (a.bulk_src == Space::Global || a.bulk_src == Space::Shared) && is_address(in, 3) &&
           in.nops == 4u + (hint ? 1 : 0);
  }
  return a.bulk_dst == Space::Global && a.bulk_src == Space::Shared && a.bulk_group &&
         !a.complete_tx && in.nops == 3u + (hint ? 1 : 0);
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
    const bool b32 = t == DType::B32 || t == DType::U32 || t == DType::S32,
               b64 = t == DType::B64 || t == DType::U64;
    if (!a.complete_tx || a.bulk_group || hint || in.has(isa::kNoftz) || !(b32 || b64) ||
        in.nops != 4)
      return nullptr;
  } else if (a.bulk_dst != Space::Global || !a.bulk_group || a.complete_tx ||
             in.nops != 3u + (hint ? 1 : 0)) {
    return nullptr;
  }
  const bool half = t == DType::F16 || t == DType::BF16;
  if (half != in.has(isa::kNoftz) && in.atom == AtomOp::Add)
    return nullptr;  // f16/bf16 add is .noftz, nothing else is
  if (in.has(isa::kNoftz) && in.atom != AtomOp::Add) return nullptr;
  const bool bitwise = in.atom == AtomOp::And || in.atom == AtomOp::Or || in.atom == AtomOp::Xor;
  if (bitwise != (t == DType::B32 || t == DType::B64))
    return nullptr;  // .b32/.b64 for and/or/xor only
  if (!reduce_fn(t, in.atom) || !is_address(in, 0) || !is_address(in, 1) || !is_value(in, 2))
    return nullptr;
  return bulk_reduce;
}

}  // namespace

ExecFn bind_bulk_copy(const isa::Instruction& in) {
  if (in.async.tensor_dim) return bind_tensor_copy(in);
  switch (in.async.op) {
    case AsyncOp::BulkCopy:
      return valid_copy(in) ? ExecFn(bulk_copy) : nullptr;
    case AsyncOp::BulkReduce:
      return bind_reduce(in);
    case AsyncOp::BulkCommit:
      return in.nops == 0 ? ExecFn(nothing_pending) : nullptr;
    case AsyncOp::BulkWait:
      return in.nops == 1 && in.ops[0].kind == isa::OperandKind::Imm && in.ops[0].imm >= 0
                 ? ExecFn(nothing_pending)
                 : nullptr;
    case AsyncOp::BulkPrefetch:
      return in.async.bulk_src == Space::Global && is_address(in, 0) && is_value(in, 1) &&
                     in.nops == 2u + (in.has(isa::kCacheHint) ? 1 : 0)
                 ? ExecFn(bulk_prefetch)
                 : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
