#include "models/isa/instruction_checks.h"

#include <string>

#include "models/isa/opcode.h"

namespace gputlm::isa {

void check_instruction_types(const TokenCursor& cursor, const Instruction& in, const Token& t,
                             const Kernel& kernel) {
  if ((in.op == Opcode::Tex || in.op == Opcode::Tld4 || in.op == Opcode::Suld ||
       in.op == Opcode::Sust) &&
      in.tex.geom == TexGeom::None)
    cursor.fail(t, std::string(opcode_name(in.op)) +
                       " needs its geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)");
  if (in.op == Opcode::Txq && in.tex.query < 0)
    cursor.fail(t, "txq needs its query (.width, .height, .channel_order, ...)");
  switch (in.op) {
    case Opcode::Bra:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Trap:
    case Opcode::Bar:
    case Opcode::Call:
    case Opcode::Barrier:
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Prefetch:
    case Opcode::Nanosleep:
    case Opcode::Activemask:
    case Opcode::Prefetchu:
    case Opcode::Applypriority:
    case Opcode::Discard:
    case Opcode::Elect:
    case Opcode::Isspacep:
    case Opcode::Pmevent:
    case Opcode::Brkpt:
    case Opcode::Tensormap:
      return;
    case Opcode::BrxIdx:  // index: a .u32 register or an immediate (ptxas: "Arguments mismatch"
                          // otherwise)
      if (in.ops[0].kind == OperandKind::Reg &&
          dtype_bits(kernel.regs[static_cast<size_t>(in.ops[0].reg)].type) != 32)
        cursor.fail(t, "brx.idx's index must be a 32-bit register");
      if (in.ops[0].kind != OperandKind::Reg && in.ops[0].kind != OperandKind::Imm)
        cursor.fail(t, "brx.idx's index must be a register or an immediate");
      return;
    case Opcode::Istypep:
      if (in.tex.ref < 0) cursor.fail(t, "istypep needs .texref, .samplerref or .surfref");
      return;
    case Opcode::Griddepcontrol:
      if (in.has(kGridDepWait) == in.has(kGridDepLaunch))
        cursor.fail(t, "griddepcontrol needs one of .wait and .launch_dependents");
      return;
    case Opcode::CpAsync:
    case Opcode::Mbarrier:
    case Opcode::CpReduce:  // operands and sizes are checked when bound
      if (in.async.op == AsyncOp::None)
        cursor.fail(t, std::string(opcode_name(in.op)) +
                           " needs its operation (.ca, .cg, .commit_group, .init, .arrive, ...)");
      return;
    case Opcode::Wmma:
    case Opcode::Mma:
    case Opcode::Ldmatrix:
    case Opcode::Stmatrix:
    case Opcode::Movmatrix:
      if (in.tensor.ntypes == 0)
        cursor.fail(t, "missing type modifier");  // the types are checked when bound
      return;
    case Opcode::Vote:
      if (in.vote == VoteMode::None) cursor.fail(t, "vote needs .all, .any, .uni or .ballot");
      return;
    default:
      if (in.type == DType::None) cursor.fail(t, "missing type modifier");
  }
  if ((in.op == Opcode::Cvt) && in.type2 == DType::None) cursor.fail(t, "cvt needs two types");
  if ((in.op == Opcode::Setp || in.op == Opcode::Set) && in.cmp == CmpOp::None)
    cursor.fail(t, "missing comparison operator");
  if ((in.op == Opcode::Atom || in.op == Opcode::Red || in.op == Opcode::Redux) &&
      in.atom == AtomOp::None)
    cursor.fail(t, "missing atomic operation");
  if (in.op == Opcode::Match && in.vote == VoteMode::None)
    cursor.fail(t, "match needs .any or .all");
  if (in.op == Opcode::Createpolicy && in.policy_form == PolicyForm::None)
    cursor.fail(t, "createpolicy needs .fractional, .range or .cvt");
  if (in.has(kRowHint) &&
      !(in.is_load() && (in.space == Space::Global || in.space == Space::Generic)))
    cursor.fail(t, ".rowhint applies to global loads only");
  if (in.op == Opcode::CondAcc) {
    if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic)
      cursor.fail(t, "cond.acc writes to .global, .shared or a generic address");
    if (in.ops[1].kind != OperandKind::Address)
      cursor.fail(t, "cond.acc takes its base as an address operand: [base]");
  }
  if (in.op == Opcode::CondAcc || in.op == Opcode::TreeTraverse) {
    if (in.ops[0].kind != OperandKind::Reg)
      cursor.fail(t, std::string(opcode_name(in.op)) + " writes a register");
    if (in.ops[2].kind != OperandKind::Reg ||
        kernel.regs[static_cast<size_t>(in.ops[2].reg)].type != DType::Pred)
      cursor.fail(
          t, std::string(opcode_name(in.op)) + " takes a predicate register as its third operand");
  }
}

}  // namespace gputlm::isa
