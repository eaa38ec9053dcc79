// cvt (PTX ISA 9.7.9.21): integer <-> integer (with .sat clamping), integer <-> float (rounding
// modifier), float -> integer (.rni/.rzi/.rmi/.rpi, saturating, NaN -> 0), float <-> float
// (rounding, integral rounding, .ftz, .sat). Conversions involving the narrow float types
// (.f16 .bf16 .tf32 and packed forms) are in small_float_convert.cpp. Compiled with
// -frounding-math.
#include <algorithm>
#include <cmath>
#include <limits>

#include "models/func/semantics/dispatch.h"
#include "models/func/semantics/fp_util.h"
#include "models/func/semantics/half_ops.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

using isa::Round;

template <class D, class S>
D clamp_int(S s) {
  if constexpr (std::is_floating_point_v<S>) {
    if (std::isnan(s)) return 0;
    if (s <= static_cast<S>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (s >= static_cast<S>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(s);
  } else {
    using W = std::conditional_t<std::is_signed_v<S>, int64_t, uint64_t>;
    const W v = static_cast<W>(s);
    if constexpr (std::is_signed_v<S> && !std::is_signed_v<D>) {
      if (v < 0) return 0;
      if (static_cast<uint64_t>(v) > std::numeric_limits<D>::max())
        return std::numeric_limits<D>::max();
    } else if constexpr (!std::is_signed_v<S> && std::is_signed_v<D>) {
      if (v > static_cast<uint64_t>(std::numeric_limits<D>::max()))
        return std::numeric_limits<D>::max();
    } else {
      if (v < static_cast<W>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
      if (v > static_cast<W>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    }
    return static_cast<D>(v);
  }
}

template <class T>
T round_integral(T x, Round r) {
  switch (r) {
    case Round::Rni:
      return std::nearbyint(x);  // scope is round-to-nearest-even here
    case Round::Rmi:
      return std::floor(x);
    case Round::Rpi:
      return std::ceil(x);
    default:
      return std::trunc(x);
  }
}

template <class D, class S>
D convert(S s, const isa::Instruction& in) {
  if constexpr (!std::is_floating_point_v<D> && !std::is_floating_point_v<S>) {
    return in.has(isa::kSat) ? clamp_int<D>(s) : static_cast<D>(s);
  } else if constexpr (!std::is_floating_point_v<D>) {
    if constexpr (std::is_same_v<S, float>)
      if (in.has(isa::kFtz)) s = flush_subnormal(s);
    return clamp_int<D>(round_integral(s, in.rnd));
  } else if constexpr (!std::is_floating_point_v<S>) {
    D d = static_cast<D>(s);
    return in.has(isa::kSat) ? saturate(d) : d;
  } else {
    if constexpr (std::is_same_v<S, float>)
      if (in.has(isa::kFtz)) s = flush_subnormal(s);
    D d;
    if (in.rnd == Round::Rni || in.rnd == Round::Rzi || in.rnd == Round::Rmi ||
        in.rnd == Round::Rpi)
      d = static_cast<D>(round_integral(s, in.rnd));
    else
      d = static_cast<D>(s);
    if constexpr (std::is_same_v<D, float>)
      if (in.has(isa::kFtz)) d = flush_subnormal(d);
    return in.has(isa::kSat) ? saturate(d) : d;
  }
}

template <class D, class S>
ExecFn cvt_fn() {
  return [](ExecCtx& c) {
    // Integer rounding modes are applied explicitly; only .rz/.rm/.rp change the host mode.
    const Round r = c.in->rnd;
    RoundingScope rs((r == Round::Rz || r == Round::Rm || r == Round::Rp) ? r : Round::Rn);
    unary<S, D>(c, [&](S s) { return convert<D, S>(s, *c.in); });
  };
}

template <class D>
ExecFn by_source(isa::DType src) {
  if (src == isa::DType::F32) return cvt_fn<D, float>();
  if (src == isa::DType::F64) return cvt_fn<D, double>();
  switch (src) {
    case isa::DType::U8:
      return cvt_fn<D, uint8_t>();
    case isa::DType::S8:
      return cvt_fn<D, int8_t>();
    case isa::DType::U16:
    case isa::DType::B16:
      return cvt_fn<D, uint16_t>();
    case isa::DType::S16:
      return cvt_fn<D, int16_t>();
    case isa::DType::U32:
    case isa::DType::B32:
      return cvt_fn<D, uint32_t>();
    case isa::DType::S32:
      return cvt_fn<D, int32_t>();
    case isa::DType::U64:
    case isa::DType::B64:
      return cvt_fn<D, uint64_t>();
    case isa::DType::S64:
      return cvt_fn<D, int64_t>();
    default:
      return nullptr;
  }
}

}  // namespace

// cvt.pack.sat (PTX ISA 9.7.9.22): b then a, each an s32 saturated to `pack_bits` (signed or not
// as the type), packed into d's low bits from bit 0; with c, d's bits above are c's low bits.
void cvt_pack(ExecCtx& c) {
  const unsigned n = c.in->pack_bits;
  const bool is_signed = c.in->type == isa::DType::S8 || c.in->type == isa::DType::S16;
  const uint32_t field = (1u << n) - 1;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const auto sat = [&](unsigned i) {
      return static_cast<uint32_t>(saturate_bits(src<int32_t>(c, i, lane, tid), n, is_signed)) &
             field;
    };
    uint32_t d = sat(2) | sat(1) << n;
    if (c.in->nops == 4 && 2 * n < 32) d |= src<uint32_t>(c, 3, lane, tid) << (2 * n);
    dst<uint32_t>(c, lane, tid, d);
  });
}

ExecFn bind_convert(const isa::Instruction& in) {
  if (in.has(isa::kPack)) {  // .u16/.s16 take two sources, the narrower types a third (c)
    const unsigned n = in.pack_bits;
    return in.type2 == isa::DType::S32 && in.has(isa::kSat) && n > 0 &&
                   in.nops == (n == 16 ? 3u : 4u)
               ? cvt_pack
               : nullptr;
  }
  // Narrow float types (.f16 .bf16 .tf32 and the packed forms): small_float_convert.cpp.
  if (isa::dtype_bits(in.type) < 32 && isa::dtype_is_float(in.type))
    return bind_small_float_convert(in);
  if (isa::dtype_is_float(in.type2) && isa::dtype_bits(in.type2) < 32)
    return bind_small_float_convert(in);
  if (in.type == isa::DType::F16x2 || in.type == isa::DType::BF16x2 ||
      in.type == isa::DType::TF32 || in.type2 == isa::DType::F16x2)
    return bind_small_float_convert(in);
  if (in.rnd == Round::Rna || in.has(isa::kRelu) || in.has(isa::kSatFinite) || in.nops != 2)
    return nullptr;
  if (in.type == isa::DType::F32) return by_source<float>(in.type2);
  if (in.type == isa::DType::F64) return by_source<double>(in.type2);
  GPUTLM_DISPATCH_INT(in.type, by_source, in.type2)
}

}  // namespace gputlm::func::sem
