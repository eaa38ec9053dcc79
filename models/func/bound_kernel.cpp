#include "models/func/bound_kernel.h"

#include <stdexcept>

#include "models/common/error.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func {

BoundKernel::BoundKernel(const isa::Kernel& kernel, const ModuleImage* image, uint64_t code_address)
    : m_kernel(&kernel), m_code_address(code_address), m_code(kernel.code) {
  for (const isa::SymbolRef& r : kernel.symbol_refs) {
    auto it = image ? image->address.find(r.name) : decltype(image->address.end()){};
    if (!image || it == image->address.end())
      throw SourceError(kernel.file, kernel.lines[r.pc],
                        "instruction names module variable '" + r.name +
                            "', which has no device address (load the module's variables first)",
                        kernel.text[r.pc]);
    m_code[r.pc].ops[r.operand].imm += static_cast<int64_t>(it->second);
  }
  m_fns.reserve(kernel.code.size());
  for (size_t pc = 0; pc < kernel.code.size(); ++pc) {
    ExecFn fn = nullptr;
    try {
      fn = bind_instruction(kernel.code[pc]);
    } catch (const std::invalid_argument& e) {  // a form the engine names as not supported
      throw SourceError(kernel.file, kernel.lines[pc], e.what(), kernel.text[pc]);
    }
    if (!fn)
      throw SourceError(kernel.file, kernel.lines[pc],
                        "instruction not supported by the functional engine (opcode, type or "
                        "modifier combination)",
                        kernel.text[pc]);
    m_fns.push_back(fn);
    m_registers.push_back(isa::registers_of(kernel.code[pc]));
    m_classes.push_back(isa::instruction_class(kernel.code[pc]));
  }
}

}  // namespace gputlm::func
