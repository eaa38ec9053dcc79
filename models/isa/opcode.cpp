#include "models/isa/opcode.h"

#include <array>

namespace gputlm::isa {
namespace {
struct OpInfo {
  std::string_view name;
  InstrClass cls;
  unsigned min_ops;
  unsigned max_ops;
};
constexpr std::array<OpInfo, static_cast<size_t>(Opcode::Count)> kOps = {{
#define GPUTLM_OP_INFO(e, name, cls, lo, hi) {name, InstrClass::cls, lo, hi},
    GPUTLM_OPCODES(GPUTLM_OP_INFO)
#undef GPUTLM_OP_INFO
}};
}  // namespace

std::string_view opcode_name(Opcode op) { return kOps[static_cast<size_t>(op)].name; }
InstrClass opcode_class(Opcode op) { return kOps[static_cast<size_t>(op)].cls; }
unsigned opcode_min_operands(Opcode op) { return kOps[static_cast<size_t>(op)].min_ops; }
unsigned opcode_max_operands(Opcode op) { return kOps[static_cast<size_t>(op)].max_ops; }

Opcode parse_opcode(std::string_view name) {
  for (size_t i = 0; i < kOps.size(); ++i)
    if (kOps[i].name == name) return static_cast<Opcode>(i);
  return Opcode::Count;
}

std::string_view instr_class_name(InstrClass c) {
  static constexpr std::array<std::string_view, kInstrClasses> kNames = {
      "int_alu", "int_mul", "int_div", "float_alu", "float_div", "sfu",       "convert",
      "memory",  "atomic",  "warp",    "barrier",   "control",   "prefix_sum", "tensor"};
  return kNames[static_cast<size_t>(c)];
}

}  // namespace gputlm::isa
