// PTX data types, comparison and rounding modifiers, state spaces: the vocabulary the parser
// produces and the functional engine consumes. See the PTX ISA manual, sections 5.2 and 9.7.
#pragma once

#include <cstdint>
#include <string_view>

namespace gputlm::isa {

enum class DType : uint8_t {
  None, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F16, F32, F64, Pred
};

// Width in bits (1 for .pred, 0 for None).
unsigned dtype_bits(DType t);
inline unsigned dtype_bytes(DType t) { return (dtype_bits(t) + 7) / 8; }
bool dtype_is_signed(DType t);  // .s8 .. .s64
bool dtype_is_float(DType t);   // .f16 .f32 .f64
std::string_view dtype_name(DType t);  // "u32"
// Parses "u32" (no dot); returns None if `s` is not a type name.
DType parse_dtype(std::string_view s);

// setp/set comparison operators; the *u variants are true when either operand is NaN.
enum class CmpOp : uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan
};
// setp/set boolean combination with the optional third source predicate.
enum class BoolOp : uint8_t { None, And, Or, Xor };
// Floating-point rounding (.rn .rz .rm .rp) and float-to-integer rounding (.rni .rzi .rmi .rpi).
enum class Round : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
// mul/mad result selection.
enum class MulMode : uint8_t { None, Lo, Hi, Wide };
// Where a memory instruction or symbol lives. Generic addresses are resolved at run time.
enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };
std::string_view space_name(Space s);
// atom/red operation.
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class VoteMode : uint8_t { None, All, Any, Uni, Ballot };
enum class ShflMode : uint8_t { None, Up, Down, Bfly, Idx };
enum class PrmtMode : uint8_t { Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
enum class TestpMode : uint8_t { None, Finite, Infinite, Number, NotANumber, Normal, Subnormal };

// Special registers readable with mov (PTX ISA 10). Vector ones take a component x/y/z.
enum class SReg : uint8_t {
  Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid, Clock, Clock64,
  LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe, WarpSz
};

}  // namespace gputlm::isa
