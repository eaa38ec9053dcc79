#include "models/isa/kernel.h"

#include <algorithm>

#include "models/common/error.h"

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

const Kernel& Module::get(const std::string& name) const {
  if (const Kernel* k = find(name)) return *k;
  if (auto it = kernel_errors.find(name); it != kernel_errors.end()) throw it->second;
  std::string known;
  for (const auto& k : kernels) known += (known.empty() ? "" : ", ") + k->name;
  for (const auto& [n, e] : kernel_errors)
    known += (known.empty() ? "" : ", ") + n + " (not parsed)";
  throw InputError(file + ": no kernel named '" + name +
                   "' (kernels: " + (known.empty() ? "none" : known) + ")");
}

void Module::require_all_kernels() const {
  if (!kernel_errors.empty()) throw kernel_errors.begin()->second;
}

uint64_t Module::function_address(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i] == name) return kFunctionAddressBase + 16 * i;
  return 0;
}

uint64_t Module::kernel_address(const std::string& name) const {
  auto it = std::lower_bound(entries.begin(), entries.end(), name);
  return it != entries.end() && *it == name
             ? kKernelAddressBase + 16 * static_cast<uint64_t>(it - entries.begin())
             : 0;
}

const Kernel* Module::kernel_at(uint64_t address) const {
  if (address < kKernelAddressBase || address % 16 != 0) return nullptr;
  const uint64_t i = (address - kKernelAddressBase) / 16;
  return i < entries.size() ? find(entries[i]) : nullptr;
}

const ModuleVar* Module::variable(const std::string& name) const {
  for (const auto& v : variables)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace gputlm::isa
