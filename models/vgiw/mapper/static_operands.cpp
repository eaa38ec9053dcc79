#include "models/vgiw/mapper/static_operands.h"

#include <algorithm>

namespace gputlm::vgiw {

const std::vector<std::string>& static_folding_names() {
  static const std::vector<std::string> kNames = {"none", "launch_constants", "coordinates"};
  return kNames;
}

namespace {

// The value of operands taken together: Token if any is not static, else the most per-thread.
ValueSource join(ValueSource a, ValueSource b) {
  if (a == ValueSource::Token || b == ValueSource::Token) return ValueSource::Token;
  return std::max(a, b);
}

ValueSource special_source(isa::SReg s) {
  switch (s) {
    case isa::SReg::Tid:
    case isa::SReg::Ctaid:
      return ValueSource::Coordinate;
    case isa::SReg::Ntid:
    case isa::SReg::Nctaid:
      return ValueSource::Constant;
    default:
      return ValueSource::Token;  // %laneid, %smid, %clock, ...: an instruction on a unit
  }
}

// Arithmetic a configuration or an initiator could hold: the compute and special units'
// instruction classes, without the carry-flag readers (their carry is a hidden per-thread input).
bool foldable(const isa::Instruction& in) {
  if (in.is_memory() || in.op == isa::Opcode::Addc || in.op == isa::Opcode::Subc ||
      in.op == isa::Opcode::Madc)
    return false;
  switch (isa::instruction_class(in)) {
    case isa::InstrClass::IntAlu:
    case isa::InstrClass::IntMul:
    case isa::InstrClass::IntDiv:
    case isa::InstrClass::FloatAlu:
    case isa::InstrClass::FloatDiv:
    case isa::InstrClass::Sfu:
    case isa::InstrClass::Convert:
      return true;
    default:
      return false;
  }
}

}  // namespace

StaticOperands::StaticOperands(const isa::Kernel& k, const StaticOptions& options) {
  if (!options.configuration) return;
  m_pc.assign(k.code.size(), ValueSource::Token);
  m_reg.assign(k.regs.size(), ValueSource::Token);
  std::vector<uint32_t> definitions(k.regs.size(), 0);
  std::vector<int32_t> uses, defs;
  for (const isa::Instruction& in : k.code) {
    isa::instruction_registers(in, uses, defs);
    for (int32_t r : defs) ++definitions[size_t(r)];
  }
  // A register is static once its only definition is; arithmetic may fold once its operands
  // are. Registers only ever become static, so this settles within a pass per dependence level.
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t pc = 0; pc < k.code.size(); ++pc) {
      if (m_pc[pc] != ValueSource::Token) continue;
      const ValueSource s = classify(k.code[pc], options.folding);
      if (s == ValueSource::Token) continue;
      m_pc[pc] = s;
      isa::instruction_registers(k.code[pc], uses, defs);
      for (int32_t r : defs)
        if (definitions[size_t(r)] == 1) m_reg[size_t(r)] = s;
      changed = true;
    }
  }
}

ValueSource StaticOperands::classify(const isa::Instruction& in, StaticFolding folding) const {
  if (in.guard >= 0 || in.nops < 2) return ValueSource::Token;
  const bool parameter =
      in.is_load() && in.space == isa::Space::Param;  // a kernel's own: a function's are Local
  const bool special = in.op == isa::Opcode::Mov && in.ops[1].kind == isa::OperandKind::Special;
  if (!parameter && !special && (folding == StaticFolding::None || !foldable(in)))
    return ValueSource::Token;
  ValueSource s = ValueSource::Constant;  // immediates, symbol addresses
  for (unsigned i = 1; i < in.nops; ++i) {
    const isa::Operand& o = in.ops[i];
    if (o.kind == isa::OperandKind::Special) s = join(s, special_source(o.sreg));
    if (o.kind == isa::OperandKind::Reg || (o.kind == isa::OperandKind::Address && o.reg >= 0))
      s = join(s, of_reg(o.reg));
    if (o.kind == isa::OperandKind::Vector)
      for (unsigned v = 0; v < o.vec_n; ++v)
        if (o.vec[v] >= 0) s = join(s, of_reg(o.vec[v]));
  }
  if (parameter)
    return s == ValueSource::Constant ? s : ValueSource::Token;  // at a constant address
  if (!special && s == ValueSource::Coordinate && folding != StaticFolding::Coordinates)
    return ValueSource::Token;
  return s;
}

std::vector<int32_t> StaticOperands::live_values(const std::vector<int32_t>& live) const {
  std::vector<int32_t> out;
  for (int32_t r : live)
    if (of_reg(r) == ValueSource::Token) out.push_back(r);
  return out;
}

uint32_t StaticOperands::instructions() const {
  return static_cast<uint32_t>(std::count_if(
      m_pc.begin(), m_pc.end(), [](ValueSource s) { return s != ValueSource::Token; }));
}

}  // namespace gputlm::vgiw
