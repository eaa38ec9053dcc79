// Calls of the device services CUDA provides (kernel.h Builtin): vprintf, __assertfail, malloc,
// free and __cuda_syscall_aligned_malloc (__nv_aligned_device_malloc). Unlike a call of a device
// function, such a call pushes no frame and moves no pc: it runs in place for the active lanes, in
// lane order, reading its arguments from the call's .param variables in the caller's frame and
// writing its return value to the call's return .param, and the warp goes on to the next
// instruction (its timing is an ALU instruction's, isa::instruction_class). The state lives in the
// launch's DeviceServices.
//   vprintf(format, args): one printf record per thread (printf_format.h), returns the number of
//     arguments parsed, -1 for a null format (CUDA programming guide, "Formatted Output").
//   __assertfail(message, file, line, function, char_size): records CUDA's message
//     "file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `message` failed." for each
//     active lane, then stops the launch with a kernel fault ("Assertion": the kernel stops and
//     the host's next synchronisation returns cudaErrorAssert).
//   malloc(size), __nv_aligned_device_malloc(size, align): a heap block or NULL (align not a power
//     of two: NULL); free(ptr):
//     free(NULL) does nothing, an address that is no block is a kernel fault ("Dynamic Global
//     Memory Allocation and Operations").
//   cudaGraphSetConditional(handle, value): a graph conditional's handle is the device address of
//     its 32-bit value (the runtime makes it so); each active lane stores `value` there, in lane
//     order. A handle that is no device memory is a kernel fault.
#include <cstring>

#include "models/func/device_services.h"
#include "models/func/printf_format.h"
#include "models/func/semantics/service_call_support.h"

namespace gputlm::func::sem {
namespace {

// vprintf's argument buffer: each argument at the next multiple of its size.
class DeviceArguments : public PrintfArguments {
 public:
  DeviceArguments(const ThreadMemory& mem, uint64_t base) : m_mem(mem), m_base(base) {}
  uint64_t next(unsigned bytes) override {
    m_offset = (m_offset + bytes - 1) / bytes * bytes;
    uint64_t v = 0;
    if (!m_base)
      m_mem.ctx().fault("printf: a conversion has no argument (vprintf got no argument buffer)",
                        m_mem.tid(), 0, false);
    if (!m_mem.read(m_base + m_offset, &v, bytes))
      m_mem.ctx().fault("printf: argument buffer outside device memory", m_mem.tid(),
                        m_base + m_offset);
    m_offset += bytes;
    return v;
  }
  std::string string_at(uint64_t address, size_t max) override {
    return m_mem.string_at(address, max, "printf: the %s argument");
  }

 private:
  const ThreadMemory& m_mem;
  uint64_t m_base, m_offset = 0;
};

void vprintf(ExecCtx& c, const isa::CallSite& s, DeviceServices& services) {
  lanes(c, [&](unsigned, uint32_t tid) {
    const ThreadMemory mem(c, tid);
    const uint64_t format = argument(c, s, tid, 0, 8);
    if (!format) return set_result(c, s, tid, static_cast<uint64_t>(int64_t{-1}));
    DeviceArguments args(mem, argument(c, s, tid, 1, 8));
    PrintfOutput out =
        format_printf(mem.string_at(format, std::string::npos, "printf: the format"), args);
    services.print(std::move(out.text), out.record_bytes);
    set_result(c, s, tid, static_cast<uint64_t>(int64_t{out.arguments}));
  });
}

void assertfail(ExecCtx& c, const isa::CallSite& s, DeviceServices& services) {
  const Dim3& b = c.launch().block;
  const Dim3& cta = c.cta->ctaid;
  std::string first;
  uint32_t first_tid = 0;
  lanes(c, [&](unsigned, uint32_t tid) {
    const ThreadMemory mem(c, tid);
    const std::string message =
        mem.string_at(argument(c, s, tid, 0, 8), std::string::npos, "assert: the message");
    const std::string file =
        mem.string_at(argument(c, s, tid, 1, 8), std::string::npos, "assert: the file name");
    const auto line = static_cast<uint32_t>(argument(c, s, tid, 2, 4));
    const std::string function =
        mem.string_at(argument(c, s, tid, 3, 8), std::string::npos, "assert: the function name");
    const std::string text =
        file + ":" + std::to_string(line) + ": " + function + ": block: [" + std::to_string(cta.x) +
        "," + std::to_string(cta.y) + "," + std::to_string(cta.z) + "], thread: [" +
        std::to_string(tid % b.x) + "," + std::to_string(tid / b.x % b.y) + "," +
        std::to_string(tid / (b.x * b.y)) + "] Assertion `" + message + "` failed.";
    if (first.empty()) first = text, first_tid = tid;
    services.assertion_failed(text);
  });
  if (!first.empty()) c.fault("device assertion failed: " + first, first_tid, 0, false);
}

void allocate(ExecCtx& c, const isa::CallSite& s, DeviceServices& services, bool aligned) {
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t bytes = argument(c, s, tid, 0, 8);
    const uint64_t align = aligned ? argument(c, s, tid, 1, 8) : DeviceHeap::kAlignment;
    set_result(c, s, tid, services.malloc(*c.launch().memory, bytes, align));
  });
}

void release(ExecCtx& c, const isa::CallSite& s, DeviceServices& services) {
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t address = argument(c, s, tid, 0, 8);
    if (address && !services.free(address))
      c.fault("free of an address device malloc did not return (or freed already)", tid, address);
  });
}

void set_conditional(ExecCtx& c, const isa::CallSite& s) {
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t handle = argument(c, s, tid, 0, 8);
    const auto value = static_cast<uint32_t>(argument(c, s, tid, 1, 4));
    GlobalMemory& mem = *c.launch().memory;
    if (!mem.find(handle, 4))
      c.fault("cudaGraphSetConditional of a handle that is no conditional's", tid, handle);
    mem.write(handle, &value, 4);
  });
}

const char* name_of(isa::Builtin b) {
  switch (b) {
    case isa::Builtin::Vprintf:
      return "vprintf";
    case isa::Builtin::AssertFail:
      return "__assertfail";
    case isa::Builtin::Malloc:
      return "malloc";
    case isa::Builtin::Free:
      return "free";
    case isa::Builtin::AlignedMalloc:
      return "__cuda_syscall_aligned_malloc";
    case isa::Builtin::SetConditional:
      return "cudaGraphSetConditional";
    case isa::Builtin::None:
      break;
    default:
      return "the CUDA device runtime (dynamic parallelism)";
  }
  return "?";
}

void service_call(ExecCtx& c) {
  const isa::CallSite& s = c.launch().kernel->calls[static_cast<size_t>(c.in->ops[0].imm)];
  DeviceServices* services = c.launch().services;
  if (!c.mask) return;
  if (!services)
    c.fault(
        std::string("call to '") + name_of(s.builtin) + "': this run provides no device services",
        c.group.tid(lowest_lane(c.mask)), 0, false);
  switch (s.builtin) {
    case isa::Builtin::Vprintf:
      return vprintf(c, s, *services);
    case isa::Builtin::AssertFail:
      return assertfail(c, s, *services);
    case isa::Builtin::Malloc:
      return allocate(c, s, *services, false);
    case isa::Builtin::AlignedMalloc:
      return allocate(c, s, *services, true);
    case isa::Builtin::Free:
      return release(c, s, *services);
    case isa::Builtin::SetConditional:
      return set_conditional(c, s);
    case isa::Builtin::None:
      break;
    default:
      return cdp_call(c, s, *services);
  }
}

}  // namespace

ExecFn bind_service_call(const isa::Instruction& in) {
  return in.op == isa::Opcode::Call && in.has(isa::kBuiltinCall) ? service_call : nullptr;
}

}  // namespace gputlm::func::sem
