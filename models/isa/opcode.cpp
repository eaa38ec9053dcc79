#include "models/isa/opcode.h"

#include <array>
#include <string>
#include <utility>

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
      "int_alu", "int_mul", "int_div", "float_alu", "float_div", "sfu",        "convert",
      "memory",  "atomic",  "warp",    "barrier",   "control",   "prefix_sum", "tensor"};
  return kNames[static_cast<size_t>(c)];
}

std::string unknown_opcode_message(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kBeyond[] = {
      {"wgmma", "warpgroup MMA needs sm_90a, which gputlm does not model"},
      {"setmaxnreg", "needs sm_90a, which gputlm does not model"},
      {"multimem",
       "multimem reaches the memory of several GPUs through a multicast object; gputlm simulates "
       "one device"},
      {"tcgen05", "the fifth-generation tensor core needs sm_100a, which gputlm does not model"},
      {"clusterlaunchcontrol", "needs sm_100, which gputlm does not model"}};
  for (const auto& [op, why] : kBeyond)
    if (name == op)
      return "opcode '" + std::string(name) + "' is not modelled: " + std::string(why);
  return "unknown opcode '" + std::string(name) + "'";
}

}  // namespace gputlm::isa
