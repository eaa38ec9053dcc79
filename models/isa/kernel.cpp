#include "models/isa/kernel.h"

namespace gputlm::isa {

std::string Kernel::where(uint32_t pc) const {
  if (pc >= code.size()) return file + ": kernel " + name + ", pc " + std::to_string(pc);
  return file + ":" + std::to_string(lines[pc]) + ": `" + text[pc] + "`";
}

const Kernel* Module::find(const std::string& name) const {
  for (const auto& k : kernels)
    if (k->name == name) return k.get();
  return nullptr;
}

}  // namespace gputlm::isa
