// The dynamic stack (PTX ISA 9.7.16 "Stack Manipulation Instructions", sm_52):
//   alloca.type ptr, size{, immAlign}   type .u32 .u64; immAlign a power of two up to 2^23, default
//   8 stacksave.type d                    d = the stack pointer stackrestore.type a the stack
//   pointer = a (frees what alloca gave since the stacksave)
// Each thread's stack pointer (CtaState::sp) starts above the kernel's frame; alloca returns the
// local address of `size` bytes above it, aligned, and moves it up; a call puts its callee's frame
// above it and the return frees the callee's allocations (call_ops.cpp). The kernel reserves
// kDynamicStackBytes of local memory per thread for it (ptx_link.h): an allocation past the
// thread's local memory is a fault naming it, as is restoring a pointer outside it.
#include <string>

#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

void alloca_op(ExecCtx& c) {
  const isa::Instruction& in = *c.in;
  const uint64_t align = in.nops > 2 ? static_cast<uint64_t>(in.ops[2].imm) : 8;
  const uint64_t limit = c.launch().kernel->local_bytes;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t size = in.type == isa::DType::U32 ? src<uint32_t>(c, 1, lane, tid)
                                                     : src<uint64_t>(c, 1, lane, tid);
    const uint64_t at = (uint64_t{c.cta->sp[tid]} + align - 1) / align * align;
    if (at + size > limit)
      c.fault("alloca of " + std::to_string(size) + " bytes overflows the thread's stack (" +
                  std::to_string(limit) + " bytes of local memory per thread)",
              tid, at);
    c.cta->sp[tid] = static_cast<uint32_t>(at + size);
    c.reg(in.ops[0].reg, tid) = at;  // a .local address (ld.local, cvta.local)
  });
}

void stacksave(ExecCtx& c) {
  lanes(c, [&](unsigned, uint32_t tid) { c.reg(c.in->ops[0].reg, tid) = c.cta->sp[tid]; });
}

void stackrestore(ExecCtx& c) {
  const uint64_t limit = c.launch().kernel->local_bytes;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint64_t to = c.in->type == isa::DType::U32 ? src<uint32_t>(c, 0, lane, tid)
                                                      : src<uint64_t>(c, 0, lane, tid);
    if (to > limit)
      c.fault("stackrestore to " + std::to_string(to) + ", outside the thread's local memory", tid,
              to);
    c.cta->sp[tid] = static_cast<uint32_t>(to);
  });
}

}  // namespace

ExecFn bind_stack(const isa::Instruction& in) {
  if (in.type != isa::DType::U32 && in.type != isa::DType::U64) return nullptr;
  const isa::Operand& a = in.ops[0];
  switch (in.op) {
    case isa::Opcode::Alloca: {
      if (a.kind != isa::OperandKind::Reg || in.nops < 2) return nullptr;
      if (in.nops == 3) {
        const int64_t align = in.ops[2].imm;
        if (in.ops[2].kind != isa::OperandKind::Imm || align <= 0 || align > (1 << 23) ||
            (align & (align - 1)) != 0)
          return nullptr;
      }
      return alloca_op;
    }
    case isa::Opcode::Stacksave:
      return a.kind == isa::OperandKind::Reg ? stacksave : nullptr;
    case isa::Opcode::Stackrestore:
      return a.kind == isa::OperandKind::Reg ? stackrestore : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
