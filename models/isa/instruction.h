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

// A Vector operand element that is an immediate (mov.b32 d, {0, %h}): the element's bits are
// in the operand's imm at the element's position.
constexpr int32_t kVecImmediate = -2;

// How an immediate was written: integer, 0f (f32 bits), 0d or decimal (f64 bits).
enum class ImmFormat : uint8_t { Int, F32, F64 };

struct Operand {
  OperandKind kind = OperandKind::None;
  ImmFormat imm_format = ImmFormat::Int;
  bool negate = false;  // "!%p" as a source predicate
  bool minus = false;   // vmad's "-%r" (PTX ISA 9.7.18.1.3): the video semantics apply it
  bool frame = false;   // a symbol of the current call frame: imm is relative to the thread's frame
  SReg sreg = SReg::Tid;
  uint8_t comp = 0;
  uint8_t vec_n = 0;  // at most kMaxVector (wmma fragments have 8 registers)
  uint16_t vsel = 0;  // a video instruction's selector or mask after a register ("%r1.b0",
                      // "%r2.h10"): video_form.h
  Space sym_space = Space::Generic;  // Address/Imm built from a symbol: the symbol's space
  int32_t reg = -1;
  int64_t imm = 0;
  std::array<int32_t, 8> vec{{-1, -1, -1, -1, -1, -1, -1, -1}};
};
constexpr unsigned kMaxVector = 8;

// Element types of the tensor-core instructions (PTX ISA 9.7.14 wmma and mma): the sub-byte
// integers and single bits are not DTypes, so the fragment types have their own vocabulary.
enum class MmaType : uint8_t {
  None,
  F16,
  BF16,
  TF32,
  F32,
  F64,
  S8,
  U8,
  S4,
  U4,
  B1,
  S32,
  B16,
  E4M3,
  E5M2
};
// wmma.load.{a,b,c} / wmma.store.d / wmma.mma (PTX ISA 9.7.14.4).
enum class MatrixPart : uint8_t { None, A, B, C, D, Mma };
// The shape, layouts and types of wmma, mma, ldmatrix, stmatrix and movmatrix.
struct TensorForm {
  uint16_t k = 0;  // shape .mMnNkK (ldmatrix's .m8n8: k = 0)
  uint8_t m = 0, n = 0;
  MatrixPart part = MatrixPart::None;
  uint8_t count = 0;  // ldmatrix/stmatrix .x1 .x2 .x4
  uint8_t nlayouts = 0;
  bool a_col = false;  // first layout .col (wmma.load/store: the memory layout)
  bool b_col = false;  // second layout .col
  bool trans = false;  // ldmatrix/stmatrix/movmatrix .trans
  uint8_t ntypes = 0;
  std::array<MmaType, 4> types{};  // as written: mma d.a.b.c; wmma.mma d.c (f16) or d.a.b.c
  // mma.sp (1) and mma.sp::ordered_metadata (2) (PTX ISA 9.7.14.6): A is 2:4 structured sparse,
  // operand 4 its metadata; `selector` is the sparsity-selector constant f.
  uint8_t sparse = 0;
  uint8_t selector = 0;
};

// cp.async and mbarrier (PTX ISA 9.7.9.25 cp.async, 9.7.13.15 mbarrier): which form the dotted
// words name, and the words that change what it does.
enum class AsyncOp : uint8_t {
  None,
  Copy,
  CommitGroup,
  WaitGroup,
  WaitAll,
  CopyArrive,  // cp.async{.ca,.cg,.commit_group,...,.mbarrier.arrive}
  BulkCopy,
  BulkCommit,
  BulkWait,
  BulkPrefetch,  // cp.async.bulk{,.commit_group,.wait_group,.prefetch.L2}
  BulkReduce,    // cp.reduce.async.bulk (the reduction in Instruction::atom)
  Init,
  Inval,
  Arrive,
  ArriveDrop,
  TestWait,
  TryWait,
  ExpectTx,
  CompleteTx,
  PendingCount  // mbarrier.*
};
struct AsyncForm {
  AsyncOp op = AsyncOp::None;
  bool cg = false;  // cp.async.cg: bypasses L1, cp-size must be 16
  bool ignore_src =
      false;            // the fourth operand of cp.async is the ignore-src predicate, not src-size
  bool noinc = false;   // cp.async.mbarrier.arrive.noinc
  bool parity = false;  // test_wait/try_wait.parity: the operand is a phase parity, not a state
  bool no_complete = false;  // mbarrier.arrive.noComplete
  bool expect_tx = false;    // mbarrier.arrive.expect_tx / arrive_drop.expect_tx
  // cp.async.bulk: destination and source spaces (Shared for .shared::cta and .shared::cluster,
  // Global), in the order written; the completion mechanism; wait_group.read.
  Space bulk_dst = Space::Generic, bulk_src = Space::Generic;  // Generic: not given
  bool complete_tx = false;                                    // .mbarrier::complete_tx::bytes
  bool bulk_group = false;                                     // .bulk_group
  bool read = false;                                           // cp.async.bulk.wait_group.read
  uint8_t tensor_dim =
      0;                 // cp{.reduce}.async.bulk{.prefetch}.tensor.Nd (1..5; 0: not a tensor copy)
  bool im2col = false;   // .tensor's .im2col (loads, prefetch: im2col offsets follow) or
                         // .im2col_no_offs (stores, reductions)
  bool no_offs = false;  // .im2col_no_offs
};

// tex, tld4, txq, suld and sust (PTX ISA 9.7.10 "Texture Instructions", 9.7.11 "Surface
// Instructions"): the geometry, tex's mip form, tld4's channel, txq's query, the surface access
// form and its out-of-range mode.
enum class TexGeom : uint8_t { None, D1, D2, D3, A1D, A2D, Cube, ACube, D2MS, A2DMS };
enum class TexMip : uint8_t { None, Base, Level, Grad };
enum class SurfClamp : uint8_t { Trap, Clamp, Zero };
struct TexForm {
  TexGeom geom = TexGeom::None;
  TexMip mip = TexMip::None;
  int8_t comp = -1;   // tld4 .r .g .b .a: 0..3
  int8_t query = -1;  // txq, suq: the query's index in kTxqQueries (modifiers.cpp), same order as
                      // func::tex::Query
  int8_t ref = -1;    // istypep .texref .samplerref .surfref: 0..2
  bool bulk = false;  // suld/sust .b (raw bytes)
  bool formatted = false;  // sust .p (converted to the surface's format)
  SurfClamp clamp = SurfClamp::Trap;
};

// The video instructions (PTX ISA 9.7.18): the type of b (dtype in type, atype in type2; vset:
// atype in type2), vshl/vshr's .wrap (else .clamp), vmad's .shr7/.shr15 and .po. The secondary
// operation (.add, .min, .max) is Instruction::atom, the comparison of vset{,2,4} Instruction::cmp.
struct VideoForm {
  DType btype = DType::None;
  bool wrap = false, clamp = false;
  uint8_t scale = 0;  // 0, 7 or 15
  bool po = false;
};

// Boolean modifiers, one bit each.
enum InstrFlag : uint32_t {
  kFtz = 1u << 0,
  kSat = 1u << 1,
  kApprox = 1u << 2,
  kUni = 1u << 3,
  kCc = 1u << 4,
  kTo = 1u << 5,
  kShiftAmt = 1u << 6,
  kShfLeft = 1u << 7,
  kShfWrap = 1u << 8,
  kVolatile = 1u << 9,
  kSync = 1u << 10,
  kAligned = 1u << 11,
  kNc = 1u << 12,
  kFull = 1u << 13,
  kArrive = 1u << 14,
  kRed = 1u << 15,
  kRowHint =
      1u << 16,  // ld.global.rowhint: the dissertation's row-buffer locality hint bit (section 7.2)
  kWarpSync = 1u << 17,  // bar.warp.sync (__syncwarp): a warp collective, not a CTA barrier
  kFuncRet =
      1u << 18,  // ret inside a .func: returns to the caller (in a kernel, ret ends the thread)
  kBuiltinCall = 1u << 19,  // call of a device service (vprintf, malloc, ...; kernel.h Builtin):
                            // runs in place, no frame
  // Narrow-float modifiers (PTX ISA 9.7.4 half precision, 9.7.9.21 cvt, 9.7.13.5 atom):
  kRelu = 1u << 24,        // .relu: negative results (and NaN) become +0
  kSatFinite = 1u << 25,   // .satfinite: inf/overflow -> max finite, NaN stays NaN
  kNaN = 1u << 26,         // min/max.NaN: a NaN operand gives canonical NaN
  kXorsignAbs = 1u << 27,  // min/max.xorsign.abs: |result| with sign = sign(a) ^ sign(b)
  kNoftz = 1u << 28,       // atom/red.add.noftz (f16/bf16): subnormals are kept
  // Integer, memory and barrier modifiers (PTX ISA 9.7.1, 9.7.9, 9.7.13.1):
  kCacheHint =
      1u << 20,  // .L2::cache_hint: a 64-bit cache-policy operand follows the others (a hint only)
  kPacked16x2 =
      1u
      << 21,  // add/min/max .u16x2/.s16x2: two 16-bit lanes of a .b32; `type` is the element type
  kGridDepWait = 1u << 22,  // griddepcontrol.wait (PTX ISA 9.7.13.x: programmatic dependent launch)
  kGridDepLaunch = 1u << 23,  // griddepcontrol.launch_dependents
  // barrier.cluster.arrive / .wait (PTX ISA 9.7.13.3, sm_90): the cluster's split barrier, not a
  // CTA barrier
  kCluster = 1u << 29,
  kClusterWait = 1u << 30,
  // cvt.pack.sat (PTX ISA 9.7.9.22, sm_72): two s32 saturated to Instruction::pack_bits each and
  // packed
  kPack = 1u << 31,
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
  // ld/st cache operator (the timing model reads .cg)
  CacheOp cache_op = CacheOp::None;
  uint32_t flags = 0;
  int32_t guard = -1;  // guard predicate register slot, -1 = always
  bool guard_neg = false;
  uint8_t nops = 0;
  std::array<Operand, kMaxOperands> ops{};
  // The second destination of setp ("%p|%q"), -1 if absent.
  int32_t dst2 = -1;
  // createpolicy (PTX ISA: createpolicy): its form and L2 eviction priorities.
  PolicyForm policy_form = PolicyForm::None;
  EvictPriority evict_primary = EvictPriority::None, evict_secondary = EvictPriority::None;
  TensorForm tensor;  // wmma mma ldmatrix stmatrix movmatrix
  AsyncForm async;    // cp.async mbarrier
  TexForm tex;        // tex tld4 txq suld sust
  VideoForm video;    // vadd ... vset4
  uint8_t pack_bits =
      0;  // cvt.pack: the width converted to (2, 4, 8, 16; type holds its signedness)

  bool has(InstrFlag f) const { return (flags & f) != 0; }
  bool is_branch() const { return op == Opcode::Bra; }
  // brx.idx index, tlist (PTX ISA 9.7.12.4): each lane jumps to entry `index` of a .branchtargets
  // list (Kernel::branch_targets[operand 1]); the timing model and the SIMT stack group the lanes
  // by target.
  bool is_indexed_branch() const { return op == Opcode::BrxIdx; }
  bool is_exit() const { return (op == Opcode::Ret && !has(kFuncRet)) || op == Opcode::Exit; }
  bool is_call() const {
    return op == Opcode::Call && !has(kBuiltinCall);
  }  // a call of a device function
  bool is_return() const { return op == Opcode::Ret && has(kFuncRet); }
  bool is_barrier() const {
    return (op == Opcode::Bar || op == Opcode::Barrier) && !has(kWarpSync) && !has(kCluster);
  }
  // barrier.cluster.wait: its lanes stay at it until the cluster barrier's phase completes
  // (ExecResult::retry).
  bool is_cluster_wait() const { return op == Opcode::Barrier && has(kClusterWait); }
  // Its outcome decides where the warp goes next (which threads, which PC, whether it waits).
  bool decides_control() const {
    return is_branch() || is_indexed_branch() || is_exit() || is_call() || is_return() ||
           is_barrier() || is_cluster_wait() || op == Opcode::Trap;
  }
  // Texture and surface reads count as loads and sust as a store: the timing model sends them
  // through the L1 at the addresses of the texels they read or write (func::tex).
  bool is_load() const {
    return op == Opcode::Ld || op == Opcode::Ldu || op == Opcode::Tex || op == Opcode::Tld4 ||
           op == Opcode::Suld;
  }
  bool is_store() const {
    return op == Opcode::St || op == Opcode::CondAcc || op == Opcode::Sust;
  }  // cond.acc: [base] is operand 1
  bool is_texture() const {
    return op == Opcode::Tex || op == Opcode::Tld4 || op == Opcode::Txq || op == Opcode::Suld ||
           op == Opcode::Sust || op == Opcode::Suq || op == Opcode::Sured;
  }
  bool is_atomic() const {
    return op == Opcode::Atom || op == Opcode::Red || op == Opcode::Sured;
  }  // sured: a reduction without a result
  bool is_memory() const { return is_load() || is_store() || is_atomic(); }
  // A tensor-core fragment load or store: ldmatrix, stmatrix, wmma.load, wmma.store.
  bool is_matrix_access() const {
    return op == Opcode::Ldmatrix || op == Opcode::Stmatrix ||
           (op == Opcode::Wmma && tensor.part != MatrixPart::Mma);
  }
  bool is_matrix_store() const {
    return op == Opcode::Stmatrix || (op == Opcode::Wmma && tensor.part == MatrixPart::D);
  }
  // Ends a basic block (control leaves or may leave the fall-through path).
  // A call does not: the callee returns to the next instruction (the callee is opaque to the
  // caller's CFG, as in GPGPU-Sim); a function's ret ends its block like an exit.
  bool ends_block() const {
    return is_branch() || is_indexed_branch() || is_exit() || is_return() || op == Opcode::Trap;
  }
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
void instruction_registers(const Instruction& in, std::vector<int32_t>& uses,
                           std::vector<int32_t>& defs);

// An instruction's registers worked out once (func::BoundKernel keeps them per instruction), for
// the timing model, which asks for every warp instruction it reads and retires.
struct InstructionRegisters {
  std::vector<int32_t> uses, defs;     // as instruction_registers gives them
  std::vector<int32_t> distinct_uses;  // uses sorted, each once (register-file bank conflicts)
};
InstructionRegisters registers_of(const Instruction& in);

}  // namespace gputlm::isa
