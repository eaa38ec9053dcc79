// PTX data types, comparison and rounding modifiers, state spaces: the vocabulary the parser
// produces and the functional engine consumes. See the PTX ISA manual, sections 5.2 and 9.7.
#pragma once

#include <cstdint>
#include <string_view>

namespace gputlm::isa {

// The values up to Pred keep their order; the narrow float formats (PTX ISA 5.2.5.1
// "Alternate Floating Point Data Formats") follow. Packed x2 types hold two elements, element 0
// in the low bits.
enum class DType : uint8_t {
  None,
  B8,
  B16,
  B32,
  B64,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F32,
  F64,
  Pred,
  F16x2,
  BF16,
  BF16x2,
  TF32,
  E4M3,
  E5M2,
  E4M3x2,
  E5M2x2
};

// Width in bits (1 for .pred, 0 for None).
unsigned dtype_bits(DType t);
inline unsigned dtype_bytes(DType t) { return (dtype_bits(t) + 7) / 8; }
bool dtype_is_signed(DType t);  // .s8 .. .s64
// .f16 .f32 .f64 and the narrow formats (.f16x2 .bf16 .bf16x2 .tf32 .e4m3 .e5m2 .e4m3x2 .e5m2x2).
bool dtype_is_float(DType t);
// Packed two-element types (.f16x2 .bf16x2 .e4m3x2 .e5m2x2).
bool dtype_is_packed(DType t);
std::string_view dtype_name(DType t);  // "u32"
// Parses "u32" (no dot); returns None if `s` is not a type name.
DType parse_dtype(std::string_view s);

// setp/set comparison operators; the *u variants are true when either operand is NaN.
enum class CmpOp : uint8_t {
  None,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Lo,
  Ls,
  Hi,
  Hs,
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan
};
// setp/set boolean combination with the optional third source predicate.
enum class BoolOp : uint8_t { None, And, Or, Xor };
// Floating-point rounding (.rn .rz .rm .rp), float-to-integer rounding (.rni .rzi .rmi .rpi) and
// round to nearest, ties away from zero (.rna, cvt to .tf32).
enum class Round : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna };
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
  Tid,
  Ntid,
  Ctaid,
  Nctaid,
  Laneid,
  Warpid,
  Nwarpid,
  Smid,
  Nsmid,
  Gridid,
  Clock,
  Clock64,
  LanemaskEq,
  LanemaskLt,
  LanemaskLe,
  LanemaskGt,
  LanemaskGe,
  WarpSz,
  // PTX ISA 10.x: timers, shared-memory sizes, driver and profiling registers (the index of
  // %envreg<N> / %pm<N> / %pm<N>_64 in Operand::comp), and the cluster registers (vector ones
  // take a component like %tid).
  Globaltimer,
  GlobaltimerLo,
  GlobaltimerHi,
  DynamicSmemSize,
  TotalSmemSize,
  AggrSmemSize,
  Envreg,
  Pm,
  Pm64,
  Clusterid,
  Nclusterid,
  ClusterCtaid,
  ClusterNctaid,
  ClusterCtarank,
  ClusterNctarank,
  IsExplicitCluster,
  ClockHi,
  ReservedSmemBegin,
  ReservedSmemEnd,
  ReservedSmemCap,
  ReservedSmemOffset,  // %reserved_smem_offset_*
  CurrentGraphExec     // %current_graph_exec (PTX ISA 10.33, sm_50): 0, no kernel here runs from a
                       // device graph
};

// createpolicy forms (PTX ISA: createpolicy) and the cache eviction priorities they name.
enum class PolicyForm : uint8_t { None, Fractional, Range, Cvt };
enum class EvictPriority : uint8_t { None, Normal, First, Last, Unchanged, NoAllocate };
// A load's or store's cache operator (PTX ISA "Cache Operators": .ca .cg .cs .lu .cv, .wb .wt).
enum class CacheOp : uint8_t { None, Ca, Cg, Cs, Lu, Cv, Wb, Wt };

}  // namespace gputlm::isa
