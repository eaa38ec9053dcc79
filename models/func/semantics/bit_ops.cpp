// Logic, shift and bit-field instructions (PTX ISA 9.7.1, 9.7.7, 9.7.8): and or xor not cnot
// lop3 shl shr shf prmt (every mode) popc clz bfind fns brev bfe bfi bmsk szext. Shift amounts are
// unsigned 32-bit values; a shift by the width or more gives 0 (shl, shr of unsigned) or the sign
// fill (shr of signed).
#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

template <class T>
constexpr unsigned kBits = 8 * sizeof(T);

template <class T>
ExecFn and_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return static_cast<T>(a & b); }); };
}
template <class T>
ExecFn or_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return static_cast<T>(a | b); }); };
}
template <class T>
ExecFn xor_fn() {
  return [](ExecCtx& c) { binary<T>(c, [](T a, T b) { return static_cast<T>(a ^ b); }); };
}
template <class T>
ExecFn not_fn() {
  return [](ExecCtx& c) { unary<T>(c, [](T a) { return static_cast<T>(~a); }); };
}
template <class T>
ExecFn cnot_fn() {
  return [](ExecCtx& c) { unary<T>(c, [](T a) { return static_cast<T>(a == 0 ? 1 : 0); }); };
}

// Predicates hold 0/1, so logic on .pred is logic on the low bit.
ExecFn pred_logic(isa::Opcode op) {
  switch (op) {
    case isa::Opcode::And:
      return [](ExecCtx& c) {
        binary<uint64_t>(c, [](uint64_t a, uint64_t b) { return (a & b) & 1; });
      };
    case isa::Opcode::Or:
      return [](ExecCtx& c) {
        binary<uint64_t>(c, [](uint64_t a, uint64_t b) { return (a | b) & 1; });
      };
    case isa::Opcode::Xor:
      return [](ExecCtx& c) {
        binary<uint64_t>(c, [](uint64_t a, uint64_t b) { return (a ^ b) & 1; });
      };
    case isa::Opcode::Not:
      return [](ExecCtx& c) { unary<uint64_t>(c, [](uint64_t a) { return (~a) & 1; }); };
    default:
      return nullptr;
  }
}

template <class T>
ExecFn shl_fn() {
  return [](ExecCtx& c) {
    binary<T, T, uint32_t>(c, [](T a, uint32_t n) {
      return n >= kBits<T> ? T(0) : static_cast<T>(static_cast<Unsigned<T>>(a) << n);
    });
  };
}
template <class T>
ExecFn shr_fn() {
  return [](ExecCtx& c) {
    binary<T, T, uint32_t>(c, [](T a, uint32_t n) {
      if (n >= kBits<T>)
        n = kBits<T> - 1, a = static_cast<T>(std::is_signed_v<T> ? (a < 0 ? -1 : 0) : 0);
      return static_cast<T>(a >> n);
    });
  };
}

// lop3: bit i of d is bit (a_i<<2 | b_i<<1 | c_i) of the 8-bit lookup table.
uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t d = 0;
  for (unsigned k = 0; k < 8; ++k)
    if ((lut >> k) & 1) d |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
  return d;
}

// shf: funnel shift of the 64-bit value {b, a} (b high); .wrap takes n mod 32, .clamp min(n, 32).
ExecFn shf_fn(bool left, bool wrap) {
  if (left)
    return wrap ? ExecFn([](ExecCtx& c) {
      ternary<uint32_t>(c, [](uint32_t a, uint32_t b, uint32_t n) {
        uint64_t v = (uint64_t{b} << 32) | a;
        return static_cast<uint32_t>((v << (n & 31)) >> 32);
      });
    })
                : ExecFn([](ExecCtx& c) {
                    ternary<uint32_t>(c, [](uint32_t a, uint32_t b, uint32_t n) {
                      uint64_t v = (uint64_t{b} << 32) | a;
                      n = std::min(n, 32u);
                      return static_cast<uint32_t>((v << n) >> 32);
                    });
                  });
  return wrap ? ExecFn([](ExecCtx& c) {
    ternary<uint32_t>(c, [](uint32_t a, uint32_t b, uint32_t n) {
      uint64_t v = (uint64_t{b} << 32) | a;
      return static_cast<uint32_t>(v >> (n & 31));
    });
  })
              : ExecFn([](ExecCtx& c) {
                  ternary<uint32_t>(c, [](uint32_t a, uint32_t b, uint32_t n) {
                    uint64_t v = (uint64_t{b} << 32) | a;
                    n = std::min(n, 32u);
                    return static_cast<uint32_t>(v >> n);
                  });
                });
}

// prmt with a mode (PTX ISA, Data Movement and Conversion Instructions: prmt, the table of .f4e
// .b4e .rc8 .ecl .ecr .rc16): c[1:0] picks a row; the row names the source byte of d.b0, d.b1,
// d.b2, d.b3 (bytes of {b, a}).
constexpr uint8_t kPrmtRows[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e: forward 4 extract
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e: backward 4 extract
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8: replicate 8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl: edge clamp left
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr: edge clamp right
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16: replicate 16
};
template <isa::PrmtMode M>
uint32_t prmt_mode(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t bytes = (uint64_t{b} << 32) | a;
  const uint8_t* row = kPrmtRows[static_cast<unsigned>(M) - 1][c & 3];
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i)
    d |= static_cast<uint32_t>((bytes >> (8 * row[i])) & 0xFF) << (8 * i);
  return d;
}
ExecFn prmt_mode_fn(isa::PrmtMode m) {
  using isa::PrmtMode;
  switch (m) {
    case PrmtMode::F4e:
      return [](ExecCtx& c) {
        ternary<uint32_t>(c, [](auto... x) { return prmt_mode<PrmtMode::F4e>(x...); });
      };
    case PrmtMode::B4e:
      return [](ExecCtx& c) {
        ternary<uint32_t>(c, [](auto... x) { return prmt_mode<PrmtMode::B4e>(x...); });
      };
    case PrmtMode::Rc8:
      return [](ExecCtx& c) {
        ternary<uint32_t>(c, [](auto... x) { return prmt_mode<PrmtMode::Rc8>(x...); });
      };
    case PrmtMode::Ecl:
      return [](ExecCtx& c) {
        ternary<uint32_t>(c, [](auto... x) { return prmt_mode<PrmtMode::Ecl>(x...); });
      };
    case PrmtMode::Ecr:
      return [](ExecCtx& c) {
        ternary<uint32_t>(c, [](auto... x) { return prmt_mode<PrmtMode::Ecr>(x...); });
      };
    case PrmtMode::Rc16:
      return [](ExecCtx& c) {
        ternary<uint32_t>(c, [](auto... x) { return prmt_mode<PrmtMode::Rc16>(x...); });
      };
    default:
      return nullptr;
  }
}

// bmsk (PTX ISA, Integer Arithmetic Instructions: bmsk): a mask of b ones from bit a. .wrap takes
// a and b mod 32; .clamp gives no bits from a >= 32 and all bits from a up when b >= 32; bits past
// 31 are dropped.
template <bool Wrap>
uint32_t bmsk(uint32_t a, uint32_t b) {
  const uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  bool overflow = sum >= 32;
  if (!Wrap) {
    if (a >= 32) overflow = true, mask0 = 0;
    if (b >= 32) overflow = true;
  }
  const uint32_t mask1 = overflow ? 0 : b1 == 0 ? ~0u : ~0u << sum;
  return mask0 & ~mask1;
}
// szext (PTX ISA, Integer Arithmetic Instructions: szext): the low N = b bits of a, sign- (.s32)
// or zero-extended (.u32); N = 0 gives 0; N >= 32 gives a with .clamp and N mod 32 bits with .wrap.
template <bool Wrap, bool Signed>
uint32_t szext(uint32_t a, uint32_t b) {
  const uint32_t b1 = b & 31;
  const bool too_large = !Wrap && b >= 32;
  const uint32_t mask = too_large ? 0 : ~0u << b1;
  const bool sign = Signed && b1 != 0 && !too_large && ((a >> ((b1 - 1) & 31)) & 1);
  return (a & ~mask) | (sign ? mask : 0);
}
ExecFn bmsk_szext_fn(const isa::Instruction& in) {
  const bool wrap = in.has(isa::kShfWrap);
  if (in.op == isa::Opcode::Bmsk) {
    if (in.type != isa::DType::B32) return nullptr;
    return wrap ? ExecFn([](ExecCtx& c) {
      binary<uint32_t>(c, [](auto... x) { return bmsk<true>(x...); });
    })
                : ExecFn([](ExecCtx& c) {
                    binary<uint32_t>(c, [](auto... x) { return bmsk<false>(x...); });
                  });
  }
  if (in.type == isa::DType::S32)
    return wrap ? ExecFn([](ExecCtx& c) {
      binary<uint32_t>(c, [](auto... x) { return szext<true, true>(x...); });
    })
                : ExecFn([](ExecCtx& c) {
                    binary<uint32_t>(c, [](auto... x) { return szext<false, true>(x...); });
                  });
  if (in.type == isa::DType::U32)
    return wrap ? ExecFn([](ExecCtx& c) {
      binary<uint32_t>(c, [](auto... x) { return szext<true, false>(x...); });
    })
                : ExecFn([](ExecCtx& c) {
                    binary<uint32_t>(c, [](auto... x) { return szext<false, false>(x...); });
                  });
  return nullptr;
}

// fns (PTX ISA, Integer Arithmetic Instructions: fns): the position of the |offset|-th set bit of
// mask counting from base, upwards for offset > 0 and downwards for offset < 0 (offset 0: base
// itself if set); all ones if there is none. A base above 31 (undefined in the ISA) finds nothing.
uint32_t fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == 0) return base < 32 && ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
  int64_t count = (offset > 0 ? int64_t{offset} : -int64_t{offset}) - 1;
  const int inc = offset > 0 ? 1 : -1;
  for (int64_t pos = base; pos >= 0 && pos < 32; pos += inc)
    if ((mask >> pos) & 1) {
      if (count == 0) return static_cast<uint32_t>(pos);
      --count;
    }
  return 0xFFFFFFFFu;
}

// prmt (default mode): byte i of d is byte (c >> 4i) & 7 of {b, a}, or that byte's sign
// replicated when bit 3 of the selector is set.
uint32_t prmt(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t bytes = (uint64_t{b} << 32) | a;
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned sel = (c >> (4 * i)) & 0xF;
    uint32_t byte = (bytes >> (8 * (sel & 7))) & 0xFF;
    if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
    d |= byte << (8 * i);
  }
  return d;
}

template <class T>
ExecFn popc_fn() {
  return [](ExecCtx& c) {
    unary<T, uint32_t>(c, [](T a) {
      return static_cast<uint32_t>(
          __builtin_popcountll(static_cast<uint64_t>(static_cast<Unsigned<T>>(a))));
    });
  };
}
template <class T>
ExecFn clz_fn() {
  return [](ExecCtx& c) {
    unary<T, uint32_t>(c, [](T a) {
      uint64_t v = static_cast<Unsigned<T>>(a);
      return v == 0 ? kBits<T> : static_cast<uint32_t>(__builtin_clzll(v) - (64 - kBits<T>));
    });
  };
}
template <class T>
ExecFn brev_fn() {
  return [](ExecCtx& c) {
    unary<T>(c, [](T a) {
      Unsigned<T> v = static_cast<Unsigned<T>>(a), r = 0;
      for (unsigned i = 0; i < kBits<T>; ++i)
        r |= static_cast<Unsigned<T>>(((v >> i) & 1)) << (kBits<T> - 1 - i);
      return static_cast<T>(r);
    });
  };
}
// bfind: bit position of the most significant 1 (unsigned) or non-sign bit (signed); all ones if
// none; .shiftamt returns the left shift that would normalise the value instead.
template <class T>
ExecFn bfind_fn() {
  return [](ExecCtx& c) {
    const bool shiftamt = c.in->has(isa::kShiftAmt);
    unary<T, uint32_t>(c, [shiftamt](T a) {
      uint64_t v = static_cast<Unsigned<T>>(a);
      if (std::is_signed_v<T> && a < 0) v = static_cast<Unsigned<T>>(~a);
      if (v == 0) return 0xFFFFFFFFu;
      uint32_t pos = 63 - __builtin_clzll(v);
      return shiftamt ? kBits<T> - 1 - pos : pos;
    });
  };
}
// bfe d, a, pos, len: extract len bits from pos, sign-extended for signed types (PTX 9.7.1.x).
template <class T>
ExecFn bfe_fn() {
  return [](ExecCtx& c) {
    ternary<T, T, uint32_t>(c, [](T a, T bpos, uint32_t blen) {
      const unsigned pos = static_cast<uint32_t>(bpos) & 0xFF, len = blen & 0xFF,
                     msb = kBits<T> - 1;
      const Unsigned<T> v = static_cast<Unsigned<T>>(a);
      unsigned sbit = 0;
      if (std::is_signed_v<T> && len != 0) sbit = (v >> std::min(pos + len - 1, msb)) & 1;
      Unsigned<T> d = 0;
      for (unsigned i = 0; i <= msb; ++i) {
        const unsigned bit = (i < len && pos + i <= msb) ? (v >> (pos + i)) & 1 : sbit;
        d |= static_cast<Unsigned<T>>(bit) << i;
      }
      return static_cast<T>(d);
    });
  };
}
// bfi d, a, b, pos, len: insert the low len bits of a into b at pos.
template <class T>
ExecFn bfi_fn() {
  return [](ExecCtx& c) {
    lanes(c, [&](unsigned lane, uint32_t tid) {
      Unsigned<T> a = src<T>(c, 1, lane, tid), f = src<T>(c, 2, lane, tid);
      const unsigned pos = src<uint32_t>(c, 3, lane, tid) & 0xFF,
                     len = src<uint32_t>(c, 4, lane, tid) & 0xFF;
      for (unsigned i = 0; i < len && pos + i < kBits<T>; ++i) {
        const Unsigned<T> bit = Unsigned<T>(1) << (pos + i);
        f = ((a >> i) & 1) ? (f | bit) : (f & ~bit);
      }
      dst<T>(c, lane, tid, static_cast<T>(f));
    });
  };
}

}  // namespace

ExecFn bind_bits(const isa::Instruction& in) {
  using isa::Opcode;
  if (in.type == isa::DType::Pred) return pred_logic(in.op);
  switch (in.op) {
    case Opcode::And: {
      GPUTLM_DISPATCH_INT(in.type, and_fn)
    }
    case Opcode::Or: {
      GPUTLM_DISPATCH_INT(in.type, or_fn)
    }
    case Opcode::Xor: {
      GPUTLM_DISPATCH_INT(in.type, xor_fn)
    }
    case Opcode::Not: {
      GPUTLM_DISPATCH_INT(in.type, not_fn)
    }
    case Opcode::Cnot: {
      GPUTLM_DISPATCH_INT(in.type, cnot_fn)
    }
    case Opcode::Shl: {
      GPUTLM_DISPATCH_INT(in.type, shl_fn)
    }
    case Opcode::Shr: {
      GPUTLM_DISPATCH_INT(in.type, shr_fn)
    }
    case Opcode::Popc: {
      GPUTLM_DISPATCH_INT(in.type, popc_fn)
    }
    case Opcode::Clz: {
      GPUTLM_DISPATCH_INT(in.type, clz_fn)
    }
    case Opcode::Brev: {
      GPUTLM_DISPATCH_INT(in.type, brev_fn)
    }
    case Opcode::Bfind: {
      GPUTLM_DISPATCH_INT(in.type, bfind_fn)
    }
    case Opcode::Bfe: {
      GPUTLM_DISPATCH_INT(in.type, bfe_fn)
    }
    case Opcode::Bfi: {
      GPUTLM_DISPATCH_INT(in.type, bfi_fn)
    }
    case Opcode::Lop3:
      if (in.type != isa::DType::B32) return nullptr;
      return [](ExecCtx& c) {
        lanes(c, [&](unsigned lane, uint32_t tid) {
          dst<uint32_t>(c, lane, tid,
                        lop3(src<uint32_t>(c, 1, lane, tid), src<uint32_t>(c, 2, lane, tid),
                             src<uint32_t>(c, 3, lane, tid), src<uint32_t>(c, 4, lane, tid)));
        });
      };
    case Opcode::Shf:
      if (in.type != isa::DType::B32) return nullptr;
      return shf_fn(in.has(isa::kShfLeft), in.has(isa::kShfWrap));
    case Opcode::Prmt:
      if (in.type != isa::DType::B32) return nullptr;
      if (in.prmt != isa::PrmtMode::Default) return prmt_mode_fn(in.prmt);
      return [](ExecCtx& c) { ternary<uint32_t>(c, [](auto... x) { return prmt(x...); }); };
    case Opcode::Bmsk:
    case Opcode::Szext:
      return bmsk_szext_fn(in);
    case Opcode::Fns:
      if (in.type != isa::DType::B32) return nullptr;
      return [](ExecCtx& c) {
        lanes(c, [&](unsigned lane, uint32_t tid) {
          const uint32_t mask = src<uint32_t>(c, 1, lane, tid),
                         base = src<uint32_t>(c, 2, lane, tid);
          dst<uint32_t>(c, lane, tid, fns(mask, base, src<int32_t>(c, 3, lane, tid)));
        });
      };
    default:
      return nullptr;
  }
}

}  // namespace gputlm::func::sem
