// A parsed PTX kernel (.entry) and the module (file) holding it: declarations with their layout
// in each state space, the decoded instruction stream, source text per instruction for messages,
// and the control/dataflow analysis (cfg.h) filled in by analyze_kernel().
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/isa/cfg.h"
#include "models/isa/instruction.h"

namespace gputlm::isa {

struct RegDecl {
  std::string name;  // as written, e.g. "%r12"
  DType type = DType::B32;
};

// A variable in the param, shared or local space, with its byte offset in that space.
struct VarDecl {
  std::string name;
  Space space = Space::Shared;
  DType type = DType::B8;
  uint32_t size = 0;   // bytes
  uint32_t align = 1;  // bytes
  uint32_t offset = 0;
};

struct Kernel {
  std::string name;
  std::string file;  // PTX file it came from
  int line = 0;      // line of its .entry
  std::vector<VarDecl> params;  // in declaration order
  uint32_t param_bytes = 0;
  std::vector<VarDecl> shared;  // static shared variables used by this kernel
  uint32_t shared_bytes = 0;    // static shared size
  uint32_t dynamic_shared_offset = 0;  // where extern .shared arrays start
  std::vector<VarDecl> locals;
  uint32_t local_bytes = 0;  // per thread
  std::vector<RegDecl> regs;  // register slots
  std::vector<Instruction> code;
  std::vector<std::string> text;  // source text per instruction
  std::vector<int> lines;         // source line per instruction
  std::map<std::string, uint32_t> labels;
  Cfg cfg;  // filled by analyze_kernel()

  // "file:line: `text`" of an instruction, for messages.
  std::string where(uint32_t pc) const;
};

struct Module {
  std::string file;
  std::string version;
  std::string target;
  unsigned address_size = 64;
  std::vector<std::unique_ptr<Kernel>> kernels;

  const Kernel* find(const std::string& name) const;
};

}  // namespace gputlm::isa
