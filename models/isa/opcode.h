// The PTX opcodes gputlm knows, with their instruction class (used by timing models to pick
// latency and functional unit) and operand-count limits (checked by the parser).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gputlm::isa {

// X(enum, ptx name, class, min operands, max operands)
#define GPUTLM_OPCODES(X)                            \
  X(Add, "add", IntAlu, 3, 3)                        \
  X(Addc, "addc", IntAlu, 3, 3)                      \
  X(Sub, "sub", IntAlu, 3, 3)                        \
  X(Subc, "subc", IntAlu, 3, 3)                      \
  X(Mul, "mul", IntMul, 3, 3)                        \
  X(Mad, "mad", IntMul, 4, 4)                        \
  X(Madc, "madc", IntMul, 4, 4)                      \
  X(Mul24, "mul24", IntMul, 3, 3)                    \
  X(Mad24, "mad24", IntMul, 4, 4)                    \
  X(Sad, "sad", IntAlu, 4, 4)                        \
  X(Div, "div", IntDiv, 3, 3)                        \
  X(Rem, "rem", IntDiv, 3, 3)                        \
  X(Abs, "abs", IntAlu, 2, 2)                        \
  X(Neg, "neg", IntAlu, 2, 2)                        \
  X(Min, "min", IntAlu, 3, 3)                        \
  X(Max, "max", IntAlu, 3, 3)                        \
  X(Popc, "popc", IntAlu, 2, 2)                      \
  X(Clz, "clz", IntAlu, 2, 2)                        \
  X(Bfind, "bfind", IntAlu, 2, 2)                    \
  X(Brev, "brev", IntAlu, 2, 2)                      \
  X(Bfe, "bfe", IntAlu, 4, 4)                        \
  X(Bfi, "bfi", IntAlu, 5, 5)                        \
  X(And, "and", IntAlu, 3, 3)                        \
  X(Or, "or", IntAlu, 3, 3)                          \
  X(Xor, "xor", IntAlu, 3, 3)                        \
  X(Not, "not", IntAlu, 2, 2)                        \
  X(Cnot, "cnot", IntAlu, 2, 2)                      \
  X(Lop3, "lop3", IntAlu, 5, 5)                      \
  X(Shf, "shf", IntAlu, 4, 4)                        \
  X(Bmsk, "bmsk", IntAlu, 3, 3)                      \
  X(Szext, "szext", IntAlu, 3, 3)                    \
  X(Fns, "fns", IntAlu, 4, 4)                        \
  X(Dp4a, "dp4a", IntMul, 4, 4)                      \
  X(Dp2a, "dp2a", IntMul, 4, 4)                      \
  X(Vadd, "vadd", IntAlu, 3, 4)                      \
  X(Vsub, "vsub", IntAlu, 3, 4)                      \
  X(Vabsdiff, "vabsdiff", IntAlu, 3, 4)              \
  X(Vmin, "vmin", IntAlu, 3, 4)                      \
  X(Vmax, "vmax", IntAlu, 3, 4)                      \
  X(Vshl, "vshl", IntAlu, 3, 4)                      \
  X(Vshr, "vshr", IntAlu, 3, 4)                      \
  X(Vmad, "vmad", IntMul, 4, 4)                      \
  X(Vset, "vset", IntAlu, 3, 4)                      \
  X(Vadd2, "vadd2", IntAlu, 4, 4)                    \
  X(Vsub2, "vsub2", IntAlu, 4, 4)                    \
  X(Vavrg2, "vavrg2", IntAlu, 4, 4)                  \
  X(Vabsdiff2, "vabsdiff2", IntAlu, 4, 4)            \
  X(Vmin2, "vmin2", IntAlu, 4, 4)                    \
  X(Vmax2, "vmax2", IntAlu, 4, 4)                    \
  X(Vset2, "vset2", IntAlu, 4, 4)                    \
  X(Vadd4, "vadd4", IntAlu, 4, 4)                    \
  X(Vsub4, "vsub4", IntAlu, 4, 4)                    \
  X(Vavrg4, "vavrg4", IntAlu, 4, 4)                  \
  X(Vabsdiff4, "vabsdiff4", IntAlu, 4, 4)            \
  X(Vmin4, "vmin4", IntAlu, 4, 4)                    \
  X(Vmax4, "vmax4", IntAlu, 4, 4)                    \
  X(Vset4, "vset4", IntAlu, 4, 4)                    \
  X(Shl, "shl", IntAlu, 3, 3)                        \
  X(Shr, "shr", IntAlu, 3, 3)                        \
  X(Prmt, "prmt", IntAlu, 4, 4)                      \
  X(Copysign, "copysign", FloatAlu, 3, 3)            \
  X(Testp, "testp", FloatAlu, 2, 2)                  \
  X(Fma, "fma", FloatAlu, 4, 4)                      \
  X(Rcp, "rcp", Sfu, 2, 2)                           \
  X(Sqrt, "sqrt", Sfu, 2, 2)                         \
  X(Rsqrt, "rsqrt", Sfu, 2, 2)                       \
  X(Sin, "sin", Sfu, 2, 2)                           \
  X(Cos, "cos", Sfu, 2, 2)                           \
  X(Lg2, "lg2", Sfu, 2, 2)                           \
  X(Ex2, "ex2", Sfu, 2, 2)                           \
  X(Tanh, "tanh", Sfu, 2, 2)                         \
  X(Setp, "setp", IntAlu, 3, 4)                      \
  X(Set, "set", IntAlu, 3, 4)                        \
  X(Selp, "selp", IntAlu, 4, 4)                      \
  X(Slct, "slct", IntAlu, 4, 4)                      \
  X(Cvt, "cvt", Convert, 2, 4)                       \
  X(Cvta, "cvta", IntAlu, 2, 2)                      \
  X(Isspacep, "isspacep", IntAlu, 2, 2)              \
  X(Createpolicy, "createpolicy", IntAlu, 1, 4)      \
  X(Mov, "mov", IntAlu, 2, 2)                        \
  X(Ld, "ld", Memory, 2, 3)                          \
  X(Ldu, "ldu", Memory, 2, 2)                        \
  X(St, "st", Memory, 2, 3)                          \
  X(Prefetch, "prefetch", Memory, 1, 2)              \
  X(Prefetchu, "prefetchu", Memory, 1, 1)            \
  X(Applypriority, "applypriority", Memory, 2, 2)    \
  X(Discard, "discard", Memory, 2, 2)                \
  X(Atom, "atom", Atomic, 3, 5)                      \
  X(Red, "red", Atomic, 2, 3)                        \
  X(Vote, "vote", Warp, 2, 3)                        \
  X(Activemask, "activemask", Warp, 1, 1)            \
  X(Shfl, "shfl", Warp, 4, 5)                        \
  X(Redux, "redux", Warp, 3, 3)                      \
  X(Match, "match", Warp, 3, 3)                      \
  X(Elect, "elect", Warp, 2, 2)                      \
  X(Mapa, "mapa", IntAlu, 3, 3)                      \
  X(Getctarank, "getctarank", IntAlu, 2, 2)          \
  X(Bar, "bar", Barrier, 1, 4)                       \
  X(Barrier, "barrier", Barrier, 0, 4)               \
  X(Membar, "membar", Control, 0, 0)                 \
  X(Fence, "fence", Control, 0, 2)                   \
  X(Bra, "bra", Control, 1, 1)                       \
  X(BrxIdx, "brx.idx", Control, 2, 2)                \
  X(Call, "call", Control, 1, 2)                     \
  X(Ret, "ret", Control, 0, 0)                       \
  X(Exit, "exit", Control, 0, 0)                     \
  X(Trap, "trap", Control, 0, 0)                     \
  X(Nanosleep, "nanosleep", Control, 1, 1)           \
  X(Griddepcontrol, "griddepcontrol", Control, 0, 0) \
  X(CondAcc, "cond.acc", PrefixSum, 4, 4)            \
  X(TreeTraverse, "tree.traverse", PrefixSum, 4, 4)  \
  X(Wmma, "wmma", Warp, 2, 4)                        \
  X(Mma, "mma", Warp, 4, 5)                          \
  X(Ldmatrix, "ldmatrix", Warp, 2, 2)                \
  X(Stmatrix, "stmatrix", Warp, 2, 2)                \
  X(Movmatrix, "movmatrix", Warp, 2, 2)              \
  X(CpAsync, "cp.async", Memory, 0, 5)               \
  X(CpReduce, "cp.reduce", Memory, 2, 5)             \
  X(Mbarrier, "mbarrier", Memory, 1, 4)              \
  X(Tex, "tex", Memory, 2, 4)                        \
  X(Tld4, "tld4", Memory, 2, 2)                      \
  X(Txq, "txq", Memory, 2, 2)                        \
  X(Suld, "suld", Memory, 2, 2)                      \
  X(Sust, "sust", Memory, 2, 2)                      \
  X(Suq, "suq", Memory, 2, 2)                        \
  X(Sured, "sured", Atomic, 2, 2)                    \
  X(Istypep, "istypep", IntAlu, 2, 2)                \
  X(Alloca, "alloca", IntAlu, 2, 3)                  \
  X(Stacksave, "stacksave", IntAlu, 1, 1)            \
  X(Stackrestore, "stackrestore", IntAlu, 1, 1)      \
  X(Pmevent, "pmevent", Control, 1, 1)               \
  X(Brkpt, "brkpt", Control, 0, 0)                   \
  X(Tensormap, "tensormap", Control, 3, 3)

enum class Opcode : uint8_t {
#define GPUTLM_OP_ENUM(e, name, cls, lo, hi) e,
  GPUTLM_OPCODES(GPUTLM_OP_ENUM)
#undef GPUTLM_OP_ENUM
      Count
};

// Coarse instruction classes: the timing model maps each to a unit, latency and initiation
// interval from the config. Float arithmetic (add.f32, mul.f32, ...) is FloatAlu even though the
// opcode is shared with integers; see instruction_class() in instruction.h. PrefixSum is the
// adder network of the dissertation's COND_ACC and TREE_TRAVERSE (Fig. 7.1).
enum class InstrClass : uint8_t {
  IntAlu,
  IntMul,
  IntDiv,
  FloatAlu,
  FloatDiv,
  Sfu,
  Convert,
  Memory,
  Atomic,
  Warp,
  Barrier,
  Control,
  PrefixSum,
  Tensor  // wmma.mma and mma (instruction_class(): the opcode table lists them as Warp)
};
constexpr size_t kInstrClasses = 14;
std::string_view instr_class_name(InstrClass c);

std::string_view opcode_name(Opcode op);
// Parses the base opcode name ("ld"); returns Opcode::Count if unknown.
Opcode parse_opcode(std::string_view name);
// The message for an opcode the parser does not know (`name` without modifiers), saying why for
// the ones of targets beyond those modelled (wgmma, setmaxnreg, multimem, tcgen05, ...).
std::string unknown_opcode_message(std::string_view name);
InstrClass opcode_class(Opcode op);
unsigned opcode_min_operands(Opcode op);
unsigned opcode_max_operands(Opcode op);

}  // namespace gputlm::isa
