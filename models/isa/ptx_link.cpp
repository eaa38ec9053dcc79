#include "models/isa/ptx_link.h"

#include <algorithm>

#include "models/common/error.h"
#include "models/common/limits.h"

namespace gputlm::isa {
namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// The device services nvcc calls as functions a module declares without a body (kernel.h Builtin),
// with the parameter and return sizes of their prototypes, as nvcc 13 declares them in PTX:
// int vprintf(const char* format, const char* args); void __assertfail(const char* message, const
// char* file, unsigned line, const char* function, size_t char_size) (crt/common_functions.h);
// void* malloc(size_t); void free(void*); and void* __cuda_syscall_aligned_malloc(size_t size,
// size_t align), what __nv_aligned_device_malloc (crt/math_functions.h) becomes; and
// void cudaGraphSetConditional(cudaGraphConditionalHandle, unsigned) (cuda_device_runtime_api.h).
struct BuiltinSignature {
  const char* name;
  Builtin builtin;
  std::vector<uint32_t> params, rets;
};
const std::vector<BuiltinSignature>& builtin_signatures() {
  static const std::vector<BuiltinSignature> table = {
      {"vprintf", Builtin::Vprintf, {8, 8}, {4}},
      {"__assertfail", Builtin::AssertFail, {8, 8, 4, 8, 8}, {}},
      {"malloc", Builtin::Malloc, {8}, {8}},
      {"free", Builtin::Free, {8}, {}},
      {"__cuda_syscall_aligned_malloc", Builtin::AlignedMalloc, {8, 8}, {8}},
      {"cudaGraphSetConditional", Builtin::SetConditional, {8, 4}, {}},
      // cuda_device_runtime_api.h (CUDA 13): void* (void* func, dim3 grid, dim3 block, unsigned
      // smem); cudaError_t (void* buffer, cudaStream_t); (cudaStream_t*, unsigned flags);
      // (cudaStream_t); (void** p, size_t); (void*); (void* dst, const void* src, size_t,
      // cudaMemcpyKind, cudaStream_t); (void*, int, size_t, cudaStream_t); (); (); const char*
      // (cudaError_t); (cudaEvent_t*, unsigned flags); (cudaEvent_t); (cudaEvent_t, cudaStream_t
      // [, unsigned flags]); (cudaStream_t, cudaEvent_t, unsigned flags); (int*) for the device,
      // the device count and the runtime version. The _ptsz forms (per-thread default stream) take
      // the same arguments.
      {"__cudaCDP2GetParameterBufferV2", Builtin::CdpGetParameterBuffer, {8, 12, 12, 4}, {8}},
      {"__cudaCDP2LaunchDeviceV2", Builtin::CdpLaunchDevice, {8, 8}, {4}},
      {"__cudaCDP2LaunchDeviceV2_ptsz", Builtin::CdpLaunchDevice, {8, 8}, {4}},
      {"__cudaCDP2StreamCreateWithFlags", Builtin::CdpStreamCreate, {8, 4}, {4}},
      {"__cudaCDP2StreamDestroy", Builtin::CdpNoop, {8}, {4}},
      {"__cudaCDP2EventCreateWithFlags", Builtin::CdpEventCreate, {8, 4}, {4}},
      {"__cudaCDP2EventDestroy", Builtin::CdpNoop, {8}, {4}},
      {"__cudaCDP2EventRecord", Builtin::CdpNoop, {8, 8}, {4}},
      {"__cudaCDP2EventRecord_ptsz", Builtin::CdpNoop, {8, 8}, {4}},
      {"__cudaCDP2EventRecordWithFlags", Builtin::CdpNoop, {8, 8, 4}, {4}},
      {"__cudaCDP2EventRecordWithFlags_ptsz", Builtin::CdpNoop, {8, 8, 4}, {4}},
      {"__cudaCDP2StreamWaitEvent", Builtin::CdpNoop, {8, 8, 4}, {4}},
      {"__cudaCDP2StreamWaitEvent_ptsz", Builtin::CdpNoop, {8, 8, 4}, {4}},
      {"__cudaCDP2GetDevice", Builtin::CdpGetDevice, {8}, {4}},
      {"__cudaCDP2GetDeviceCount", Builtin::CdpGetDeviceCount, {8}, {4}},
      {"__cudaCDP2RuntimeGetVersion", Builtin::CdpRuntimeGetVersion, {8}, {4}},
      {"__cudaCDP2Malloc", Builtin::CdpMalloc, {8, 8}, {4}},
      {"__cudaCDP2Free", Builtin::CdpFree, {8}, {4}},
      {"__cudaCDP2MemcpyAsync", Builtin::CdpMemcpyAsync, {8, 8, 8, 4, 8}, {4}},
      {"__cudaCDP2MemcpyAsync_ptsz", Builtin::CdpMemcpyAsync, {8, 8, 8, 4, 8}, {4}},
      {"__cudaCDP2MemsetAsync", Builtin::CdpMemsetAsync, {8, 4, 8, 8}, {4}},
      {"__cudaCDP2MemsetAsync_ptsz", Builtin::CdpMemsetAsync, {8, 4, 8, 8}, {4}},
      {"__cudaCDP2GetLastError", Builtin::CdpGetLastError, {}, {4}},
      {"__cudaCDP2PeekAtLastError", Builtin::CdpPeekAtLastError, {}, {4}},
      {"__cudaCDP2GetErrorString", Builtin::CdpGetErrorString, {4}, {8}},
  };
  return table;
}
const BuiltinSignature* builtin_signature(const std::string& name) {
  for (const BuiltinSignature& b : builtin_signatures())
    if (name == b.name) return &b;
  return nullptr;
}
bool sizes_match(const std::vector<VarDecl>& vars, const std::vector<uint32_t>& sizes) {
  if (vars.size() != sizes.size()) return false;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (vars[i].size != sizes[i]) return false;
  return true;
}

// Moves an instruction of a function to its place in the kernel.
void relocate(Instruction& in, int32_t reg_base, uint32_t pc_base, uint32_t call_base,
              uint32_t list_base) {
  auto reg = [&](int32_t& r) {
    if (r >= 0) r += reg_base;
  };
  reg(in.guard);
  reg(in.dst2);
  for (unsigned i = 0; i < in.nops; ++i) {
    Operand& o = in.ops[i];
    if (o.kind == OperandKind::Reg || o.kind == OperandKind::Address) reg(o.reg);
    if (o.kind == OperandKind::Vector)
      for (unsigned j = 0; j < o.vec_n; ++j) reg(o.vec[j]);
    if (o.kind == OperandKind::Label) o.imm += pc_base;
  }
  if (in.is_call()) in.ops[0].imm += call_base;
  if (in.is_indexed_branch()) in.ops[1].imm += list_base;
}

class Linker {
 public:
  Linker(ParsedUnit& kernel, const std::map<std::string, ParsedUnit>& functions,
         const std::set<std::string>& address_taken, const std::vector<std::string>& entries)
      : m_kernel(kernel), m_functions(functions), m_address_taken(address_taken) {
    for (const auto& [name, u] : functions)
      m_address[name] = kFunctionAddressBase + 16 * m_address.size();
    for (size_t i = 0; i < entries.size(); ++i)
      m_kernel_address[entries[i]] = kKernelAddressBase + 16 * i;
  }

  std::unique_ptr<Kernel> run() {
    std::unique_ptr<Kernel> out = std::move(m_kernel.body);
    collect(m_kernel, *out);
    bind_function_refs(*out, m_kernel.function_refs, 0);
    if (m_order.empty() && m_builtins.empty()) {
      layout_shared(*out);
      out->local_bytes = out->frame_bytes;
      reserve_dynamic_stack(*out);
      analyze_kernel(*out);
      return out;
    }
    find_recursion();
    std::vector<const PendingCall*> calls;
    std::vector<uint32_t> caller_frame;
    for (const PendingCall& c : m_kernel.calls)
      calls.push_back(&c), caller_frame.push_back(out->frame_bytes);
    for (size_t i = 0; i < m_order.size(); ++i) append(*out, i, calls, caller_frame);
    for (size_t i = 0; i < calls.size(); ++i)
      out->calls.push_back(call_site(*out, *calls[i], caller_frame[i]));
    for (Instruction& in : out->code)
      if (in.op == Opcode::Call &&
          out->calls[static_cast<size_t>(in.ops[0].imm)].builtin != Builtin::None)
        in.flags |= kBuiltinCall;
    out->function_by_address.assign(m_functions.size(), -1);
    for (size_t i = 0; i < out->functions.size(); ++i)
      out->function_by_address[out->functions[i].module_index] = static_cast<int32_t>(i);
    layout_shared(*out);
    out->local_bytes = stack_bytes(*out);
    reserve_dynamic_stack(*out);
    analyze_kernel(*out);
    return out;
  }

 private:
  // The functions reachable from the kernel, in breadth-first order, each checked; after an
  // indirect call, every function whose address is taken that parsed.
  void collect(const ParsedUnit& root, const Kernel& k) {
    std::vector<const ParsedUnit*> work{&root};
    for (size_t w = 0; w < work.size(); ++w) {
      for (const PendingCall& c : work[w]->calls) {
        if (c.callee.empty() && !m_indirect) {
          m_indirect = true;
          for (const auto& [name, u] : m_functions)
            if (m_address_taken.count(name) && u.defined && u.error.empty() && !m_index.count(name))
              add(name, u, work);
        }
        if (c.callee.empty() || m_index.count(c.callee) || m_builtins.count(c.callee)) continue;
        auto it = m_functions.find(c.callee);
        // cudadevrt's own PTX (linked into -rdc programs) defines the __cudaCDP2* functions over
        // the driver's system calls: the engine takes them as the device runtime they are.
        const bool device_runtime = c.callee.rfind("__cudaCDP2", 0) == 0;
        if (it != m_functions.end() && (!it->second.defined || device_runtime) &&
            builtin_signature(c.callee)) {
          add_builtin(k, c, it->second);
          continue;
        }
        if (it == m_functions.end() || !it->second.defined) {
          const bool declared = it != m_functions.end();
          throw SourceError(
              k.file, c.line,
              "call to '" + c.callee + "'" +
                  (declared ? ", which has no body in this module" : ", which is not declared") +
                  " (kernel '" + k.name + "')");
        }
        if (!it->second.error.empty())
          throw SourceError(k.file, c.line,
                            "call to '" + c.callee + "', whose body the front end cannot take (" +
                                it->second.error + ") (kernel '" + k.name + "')");
        add(c.callee, it->second, work);
      }
    }
  }
  // A device service the module declares (.extern .func, no body): its declaration must have the
  // CUDA prototype's parameter and return sizes.
  void add_builtin(const Kernel& k, const PendingCall& c, const ParsedUnit& decl) {
    const BuiltinSignature& b = *builtin_signature(c.callee);
    if (!sizes_match(decl.params, b.params) || !sizes_match(decl.rets, b.rets))
      throw SourceError(k.file, decl.line ? decl.line : c.line,
                        "'" + c.callee +
                            "' is declared with parameters other than those of CUDA's device " +
                            c.callee + " (kernel '" + k.name + "')");
    m_builtins[c.callee] = b.builtin;
  }
  bool is_builtin(const PendingCall& c) const {
    return !c.callee.empty() && m_builtins.count(c.callee);
  }
  void add(const std::string& name, const ParsedUnit& u, std::vector<const ParsedUnit*>& work) {
    m_index[name] = static_cast<uint32_t>(m_order.size());
    m_order.push_back(&u);
    m_names.push_back(name);
    work.push_back(&u);
  }
  // Shared memory of the linked kernel: its own static variables, then each linked function's
  // .shared variables (one copy per CTA however often it is called), then dynamic shared memory.
  void layout_shared(Kernel& out) const {
    uint64_t bytes = out.shared_bytes;
    for (size_t i = 0; i < m_order.size(); ++i) {
      const ParsedUnit& u = *m_order[i];
      uint32_t align = 1;
      for (const VarDecl& d : u.shared) align = std::max(align, d.align);
      const uint64_t base = (bytes + align - 1) / align * align;
      for (VarDecl d : u.shared) {
        d.offset += static_cast<uint32_t>(base);
        out.shared.push_back(d);
      }
      bytes = base + u.shared_bytes;
      if (bytes > limits::kMaxVariableBytes)
        throw SourceError(out.file, u.line,
                          "the shared memory of kernel '" + out.name + "' with function '" +
                              m_names[i] + "' is larger than " +
                              std::to_string(limits::kMaxVariableBytes) + " bytes" +
                              limits::named("max_variable_bytes"));
      for (const auto& [pc, index] : u.shared_refs)
        out.code[out.functions[i].entry_pc + pc].ops[index].imm += static_cast<int64_t>(base);
    }
    out.shared_bytes = static_cast<uint32_t>(bytes);
    out.dynamic_shared_offset = align_up(out.shared_bytes, 16);
    for (const auto& [pc, index] : m_kernel.dynamic_refs)
      out.code[pc].ops[index].imm += out.dynamic_shared_offset;
    for (size_t i = 0; i < m_order.size(); ++i)
      for (const auto& [pc, index] : m_order[i]->dynamic_refs)
        out.code[out.functions[i].entry_pc + pc].ops[index].imm += out.dynamic_shared_offset;
  }
  // `mov.u64 %rd, f`: the operand becomes f's address.
  void bind_function_refs(Kernel& out, const std::vector<SymbolRef>& refs, uint32_t pc_base) const {
    for (const SymbolRef& r : refs) {
      auto f = m_address.find(r.name);
      out.code[r.pc + pc_base].ops[r.operand].imm =
          static_cast<int64_t>(f != m_address.end() ? f->second : m_kernel_address.at(r.name));
    }
  }
  // A function is recursive when it can reach itself through calls (any function, when calls
  // go through pointers).
  void find_recursion() {
    const size_t n = m_order.size();
    m_recursive.assign(n, m_indirect);
    if (m_indirect) return;
    for (size_t f = 0; f < n; ++f) {
      std::vector<bool> seen(n, false);
      std::vector<size_t> work{f};
      while (!work.empty() && !m_recursive[f]) {
        const size_t g = work.back();
        work.pop_back();
        for (const PendingCall& c : m_order[g]->calls) {
          if (is_builtin(c)) continue;
          const size_t h = m_index.at(c.callee);  // no indirect calls here (see above)
          if (h == f) m_recursive[f] = true;
          if (!seen[h]) seen[h] = true, work.push_back(h);
        }
      }
    }
  }
  void append(Kernel& out, size_t i, std::vector<const PendingCall*>& calls,
              std::vector<uint32_t>& caller_frame) {
    const ParsedUnit& u = *m_order[i];
    const Kernel& f = *u.body;
    FunctionInfo info;
    info.name = m_names[i];
    info.line = u.line;
    info.entry_pc = static_cast<uint32_t>(out.code.size());
    info.reg_begin = static_cast<int32_t>(out.regs.size());
    info.reg_end = info.reg_begin + static_cast<int32_t>(f.regs.size());
    info.frame_bytes = f.frame_bytes;
    info.module_index =
        static_cast<uint32_t>((m_address.at(info.name) - kFunctionAddressBase) / 16);
    for (const VarDecl& d : u.params) info.params.push_back({d.offset, d.size});
    for (const VarDecl& d : u.rets) info.rets.push_back({d.offset, d.size});
    if (m_recursive[i]) {
      info.save_offset = align_up(f.frame_bytes, 8);
      info.frame_bytes = info.save_offset + 8 * static_cast<uint32_t>(f.regs.size());
    }
    const uint32_t call_base = static_cast<uint32_t>(calls.size());
    for (const PendingCall& c : u.calls)
      calls.push_back(&c), caller_frame.push_back(info.frame_bytes);
    for (const RegDecl& r : f.regs) out.regs.push_back({info.name + "::" + r.name, r.type});
    const auto list_base = static_cast<uint32_t>(out.branch_targets.size());
    for (std::vector<uint32_t> list : f.branch_targets) {
      for (uint32_t& pc : list) pc += info.entry_pc;
      out.branch_targets.push_back(std::move(list));
    }
    for (size_t pc = 0; pc < f.code.size(); ++pc) {
      Instruction in = f.code[pc];
      relocate(in, info.reg_begin, info.entry_pc, call_base, list_base);
      out.code.push_back(in);
      out.text.push_back(f.text[pc]);
      out.lines.push_back(f.lines[pc]);
    }
    out.labels[info.name] = info.entry_pc;
    for (const auto& [name, pc] : f.labels)
      out.labels[info.name + "::" + name] = info.entry_pc + pc;
    for (SymbolRef r : f.symbol_refs) {
      r.pc += info.entry_pc;
      out.symbol_refs.push_back(r);
    }
    bind_function_refs(out, u.function_refs, info.entry_pc);
    info.end_pc = static_cast<uint32_t>(out.code.size());
    out.functions.push_back(info);
  }
  CallSite call_site(const Kernel& out, const PendingCall& c, uint32_t frame) const {
    CallSite s;
    s.caller_frame = frame;
    for (const VarDecl& d : c.args) s.arg_vars.push_back({d.offset, d.size});
    for (const VarDecl& d : c.rets) s.ret_vars.push_back({d.offset, d.size});
    if (c.callee.empty()) return s;  // indirect: matched with the callee at the call
    if (is_builtin(c)) {  // a device service: reads its arguments from the call's .param variables
      s.builtin = m_builtins.at(c.callee);
      const BuiltinSignature& b = *builtin_signature(c.callee);
      if (c.args.size() != b.params.size() || c.rets.size() > b.rets.size())
        throw SourceError(out.file, c.line,
                          "call to '" + c.callee + "' passes " + std::to_string(c.args.size()) +
                              " parameters and " + std::to_string(c.rets.size()) +
                              " return values; CUDA's device " + c.callee + " takes " +
                              std::to_string(b.params.size()) + " and " +
                              std::to_string(b.rets.size()));
      for (size_t i = 0; i < c.args.size(); ++i)
        if (c.args[i].size < b.params[i])
          throw SourceError(out.file, c.line,
                            "call to '" + c.callee + "': parameter " + std::to_string(i) + " has " +
                                std::to_string(c.args[i].size) + " bytes, CUDA's device " +
                                c.callee + " takes " + std::to_string(b.params[i]));
      return s;
    }
    s.callee = m_index.at(c.callee);
    const ParsedUnit& f = *m_order[s.callee];
    auto match = [&](const std::vector<VarDecl>& given, const std::vector<VarDecl>& formal,
                     const char* what, bool to_callee) {
      if (given.size() != formal.size())
        throw SourceError(out.file, c.line,
                          "call to '" + c.callee + "' passes " + std::to_string(given.size()) +
                              " " + what + ", the function has " + std::to_string(formal.size()));
      std::vector<CallSite::Copy> copies;
      for (size_t i = 0; i < given.size(); ++i) {
        const uint32_t size = std::min(given[i].size, formal[i].size);
        copies.push_back(to_callee ? CallSite::Copy{given[i].offset, formal[i].offset, size}
                                   : CallSite::Copy{formal[i].offset, given[i].offset, size});
      }
      return copies;
    };
    s.args = match(c.args, f.params, "parameters", true);
    s.rets = match(c.rets, f.rets, "return values", false);
    return s;
  }
  // Per-thread local memory: the kernel's frame and the deepest chain of call frames, or the
  // fixed reserve when calls recurse.
  // alloca and the stack pointer instructions anywhere in the linked code: kDynamicStackBytes more.
  static void reserve_dynamic_stack(Kernel& out) {
    for (const Instruction& in : out.code)
      if (in.op == Opcode::Alloca || in.op == Opcode::Stacksave || in.op == Opcode::Stackrestore)
        out.dynamic_stack = true;
    if (out.dynamic_stack) out.local_bytes = align_up(out.local_bytes, 16) + kDynamicStackBytes;
  }

  uint32_t stack_bytes(const Kernel& out) const {
    const uint32_t base = align_up(out.frame_bytes, 16);
    if (m_indirect || std::find(m_recursive.begin(), m_recursive.end(), true) != m_recursive.end())
      return base + kRecursionStackBytes;
    // Without recursion the call graph is acyclic: the need of a function is its frame plus the
    // largest need of its callees (memoised, callees first by repeated relaxation).
    std::vector<uint32_t> need(m_order.size(), 0);
    for (size_t round = 0; round <= m_order.size(); ++round)
      for (size_t f = 0; f < m_order.size(); ++f) {
        uint32_t deepest = 0;
        for (const PendingCall& c : m_order[f]->calls)
          if (!is_builtin(c)) deepest = std::max(deepest, need[m_index.at(c.callee)]);
        need[f] = align_up(out.functions[f].frame_bytes, 16) + deepest;
      }
    uint32_t deepest = 0;
    for (const PendingCall& c : m_kernel.calls)
      if (!is_builtin(c)) deepest = std::max(deepest, need[m_index.at(c.callee)]);
    return base + deepest;
  }

  ParsedUnit& m_kernel;
  const std::map<std::string, ParsedUnit>& m_functions;
  const std::set<std::string>& m_address_taken;
  std::map<std::string, uint32_t> m_index;
  std::vector<const ParsedUnit*> m_order;
  std::vector<std::string> m_names;
  std::vector<bool> m_recursive;
  std::map<std::string, uint64_t> m_address;         // every function of the module: its address
  std::map<std::string, uint64_t> m_kernel_address;  // every kernel of the module: its address
  std::map<std::string, Builtin> m_builtins;         // device services the linked code calls
  bool m_indirect = false;                           // some linked code calls through a register
};

}  // namespace

std::unique_ptr<Kernel> link_kernel(ParsedUnit& kernel,
                                    const std::map<std::string, ParsedUnit>& functions,
                                    const std::set<std::string>& address_taken,
                                    const std::vector<std::string>& entries) {
  return Linker(kernel, functions, address_taken, entries).run();
}

}  // namespace gputlm::isa
