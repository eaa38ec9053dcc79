#include "models/isa/immediate_types.h"

namespace gputlm::isa {
namespace {

// The type the data operands are read as: cvt and set read their second type.
DType source_type(const Instruction& in) {
  return (in.op == Opcode::Cvt || in.op == Opcode::Set) ? in.type2 : in.type;
}

bool is_bit_type(DType t) { return t == DType::B8 || t == DType::B16 || t == DType::B32 || t == DType::B64; }

}  // namespace

std::string immediate_type_error(const Instruction& in) {
  const DType t = source_type(in);
  // slct's selector and createpolicy's fraction are .f32 operands of instructions of another type;
  // cp.reduce.async.bulk's type is the memory's elements', its size a .u32 whatever the type.
  if (t == DType::None || t == DType::Pred || dtype_is_float(t) || in.op == Opcode::Slct || in.op == Opcode::Createpolicy ||
      in.op == Opcode::CpReduce)
    return "";
  for (unsigned i = 0; i < in.nops; ++i) {
    const Operand& o = in.ops[i];
    if (o.kind != OperandKind::Imm || o.sym_space != Space::Generic || o.imm_format == ImmFormat::Int) continue;
    const unsigned literal_bits = o.imm_format == ImmFormat::F32 ? 32 : 64;
    if (is_bit_type(t) && dtype_bits(t) == literal_bits) continue;
    return "floating-point literal for a ." + std::string(dtype_name(t)) + " operand of " +
           std::string(opcode_name(in.op)) + " (ptxas: Arguments mismatch)";
  }
  return "";
}

}  // namespace gputlm::isa
