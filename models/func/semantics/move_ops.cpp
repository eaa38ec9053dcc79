// Data movement (PTX ISA 9.7.9): mov (registers, immediates, special registers, symbol
// addresses, vector pack/unpack) and cvta (generic <-> state-space addresses).
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

template <class T>
ExecFn mov_fn() { return [](ExecCtx& c) { unary<T>(c, [](T a) { return a; }); }; }

// mov.b64 d, {a, b}: packs elements, element 0 lowest.
ExecFn pack_fn() {
  return [](ExecCtx& c) {
    const isa::Operand& v = c.in->ops[1];
    const unsigned bits = isa::dtype_bits(c.in->type) / v.vec_n;
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    lanes(c, [&](unsigned lane, uint32_t tid) {
      uint64_t d = 0;
      for (unsigned i = 0; i < v.vec_n; ++i) d |= (c.reg(v.vec[i], tid) & mask) << (i * bits);
      c.reg(c.in->ops[0].reg, tid) = d;
    });
  };
}
// mov.b64 {a, b}, d: unpacks elements.
ExecFn unpack_fn() {
  return [](ExecCtx& c) {
    const isa::Operand& v = c.in->ops[0];
    const unsigned bits = isa::dtype_bits(c.in->type) / v.vec_n;
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    lanes(c, [&](unsigned lane, uint32_t tid) {
      const uint64_t s = c.raw(c.in->ops[1], lane, tid);
      for (unsigned i = 0; i < v.vec_n; ++i)
        if (v.vec[i] >= 0) c.reg(v.vec[i], tid) = (s >> (i * bits)) & mask;
    });
  };
}

}  // namespace

ExecFn bind_move(const isa::Instruction& in) {
  using isa::Opcode;
  if (in.op == Opcode::Mov) {
    if (in.ops[1].kind == isa::OperandKind::Vector) return pack_fn();
    if (in.ops[0].kind == isa::OperandKind::Vector) return unpack_fn();
    switch (in.type) {
      case isa::DType::Pred: return [](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return a & 1; }); };
      case isa::DType::F32: return mov_fn<uint32_t>();
      case isa::DType::F64: return mov_fn<uint64_t>();
      case isa::DType::F16: return mov_fn<uint16_t>();
      default: { GPUTLM_DISPATCH_INT(in.type, mov_fn) }
    }
  }
  if (in.op == Opcode::Cvta) {
    if (in.space != isa::Space::Global && in.space != isa::Space::Shared && in.space != isa::Space::Local &&
        in.space != isa::Space::Const)
      return nullptr;
    const bool to_space = in.has(isa::kTo);
    // .const variables live at global addresses (module_image.h): both are the identity.
    if (in.space == isa::Space::Global || in.space == isa::Space::Const) return mov_fn<uint64_t>();
    if (in.space == isa::Space::Shared)
      return to_space ? ExecFn([](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return a - kSharedWindow; }); })
                      : ExecFn([](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return a + kSharedWindow; }); });
    return to_space ? ExecFn([](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return a - kLocalWindow; }); })
                    : ExecFn([](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return a + kLocalWindow; }); });
  }
  return nullptr;
}

}  // namespace gputlm::func::sem
