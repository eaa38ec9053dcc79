// cp.async (PTX ISA 9.7.9.25): the non-bulk asynchronous copy from global to shared memory, and
// cp.async.commit_group / wait_group / wait_all.
//
//   cp.async.ca.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], cp-size{,
//   src-size | ignore-src}{, policy} cp.async.cg ... : the same with cp-size 16 only
//
// Each lane copies cp-size (4, 8 or 16; .cg: 16) bytes: the first src-size bytes from src, the
// rest zero (9.7.9.25.3). With the ignore-src predicate true, src is not read and all cp-size bytes
// are zero. Both addresses must be aligned to cp-size. The cache qualifiers and the cache policy
// are hints with no architectural effect.
//
// When the data appears: the ISA makes it visible only after cp.async.wait_group/wait_all (or the
// mbarrier that tracks the copies) completes, and leaves it free to appear earlier. The functional
// engine copies when the instruction executes; every group is then complete when it is
// committed, so commit_group, wait_group N and wait_all have nothing left to do. The timing model
// sends the copy's source lines through the L1 like a load (models/sm/memory/memory_stage.cpp).
#include <cstring>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

// Whether the copy's fourth operand is src-size (rather than the ignore-src predicate or, with
// .L2::cache_hint, the cache policy).
bool has_src_size(const isa::Instruction& in) {
  return !in.async.ignore_src && in.nops == (in.has(isa::kCacheHint) ? 5 : 4);
}

// The bytes of one lane's copy that come from src (the rest are zero).
uint32_t source_bytes(ExecCtx& c, unsigned lane, uint32_t tid, uint32_t cp_size) {
  const isa::Instruction& in = *c.in;
  if (in.async.ignore_src) return c.raw(in.ops[3], lane, tid) & 1 ? 0 : cp_size;
  if (!has_src_size(in)) return cp_size;
  const uint64_t n = c.raw(in.ops[3], lane, tid) & 0xffffffffu;
  if (n > cp_size)
    c.fault("cp.async: src-size " + std::to_string(n) + " is larger than cp-size " +
                std::to_string(cp_size),
            tid, 0, false);
  return static_cast<uint32_t>(n);
}

void copy(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint32_t cp_size = static_cast<uint32_t>(in.ops[2].imm);
  ExecResult& r = *c.result;
  r.space = isa::Space::Global;  // what the memory system sees: the global read
  r.access_bytes = cp_size;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t dst = operand_address(c, tid, in.ops[0]);
    const uint64_t src = operand_address(c, tid, in.ops[1]);
    if (dst % cp_size != 0)
      c.fault("cp.async: shared destination not aligned to cp-size " + std::to_string(cp_size), tid,
              dst);
    if (src % cp_size != 0)
      c.fault("cp.async: global source not aligned to cp-size " + std::to_string(cp_size), tid,
              src);
    uint8_t* d = c.cta->shared_at(dst, cp_size);
    if (!d) c.fault("cp.async: shared destination: " + c.cta->shared_miss(dst), tid, dst);
    const uint32_t n = source_bytes(c, lane, tid, cp_size);
    if (n > 0) {
      GlobalMemory& mem = *c.launch().memory;
      c.check_global(src, n, tid, "cp.async: global source");
      std::memcpy(d, mem.device_ptr(src), n);
      r.accessed |= LaneMask{1} << lane;
      r.addr[lane] = src;
    }
    std::memset(d + n, 0, cp_size - n);
  });
}

// commit_group, wait_group N, wait_all: every copy is complete when issued (see above).
void nothing_pending(ExecCtx&) {}

bool valid_copy(const isa::Instruction& in) {
  if (in.nops < 3 || in.ops[0].kind != isa::OperandKind::Address ||
      in.ops[1].kind != isa::OperandKind::Address || in.ops[2].kind != isa::OperandKind::Imm)
    return false;
  const int64_t size = in.ops[2].imm;
  if (in.async.cg ? size != 16 : (size != 4 && size != 8 && size != 16)) return false;
  const unsigned most =
      3 + (in.has(isa::kCacheHint) ? 1 : 0) + 1;  // src-size / ignore-src is optional
  return in.nops <= most && (!in.async.ignore_src || in.nops >= 4);
}

}  // namespace

ExecFn bind_async_copy(const isa::Instruction& in) {
  switch (in.async.op) {
    case isa::AsyncOp::BulkCopy:
    case isa::AsyncOp::BulkCommit:
    case isa::AsyncOp::BulkWait:
    case isa::AsyncOp::BulkPrefetch:
      return bind_bulk_copy(in);
    case isa::AsyncOp::Copy:
      return valid_copy(in) ? ExecFn(copy) : nullptr;
    case isa::AsyncOp::CommitGroup:
    case isa::AsyncOp::WaitAll:
      return in.nops == 0 ? ExecFn(nothing_pending) : nullptr;
    case isa::AsyncOp::WaitGroup:
      return in.nops == 1 && in.ops[0].kind == isa::OperandKind::Imm && in.ops[0].imm >= 0
                 ? ExecFn(nothing_pending)
                 : nullptr;
    case isa::AsyncOp::CopyArrive:
      return bind_mbarrier(in);
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
