// Name resolution for the PTX parser: nested { } scopes of registers (inner declarations shadow
// outer ones, as nvcc's inline-asm wrappers rely on) and the kernel's symbols (params, shared and
// local variables, module variables) with their space and byte offset.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/isa/types.h"

namespace gputlm::isa {

class ScopeStack {
 public:
  struct Symbol {
    Space space;
    uint32_t offset;
    bool dynamic;  // extern .shared array: offset relative to the end of static shared memory
    bool frame;    // a variable of the current frame (.local, function and call .param): offset in
                   // the frame
    uint32_t size;
    bool module;           // a .global/.const module variable: its address is bound later
    bool function_shared;  // a .shared variable of a function's body: placed in each kernel when
                           // linked
  };

  void push() { m_regs.emplace_back(); }
  void pop() { m_regs.pop_back(); }
  size_t depth() const { return m_regs.size(); }

  void add_reg(const std::string& name, int32_t slot) { m_regs.back()[name] = slot; }
  // Innermost register of that name, or -1.
  int32_t find_reg(const std::string& name) const {
    for (auto it = m_regs.rbegin(); it != m_regs.rend(); ++it)
      if (auto f = it->find(name); f != it->end()) return f->second;
    return -1;
  }
  void add_symbol(const std::string& name, Space space, uint32_t offset, bool dynamic = false,
                  bool frame = false, uint32_t size = 0, bool module = false,
                  bool function_shared = false) {
    m_symbols[name] = {space, offset, dynamic, frame, size, module, function_shared};
  }
  const Symbol* find_symbol(const std::string& name) const {
    auto it = m_symbols.find(name);
    return it == m_symbols.end() ? nullptr : &it->second;
  }

 private:
  std::vector<std::map<std::string, int32_t>> m_regs;
  std::map<std::string, Symbol> m_symbols;
};

}  // namespace gputlm::isa
