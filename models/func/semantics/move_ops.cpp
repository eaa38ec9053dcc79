// Data movement (PTX ISA 9.7.9): mov (registers, immediates, special registers, symbol
// addresses, vector pack/unpack) and cvta (generic <-> state-space addresses).
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

template <class T>
ExecFn mov_fn() {
  return [](ExecCtx& c) { unary<T>(c, [](T a) { return a; }); };
}

// mov.b64 d, {a, b}: packs elements, element 0 lowest.
ExecFn pack_fn() {
  return [](ExecCtx& c) {
    const isa::Operand& v = c.in->ops[1];
    const unsigned bits = isa::dtype_bits(c.in->type) / v.vec_n;
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    lanes(c, [&](unsigned lane, uint32_t tid) {
      uint64_t d = 0;
      for (unsigned i = 0; i < v.vec_n; ++i)
        d |= v.vec[i] == isa::kVecImmediate ? static_cast<uint64_t>(v.imm) & (mask << (i * bits))
                                            : (c.reg(v.vec[i], tid) & mask) << (i * bits);
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

// isspacep (PTX ISA, Data Movement and Conversion Instructions: isspacep): whether a generic
// address lies in a state space's window. .const variables live in global memory here
// (module_image.h), so .const answers like .global.
bool in_window(uint64_t a, uint64_t base) { return a - base < kWindowSize; }
ExecFn isspacep_fn(isa::Space s) {
  switch (s) {
    case isa::Space::Shared:
      return [](ExecCtx& c) {
        unary<uint64_t, bool>(c, [](uint64_t a) { return in_window(a, kSharedWindow); });
      };
    case isa::Space::Local:
      return [](ExecCtx& c) {
        unary<uint64_t, bool>(c, [](uint64_t a) { return in_window(a, kLocalWindow); });
      };
    case isa::Space::Global:
    case isa::Space::Const:
      return [](ExecCtx& c) {
        unary<uint64_t, bool>(c, [](uint64_t a) {
          return !in_window(a, kSharedWindow) && !in_window(a, kLocalWindow) &&
                 !in_window(a, kParamWindow);
        });
      };
    case isa::Space::Param:
      return [](ExecCtx& c) {
        unary<uint64_t, bool>(c, [](uint64_t a) { return in_window(a, kParamWindow); });
      };
    default:
      return nullptr;
  }
}

// createpolicy (PTX ISA, Data Movement and Conversion Instructions: createpolicy): an opaque
// 64-bit cache-eviction policy. Ours records the form (bits 0-3), the primary and secondary
// priorities (bits 4-7, 8-11) and, for .fractional, the fraction in 1/65536 steps (bits 16-32);
// for .range, the primary and total sizes' bit widths (bits 16-23, 24-31). Loads and stores only
// accept it as a hint. .cvt passes the value through.
uint64_t policy_bits(const isa::Instruction& in) {
  return static_cast<uint64_t>(in.policy_form) |
         uint64_t{static_cast<uint8_t>(in.evict_primary)} << 4 |
         uint64_t{static_cast<uint8_t>(in.evict_secondary)} << 8;
}
float fraction_of(ExecCtx& c, unsigned lane, uint32_t tid) {
  const isa::Operand& o = c.in->ops[1];
  if (o.kind == isa::OperandKind::Imm && o.imm_format == isa::ImmFormat::F64)
    return static_cast<float>(get<double>(static_cast<uint64_t>(o.imm)));
  if (o.kind == isa::OperandKind::Imm && o.imm_format == isa::ImmFormat::Int)
    return static_cast<float>(o.imm);
  return get<float>(c.raw(o, lane, tid));
}
unsigned width(uint64_t v) { return v ? 64 - static_cast<unsigned>(__builtin_clzll(v)) : 0; }
ExecFn createpolicy_fn(const isa::Instruction& in) {
  if (in.type != isa::DType::B64) return nullptr;
  switch (in.policy_form) {
    case isa::PolicyForm::Fractional:
      if (in.nops > 2) return nullptr;
      return [](ExecCtx& c) {
        lanes(c, [&](unsigned lane, uint32_t tid) {
          const float f = c.in->nops > 1 ? fraction_of(c, lane, tid) : 1.0f;
          if (!(f > 0.0f && f <= 1.0f))
            c.fault("createpolicy: fraction " + std::to_string(f) + " outside (0, 1]", tid, 0,
                    false);
          dst<uint64_t>(c, lane, tid,
                        policy_bits(*c.in) | static_cast<uint64_t>(f * 65536.0f) << 16);
        });
      };
    case isa::PolicyForm::Range:
      if (in.nops != 4) return nullptr;
      return [](ExecCtx& c) {
        lanes(c, [&](unsigned lane, uint32_t tid) {
          const uint64_t primary = src<uint32_t>(c, 2, lane, tid),
                         total = src<uint32_t>(c, 3, lane, tid);
          dst<uint64_t>(
              c, lane, tid,
              policy_bits(*c.in) | uint64_t{width(primary)} << 16 | uint64_t{width(total)} << 24);
        });
      };
    case isa::PolicyForm::Cvt:
      return in.nops == 2 ? mov_fn<uint64_t>() : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

ExecFn bind_move(const isa::Instruction& in) {
  using isa::Opcode;
  if (in.op == Opcode::Isspacep)
    return in.type == isa::DType::None ? isspacep_fn(in.space) : nullptr;
  if (in.op == Opcode::Createpolicy) return createpolicy_fn(in);
  if (in.op == Opcode::Mov) {
    if (in.ops[1].kind == isa::OperandKind::Vector) return pack_fn();
    if (in.ops[0].kind == isa::OperandKind::Vector) return unpack_fn();
    switch (in.type) {
      case isa::DType::Pred:
        return [](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return a & 1; }); };
      case isa::DType::F32:
        return mov_fn<uint32_t>();
      case isa::DType::F64:
        return mov_fn<uint64_t>();
      case isa::DType::F16:
        return mov_fn<uint16_t>();
      default: {
        GPUTLM_DISPATCH_INT(in.type, mov_fn)
      }
    }
  }
  if (in.op == Opcode::Cvta) {
    if (in.space != isa::Space::Global && in.space != isa::Space::Shared &&
        in.space != isa::Space::Local && in.space != isa::Space::Const &&
        in.space != isa::Space::Param)
      return nullptr;
    const bool to_space = in.has(isa::kTo);
    // .const variables live at global addresses (module_image.h): both are the identity.
    if (in.space == isa::Space::Global || in.space == isa::Space::Const) return mov_fn<uint64_t>();
    if (in.space ==
        isa::Space::Param)  // a kernel parameter's generic address (PTX ISA 8.0, sm_70+)
      return to_space ? ExecFn([](ExecCtx& c) {
        unary<uint64_t>(c, [](uint64_t a) { return a - kParamWindow; });
      })
                      : ExecFn([](ExecCtx& c) {
                          unary<uint64_t>(c, [](uint64_t a) { return a + kParamWindow; });
                        });
    if (in.space == isa::Space::Shared)
      return to_space ? ExecFn([](ExecCtx& c) {
        unary<uint64_t>(c, [](uint64_t a) { return a - kSharedWindow; });
      })
                      : ExecFn([](ExecCtx& c) {
                          unary<uint64_t>(c, [](uint64_t a) { return a + kSharedWindow; });
                        });
    return to_space ? ExecFn([](ExecCtx& c) {
      unary<uint64_t>(c, [](uint64_t a) { return a - kLocalWindow; });
    })
                    : ExecFn([](ExecCtx& c) {
                        unary<uint64_t>(c, [](uint64_t a) { return a + kLocalWindow; });
                      });
  }
  return nullptr;
}

}  // namespace gputlm::func::sem
