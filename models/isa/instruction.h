// One decoded PTX instruction: opcode, type(s), modifiers, guard predicate and operands with
// registers resolved to dense slots and labels/symbols resolved to addresses. Immutable after
// parsing; the functional engine binds semantics to it, the timing model reads its class.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/isa/opcode.h"
#include "models/isa/types.h"

namespace gputlm::isa {

enum class OperandKind : uint8_t {
  None,
  Reg,      // reg = register slot
  Imm,      // imm = value bits (integers sign-extended, f32/f64 as IEEE bits, symbol addresses)
  Special,  // sreg + comp (0 = x, 1 = y, 2 = z)
  Address,  // [reg + imm] or [imm]; reg = -1 when absolute; space of a symbol base in sym_space
  Vector,   // {vec[0], ..., vec[n-1]}; -1 = sink "_"
  Label,    // imm = target instruction index
};

// How an immediate was written: integer, 0f (f32 bits), 0d or decimal (f64 bits).
enum class ImmFormat : uint8_t { Int, F32, F64 };

struct Operand {
  OperandKind kind = OperandKind::None;
  ImmFormat imm_format = ImmFormat::Int;
  bool negate = false;  // "!%p" as a source predicate
  bool frame = false;   // a symbol of the current call frame: imm is relative to the thread's frame
  SReg sreg = SReg::Tid;
  uint8_t comp = 0;
  uint8_t vec_n = 0;
  Space sym_space = Space::Generic;  // Address/Imm built from a symbol: the symbol's space
  int32_t reg = -1;
  int64_t imm = 0;
  std::array<int32_t, 4> vec{{-1, -1, -1, -1}};
};

// Boolean modifiers, one bit each.
enum InstrFlag : uint32_t {
  kFtz = 1u << 0, kSat = 1u << 1, kApprox = 1u << 2, kUni = 1u << 3, kCc = 1u << 4,
  kTo = 1u << 5, kShiftAmt = 1u << 6, kShfLeft = 1u << 7, kShfWrap = 1u << 8,
  kVolatile = 1u << 9, kSync = 1u << 10, kAligned = 1u << 11, kNc = 1u << 12, kFull = 1u << 13,
  kArrive = 1u << 14, kRed = 1u << 15,
  kRowHint = 1u << 16,  // ld.global.rowhint: the dissertation's row-buffer locality hint bit (section 7.2)
  kWarpSync = 1u << 17,  // bar.warp.sync (__syncwarp): a warp collective, not a CTA barrier
  kFuncRet = 1u << 18,   // ret inside a .func: returns to the caller (in a kernel, ret ends the thread)
};

struct Instruction {
  static constexpr unsigned kMaxOperands = 5;

  Opcode op = Opcode::Count;
  DType type = DType::None;   // the instruction type (cvt: destination type)
  DType type2 = DType::None;  // cvt: source type; set/slct: source type
  CmpOp cmp = CmpOp::None;
  BoolOp boolop = BoolOp::None;
  Round rnd = Round::None;
  MulMode mul = MulMode::None;
  Space space = Space::Generic;
  AtomOp atom = AtomOp::None;
  VoteMode vote = VoteMode::None;
  ShflMode shfl = ShflMode::None;
  PrmtMode prmt = PrmtMode::Default;
  TestpMode testp = TestpMode::None;
  uint8_t vec = 1;  // .v2/.v4 memory access width in elements
  uint32_t flags = 0;
  int32_t guard = -1;  // guard predicate register slot, -1 = always
  bool guard_neg = false;
  uint8_t nops = 0;
  std::array<Operand, kMaxOperands> ops{};
  // The second destination of setp ("%p|%q"), -1 if absent.
  int32_t dst2 = -1;

  bool has(InstrFlag f) const { return (flags & f) != 0; }
  bool is_branch() const { return op == Opcode::Bra; }
  bool is_exit() const { return (op == Opcode::Ret && !has(kFuncRet)) || op == Opcode::Exit; }
  bool is_call() const { return op == Opcode::Call; }
  bool is_return() const { return op == Opcode::Ret && has(kFuncRet); }
  bool is_barrier() const { return (op == Opcode::Bar || op == Opcode::Barrier) && !has(kWarpSync); }
  // Its outcome decides where the warp goes next (which threads, which PC, whether it waits).
  bool decides_control() const {
    return is_branch() || is_exit() || is_call() || is_return() || is_barrier() || op == Opcode::Trap;
  }
  bool is_load() const { return op == Opcode::Ld || op == Opcode::Ldu; }
  bool is_store() const { return op == Opcode::St || op == Opcode::CondAcc; }  // cond.acc: [base] is operand 1
  bool is_atomic() const { return op == Opcode::Atom || op == Opcode::Red; }
  bool is_memory() const { return is_load() || is_store() || is_atomic(); }
  // Ends a basic block (control leaves or may leave the fall-through path).
  // A call does not: the callee returns to the next instruction (the callee is opaque to the
  // caller's CFG, as in GPGPU-Sim); a function's ret ends its block like an exit.
  bool ends_block() const { return is_branch() || is_exit() || is_return() || op == Opcode::Trap; }
};

// The timing class of an instruction: arithmetic opcodes on float types count as float units,
// float division as its own class.
InstrClass instruction_class(const Instruction& in);

// Whether the instruction acts on a logical warp's threads together (vote, shfl, activemask,
// bar.warp.sync, and the dissertation's cond.acc and tree.traverse): warp formations that regroup
// threads issue it with each logical warp whole.
bool is_warp_collective(const Instruction& in);

// Registers an instruction reads and writes (guard included in `uses`). A guarded instruction
// may leave its destination unchanged, so its destinations also count as uses.
void instruction_registers(const Instruction& in, std::vector<int32_t>& uses, std::vector<int32_t>& defs);

// An instruction's registers worked out once (func::BoundKernel keeps them per instruction), for
// the timing model, which asks for every warp instruction it reads and retires.
struct InstructionRegisters {
  std::vector<int32_t> uses, defs;     // as instruction_registers gives them
  std::vector<int32_t> distinct_uses;  // uses sorted, each once (register-file bank conflicts)
};
InstructionRegisters registers_of(const Instruction& in);

}  // namespace gputlm::isa
