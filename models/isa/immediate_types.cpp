#include "models/isa/immediate_types.h"

#include <cstring>

namespace gputlm::isa {
namespace {

// The type the data operands are read as: cvt and set read their second type.
DType source_type(const Instruction& in) {
  return (in.op == Opcode::Cvt || in.op == Opcode::Set) ? in.type2 : in.type;
}

bool is_bit_type(DType t) {
  return t == DType::B8 || t == DType::B16 || t == DType::B32 || t == DType::B64;
}

}  // namespace

std::string immediate_type_error(const Instruction& in) {
  const DType t = source_type(in);
  // slct's selector and createpolicy's fraction are .f32 operands of instructions of another type;
  // cp.reduce.async.bulk's type is the memory's elements', its size a .u32 whatever the type.
  if (t == DType::None || t == DType::Pred || dtype_is_float(t) || in.op == Opcode::Slct ||
      in.op == Opcode::Createpolicy || in.op == Opcode::CpReduce)
    return "";
  for (unsigned i = 0; i < in.nops; ++i) {
    const Operand& o = in.ops[i];
    if (o.kind != OperandKind::Imm || o.sym_space != Space::Generic ||
        o.imm_format == ImmFormat::Int)
      continue;
    const unsigned literal_bits = o.imm_format == ImmFormat::F32 ? 32 : 64;
    if (is_bit_type(t) && dtype_bits(t) == literal_bits) continue;
    return "floating-point literal for a ." + std::string(dtype_name(t)) + " operand of " +
           std::string(opcode_name(in.op)) + " (ptxas: Arguments mismatch)";
  }
  return "";
}

// PTX 5.2.4: a literal is converted to the type the instruction reads it as. Only float types
// need work: an f64 or integer literal in an f32 instruction becomes f32 bits, and so on.
void convert_float_immediates(Instruction& in) {
  const DType t =
      (in.op == Opcode::Cvt || in.op == Opcode::Set) ? in.type2 : in.type;  // the source type
  if ((t != DType::F32 && t != DType::F64) || in.op == Opcode::CpReduce)
    return;  // cp.reduce: the type is memory's
  for (unsigned i = 0; i < in.nops; ++i) {
    Operand& o = in.ops[i];
    if (o.kind != OperandKind::Imm || o.sym_space != Space::Generic) continue;
    double v;
    if (o.imm_format == ImmFormat::F32) {
      float f;
      const uint32_t bits = static_cast<uint32_t>(o.imm);
      std::memcpy(&f, &bits, 4);
      v = f;
    } else if (o.imm_format == ImmFormat::F64) {
      std::memcpy(&v, &o.imm, 8);
    } else {
      v = static_cast<double>(o.imm);
    }
    if (t == DType::F32) {
      const float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      o.imm = bits;
    } else {
      std::memcpy(&o.imm, &v, 8);
    }
    o.imm_format = t == DType::F32 ? ImmFormat::F32 : ImmFormat::F64;
  }
}

}  // namespace gputlm::isa
