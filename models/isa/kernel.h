// A parsed PTX kernel (.entry) and the module (file) holding it: declarations with their layout
// in each state space, the decoded instruction stream, source text per instruction for messages,
// and the control/dataflow analysis (cfg.h) filled in by analyze_kernel().
//
// Device functions (.func) are linked into each kernel that calls them (ptx_link.h): their code
// follows the kernel's own as separate pc ranges, their registers get slots of their own, and
// every `call` names a CallSite. Per-thread local memory is a stack of frames: the kernel's frame
// (its .local variables and the .param variables of its call sequences) at offset 0, each active
// call's frame above it; symbols of these frames are frame-relative (Operand::frame).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/error.h"
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

// Device functions have addresses (for function pointers: `mov.u64 %rd, f;`, tables of them in
// module variables): function i of Module::functions is at kFunctionAddressBase + 16 * i, a
// window no allocation or other space uses, so a load from it faults.
constexpr uint64_t kFunctionAddressBase = 0x00007D0000000000ull;
// Kernels (.entry) have addresses too, for device-side launches (CUDA dynamic parallelism: `mov.u64
// %rd, kernel;` gives the handle cudaLaunchDevice takes): entry i of Module::entries is at
// kKernelAddressBase + 16 * i, another window nothing else uses.
constexpr uint64_t kKernelAddressBase = 0x00007C0000000000ull;

// A variable of a frame: offset and bytes.
struct FrameVar {
  uint32_t offset = 0, size = 0;
};

// The device services CUDA provides as functions a module declares without a body (.extern
// .func): printf becomes vprintf, assert __assertfail, __nv_aligned_device_malloc a syscall, malloc
// and free stay (CUDA programming guide, "Formatted Output", "Assertion", "Dynamic Global Memory
// Allocation"); cudaGraphSetConditional sets a graph conditional's value ("Conditional Graph
// Nodes"). The CUDA device runtime of dynamic parallelism (cuda_device_runtime_api.h, "CUDA Dynamic
// Parallelism") becomes __cudaCDP2* functions: the parameter buffer and launch of a child grid,
// streams and events, device cudaMalloc/cudaFree, cudaMemcpyAsync/cudaMemsetAsync, the error calls
// and the device and version queries. A call of one runs in place on the functional engine
// (models/func/semantics/service_calls.cpp and cdp_calls.cpp).
enum class Builtin : uint8_t {
  None,
  Vprintf,
  AssertFail,
  Malloc,
  Free,
  AlignedMalloc,
  SetConditional,
  CdpGetParameterBuffer,
  CdpLaunchDevice,
  CdpStreamCreate,
  CdpEventCreate,
  CdpNoop,
  CdpMalloc,
  CdpFree,
  CdpMemcpyAsync,
  CdpMemsetAsync,
  CdpGetLastError,
  CdpPeekAtLastError,
  CdpGetErrorString,
  CdpGetDevice,
  CdpGetDeviceCount,
  CdpRuntimeGetVersion,
};

// A call site of a linked kernel: `call (rets), callee, (args);` at one pc, or through a register
// (`call (rets), %rd, (args), prototype;`: the call's operand 1, a function address).
struct CallSite {
  static constexpr uint32_t kIndirect = 0xFFFFFFFFu;
  struct Copy {
    uint32_t from = 0, to = 0, size = 0;  // frame offsets (bytes)
  };
  uint32_t callee =
      kIndirect;  // index into Kernel::functions; kIndirect: the target is in a register
  uint32_t caller_frame =
      0;  // bytes of the calling frame; the callee's frame starts after it (16-aligned)
  std::vector<Copy> args;  // direct: caller frame -> callee frame, at the call
  std::vector<Copy> rets;  // direct: callee frame -> caller frame, at the callee's ret
  std::vector<FrameVar> arg_vars, ret_vars;  // the call's .param variables in the caller's frame
  Builtin builtin =
      Builtin::None;  // a device service: callee unused, the instruction has kBuiltinCall
};

// A device function linked into a kernel. Its frame: a header (caller's frame offset, call site,
// this function's index and, in a kernel with a dynamic stack, the caller's stack pointer, 4 bytes
// each), its return values, parameters, .local variables and
// call-sequence .params, then, if it may recurse, the save area of its registers (restored at ret).
struct FunctionInfo {
  static constexpr uint32_t kHeaderBytes = 16;
  std::string name;
  int line = 0;           // its .func line
  uint32_t entry_pc = 0;  // first instruction
  uint32_t end_pc = 0;    // one past its last instruction
  int32_t reg_begin = 0;  // its register slots [reg_begin, reg_end)
  int32_t reg_end = 0;
  uint32_t frame_bytes = 0;            // whole frame
  uint32_t save_offset = 0;            // register save area (0: not recursive, nothing saved)
  std::vector<FrameVar> params, rets;  // its formal .param variables in its frame
  uint32_t module_index = 0;           // in Module::functions (its address)
};

// A variable of module scope (.global or .const): placed in global memory by
// func::load_module_variables (module_image.h).
struct ModuleVar {
  std::string name;
  Space space = Space::Global;  // Global or Const
  uint32_t size = 0;            // bytes (0 for an .extern array of unknown size)
  uint32_t align = 1;
  std::vector<uint8_t> init;  // initial bytes (shorter than size: the rest is zero)
  struct Reloc {              // an address initialiser: init[offset..+8) = address of name + addend
    uint32_t offset = 0;
    std::string name;
    int64_t addend = 0;
  };
  std::vector<Reloc> relocs;
  bool external = false;  // .extern: defined in another module
  int line = 0;
};

// An operand naming a module variable; its address is added when the kernel is bound
// (func::BoundKernel with a ModuleImage).
struct SymbolRef {
  uint32_t pc = 0;
  unsigned operand = 0;
  std::string name;
};

struct Kernel {
  std::string name;
  std::string file;             // PTX file it came from
  int line = 0;                 // line of its .entry
  std::vector<VarDecl> params;  // in declaration order
  uint32_t param_bytes = 0;
  std::vector<VarDecl> shared;         // static shared variables used by this kernel
  uint32_t shared_bytes = 0;           // static shared size
  uint32_t dynamic_shared_offset = 0;  // where extern .shared arrays start
  std::vector<VarDecl> locals;
  uint32_t frame_bytes = 0;  // the kernel's own frame: .local variables and call-sequence .params
  uint32_t local_bytes =
      0;  // per thread: the kernel's frame plus the call stack reserved for calls (and alloca's)
  bool dynamic_stack = false;  // alloca, stacksave or stackrestore in its code: a stack pointer per
                               // thread (kDynamicStackBytes)
  std::vector<RegDecl> regs;   // registers, by PTX register number
  // The functional engine's storage slot of each register, and how many slots: registers never
  // live at once share one (assign_register_slots, run by analyze_kernel). Empty before that:
  // one slot a register.
  std::vector<int32_t> reg_slot;
  uint32_t reg_slots = 0;
  std::vector<Instruction> code;
  std::vector<std::string> text;  // source text per instruction
  std::vector<int> lines;         // source line per instruction
  std::map<std::string, uint32_t> labels;
  std::vector<CallSite> calls;  // indexed by a call's operand 0
  // The .branchtargets lists (PTX ISA 9.7.12.4) as pcs, indexed by a brx.idx's operand 1.
  std::vector<std::vector<uint32_t>> branch_targets;
  std::vector<FunctionInfo> functions;  // linked device functions, in code order
  std::vector<int32_t>
      function_by_address;  // Module::functions index -> Kernel::functions index, -1 not linked
  std::vector<SymbolRef> symbol_refs;  // operands naming module variables
  Cfg cfg;                             // filled by analyze_kernel()
  // Cluster directives (PTX ISA 11.4, sm_90; __cluster_dims__ writes the first two):
  // .reqnctapercluster x, y, z (0: none), .explicitcluster, .maxclusterrank n (0: none).
  std::array<uint32_t, 3> cluster_dims{0, 0, 0};
  bool explicit_cluster = false;
  uint32_t max_cluster_rank = 0;

  // "file:line: `text`" of an instruction, for messages.
  std::string where(uint32_t pc) const;
  // `in` (of this kernel) calls through a function pointer: its callee differs per lane.
  bool calls_through_pointer(const Instruction& in) const {
    return in.is_call() && calls[static_cast<size_t>(in.ops[0].imm)].callee == CallSite::kIndirect;
  }
  // `in` sends each lane to a target of its own (ExecResult::addr): brx.idx, a call through a
  // pointer.
  bool has_lane_targets(const Instruction& in) const {
    return in.is_indexed_branch() || calls_through_pointer(in);
  }
};

struct Module {
  std::string file;
  std::string version;
  std::string target;  // as written, e.g. "sm_75, debug"
  unsigned address_size = 64;
  std::vector<std::unique_ptr<Kernel>> kernels;  // the kernels that parsed and linked
  std::vector<ModuleVar> variables;              // .global and .const variables
  std::vector<std::string> functions;  // every .func declared, in name order (function addresses)
  std::vector<std::string>
      entries;  // every .entry declared (.extern too), in name order (kernel addresses)
  // Kernels the front end could not take, with their error ("file:line: message: `text`"). The
  // rest of the module is still usable.
  std::map<std::string, SourceError> kernel_errors;

  // The kernel named `name`, or nullptr (also for a kernel in kernel_errors).
  const Kernel* find(const std::string& name) const;
  // The kernel named `name`; throws InputError with its parse error, or naming the kernels there
  // are.
  const Kernel& get(const std::string& name) const;
  const ModuleVar* variable(const std::string& name) const;
  // The address of device function `name` (kFunctionAddressBase + 16 * index), 0 if none.
  uint64_t function_address(const std::string& name) const;
  // The address of kernel `name` (kKernelAddressBase + 16 * index in entries), 0 if none.
  uint64_t kernel_address(const std::string& name) const;
  // The kernel at kernel address `address` (kKernelAddressBase + 16 * index of Module::entries),
  // nullptr when it is no kernel's or names one that is only declared or failed to parse.
  const Kernel* kernel_at(uint64_t address) const;
  // Throws the error of the first kernel that failed, if any (for readers that need every kernel).
  void require_all_kernels() const;
};

}  // namespace gputlm::isa
