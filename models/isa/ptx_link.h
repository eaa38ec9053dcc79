// Links the device functions (.func) a kernel calls into the kernel: each reachable function's
// code is appended to the kernel's as its own pc range, with register slots and call sites of
// its own, and every call site gets its callee, frame layout and argument copies (kernel.h,
// CallSite). Recursive functions (in a cycle of the call graph) save their registers in their
// frame. Inlining is not done: calls stay calls, so recursion works.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/isa/kernel.h"

namespace gputlm::isa {

// Bytes of call stack per thread reserved for a kernel with recursive calls (CUDA's default
// cudaLimitStackSize is 1KB); deeper recursion is a kernel fault ("call stack overflow").
constexpr uint32_t kRecursionStackBytes = 8192;
// Local memory per thread reserved beyond the frames for alloca (PTX ISA 9.7.16.1): CUDA's default
// cudaLimitStackSize, a choice (the per-thread stack a GPU gives alloca is the driver's).
constexpr uint32_t kDynamicStackBytes = 1024;

// A call as parsed, before linking: the .param variables of the calling frame it passes.
struct PendingCall {
  uint32_t pc = 0;
  std::string callee;  // empty: an indirect call (the function's address in the call's operand 1)
  int line = 0;
  std::vector<VarDecl> args, rets;  // frame offsets and sizes in the caller's frame
};

// A kernel or function as parsed: its own code from pc 0 and registers from slot 0.
struct ParsedUnit {
  std::unique_ptr<Kernel> body;  // code, regs, labels, frame_bytes (functions: whole frame)
  std::vector<PendingCall> calls;
  std::vector<SymbolRef> function_refs;  // operands naming a function: its address
  std::vector<VarDecl> params,
      rets;              // functions: formal parameters and return values (frame offsets)
  bool defined = false;  // a function with a body (not only a prototype)
  std::string error;     // the body did not parse: "file:line: ..."
  // Operands (pc, operand index) the linker completes: those naming an extern .shared array get
  // the kernel's dynamic shared offset, known once every linked function's shared variables are
  // placed; those naming a .shared variable of a function's body get where it was placed.
  std::vector<std::pair<uint32_t, unsigned>> dynamic_refs, shared_refs;
  std::vector<VarDecl> shared;  // functions: .shared variables of the body (offsets from 0)
  uint32_t shared_bytes = 0;
  int line = 0;
};

// Links `kernel` (its body is moved into the result) with the functions of its module; throws
// SourceError naming the call when a callee is missing, failed to parse, or does not match its
// call's arguments. A kernel with an indirect call (or reaching one) also links every function
// of `address_taken` (the functions whose address the module takes) that parsed, and treats all
// its functions as possibly recursive. Runs analyze_kernel on the result.
// `entries` are the module's kernel names in order (Module::entries): an operand naming one gets
// its kernel address.
std::unique_ptr<Kernel> link_kernel(ParsedUnit& kernel,
                                    const std::map<std::string, ParsedUnit>& functions,
                                    const std::set<std::string>& address_taken,
                                    const std::vector<std::string>& entries);

}  // namespace gputlm::isa
