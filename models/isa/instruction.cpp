#include "models/isa/instruction.h"

#include <algorithm>

namespace gputlm::isa {

InstrClass instruction_class(const Instruction& in) {
  InstrClass c = opcode_class(in.op);
  if (in.has(kWarpSync)) return InstrClass::Warp;
  if (in.has(kBuiltinCall))
    return InstrClass::IntAlu;  // a device service completes like an ALU instruction
  // Tensor cores: the products on the tensor unit; the fragment loads and stores (wmma.load/store,
  // ldmatrix, stmatrix) are memory instructions, timed through shared memory or the L1.
  if (in.op == Opcode::Mma || (in.op == Opcode::Wmma && in.tensor.part == MatrixPart::Mma))
    return InstrClass::Tensor;
  if (in.is_matrix_access()) return InstrClass::Memory;
  if (!dtype_is_float(in.type)) return c;
  switch (in.op) {
    case Opcode::Div:
      return InstrClass::FloatDiv;
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Abs:
    case Opcode::Neg:
    case Opcode::Min:
    case Opcode::Max:
    case Opcode::Setp:
    case Opcode::Set:
    case Opcode::Selp:
      return InstrClass::FloatAlu;
    default:
      return c;
  }
}

bool is_warp_collective(const Instruction& in) {
  const InstrClass c = instruction_class(in);
  return c == InstrClass::Warp || c == InstrClass::PrefixSum || c == InstrClass::Tensor ||
         in.is_matrix_access();
}

namespace {
void operand_regs(const Operand& o, std::vector<int32_t>& out) {
  if (o.kind == OperandKind::Reg || (o.kind == OperandKind::Address && o.reg >= 0))
    out.push_back(o.reg);
  if (o.kind == OperandKind::Vector ||
      o.kind == OperandKind::Address)  // [handle, {coordinates}]: tex, suld, sust
    for (unsigned i = 0; i < o.vec_n; ++i)
      if (o.vec[i] >= 0) out.push_back(o.vec[i]);
}
// Whether operand 0 is written (a destination) rather than read.
bool first_operand_is_dst(const Instruction& in) {
  switch (in.op) {
    case Opcode::St:
    case Opcode::Red:
    case Opcode::Bra:
    case Opcode::BrxIdx:
    case Opcode::Prefetch:
    case Opcode::Prefetchu:
    case Opcode::Applypriority:
    case Opcode::Discard:
    case Opcode::Nanosleep:
    case Opcode::Call:
    case Opcode::Fence:
    case Opcode::Stmatrix:
    case Opcode::Sust:
    case Opcode::Sured:
    case Opcode::Stackrestore:
    case Opcode::Pmevent:
    case Opcode::Tensormap:
      return false;
    case Opcode::Wmma:
      return in.tensor.part != MatrixPart::D;  // wmma.store.d [p], {d}: reads its registers
    case Opcode::Bar:
    case Opcode::Barrier:
      return in.has(kRed);  // bar.red writes its first operand
    case Opcode::CpAsync:
    case Opcode::CpReduce:
      return false;  // cp.async [dst], [src], ...: writes shared memory, no register
    case Opcode::Mbarrier:
      return in.ops[0].kind == OperandKind::Reg;  // arrive/test_wait/try_wait/pending_count write
                                                  // it; init [a] does not
    default:
      return in.nops > 0;
  }
}
}  // namespace

InstructionRegisters registers_of(const Instruction& in) {
  InstructionRegisters r;
  instruction_registers(in, r.uses, r.defs);
  r.distinct_uses = r.uses;
  std::sort(r.distinct_uses.begin(), r.distinct_uses.end());
  r.distinct_uses.erase(std::unique(r.distinct_uses.begin(), r.distinct_uses.end()),
                        r.distinct_uses.end());
  return r;
}

void instruction_registers(const Instruction& in, std::vector<int32_t>& uses,
                           std::vector<int32_t>& defs) {
  uses.clear();
  defs.clear();
  if (in.guard >= 0) uses.push_back(in.guard);
  unsigned first_src = 0;
  if (first_operand_is_dst(in)) {
    operand_regs(in.ops[0], defs);
    if (in.dst2 >= 0) defs.push_back(in.dst2);
    first_src = 1;
  }
  for (unsigned i = first_src; i < in.nops; ++i) operand_regs(in.ops[i], uses);
  if (in.guard >= 0) uses.insert(uses.end(), defs.begin(), defs.end());
}

}  // namespace gputlm::isa
