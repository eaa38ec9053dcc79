#include "models/isa/load_hoisting.h"

#include <algorithm>

#include "models/isa/cfg.h"

namespace gputlm::isa {
namespace {

bool loads(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::Ldu || in.op == Opcode::Ldmatrix ||
         (in.op == Opcode::Wmma && in.is_matrix_access() && !in.is_matrix_store());
}
bool stores(const Instruction& in) { return in.op == Opcode::St || in.is_matrix_store(); }

bool hoistable(const Instruction& in) {
  return loads(in) && (in.space == Space::Global || in.space == Space::Shared) &&
         !in.has(kVolatile);
}

bool reads_timer(const Instruction& in) {
  for (unsigned i = 0; i < in.nops; ++i)
    if (in.ops[i].kind == OperandKind::Special &&
        (in.ops[i].sreg == SReg::Clock || in.ops[i].sreg == SReg::Clock64 ||
         in.ops[i].sreg == SReg::Globaltimer || in.ops[i].sreg == SReg::GlobaltimerLo ||
         in.ops[i].sreg == SReg::GlobaltimerHi))
      return true;
  return false;
}

// A load of `space` may move above `in` as far as memory and ordering go (registers aside): `in`
// computes on registers only, or accesses another state space than `space`, named (a generic
// address may be any).
bool passable(const Instruction& in, Space space) {
  using C = InstrClass;
  if (in.is_call()) return false;  // a device service (printf, malloc) is classed as an ALU op
  if (loads(in) || stores(in))
    return in.space != Space::Generic && in.space != space && !in.has(kVolatile);
  switch (instruction_class(in)) {
    case C::IntAlu:
    case C::IntMul:
    case C::IntDiv:
    case C::FloatAlu:
    case C::FloatDiv:
    case C::Sfu:
    case C::Convert:
    case C::Tensor:
      return !reads_timer(in);
    default:
      return false;
  }
}

bool intersects(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  for (int32_t x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

}  // namespace

HoistedKernel hoist_loads(const Kernel& kernel) {
  HoistedKernel out{std::make_unique<Kernel>(kernel), 0};
  Kernel& k = *out.kernel;
  const size_t n = kernel.code.size();
  std::vector<InstructionRegisters> regs(n);
  for (size_t pc = 0; pc < n; ++pc) regs[pc] = registers_of(kernel.code[pc]);
  std::vector<uint32_t> order(n);  // new position -> old pc
  for (uint32_t pc = 0; pc < n; ++pc) order[pc] = pc;
  for (const BasicBlock& b : kernel.cfg.blocks) {
    for (uint32_t pos = b.begin; pos < b.end; ++pos) {
      const uint32_t load = order[pos];
      if (!hoistable(kernel.code[load])) continue;
      const InstructionRegisters& l = regs[load];
      uint32_t to = pos;
      while (to > b.begin) {
        const uint32_t above = order[to - 1];
        const InstructionRegisters& a = regs[above];
        if (!passable(kernel.code[above], kernel.code[load].space) || intersects(a.defs, l.uses) ||
            intersects(a.uses, l.defs) || intersects(a.defs, l.defs))
          break;
        --to;
      }
      if (to == pos) continue;
      std::rotate(order.begin() + to, order.begin() + pos, order.begin() + pos + 1);
      ++out.moved;
    }
  }
  std::vector<uint32_t> new_pc(n);
  for (uint32_t pos = 0; pos < n; ++pos) {
    new_pc[order[pos]] = pos;
    k.code[pos] = kernel.code[order[pos]];
    if (pos < kernel.text.size() && order[pos] < kernel.text.size())
      k.text[pos] = kernel.text[order[pos]];
    if (pos < kernel.lines.size() && order[pos] < kernel.lines.size())
      k.lines[pos] = kernel.lines[order[pos]];
  }
  for (SymbolRef& r : k.symbol_refs) r.pc = new_pc[r.pc];
  analyze_kernel(k);
  return out;
}

}  // namespace gputlm::isa
