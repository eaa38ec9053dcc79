// Calls and returns of device functions (PTX ISA 9.7.13.6-7): each calling thread pushes a frame
// on its own stack in local memory (kernel.h, FunctionInfo: header with the caller's frame, call
// site and callee, parameters copied from the call's .param variables, and for recursive
// functions the saved registers), and ret pops it (return values copied back, registers
// restored). An indirect call finds each lane's callee from the function address in its register
// and reports the callee's first pc per lane in ExecResult::addr. Where the warp goes next (the
// callee, back after the call) is the SIMT control's part (simt_stack.h).
#include <algorithm>
#include <cstring>

#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {
namespace {

uint32_t align16(uint32_t v) { return (v + 15) / 16 * 16; }

void save_registers(CtaState& cta, const isa::FunctionInfo& f, uint32_t tid, uint8_t* frame,
                    bool save) {
  uint8_t* area = frame + f.save_offset;
  for (int32_t r = f.reg_begin; r < f.reg_end; ++r, area += 8) {
    if (save)
      std::memcpy(area, &cta.reg(r, tid), 8);
    else
      std::memcpy(&cta.reg(r, tid), area, 8);
  }
}

// The callee of an indirect call for one thread, from the function address in its register.
uint32_t indirect_callee(ExecCtx& c, const isa::Kernel& k, uint32_t tid) {
  const uint64_t a = c.reg(c.in->ops[1].reg, tid);
  const uint64_t i = (a - isa::kFunctionAddressBase) / 16;
  if (a < isa::kFunctionAddressBase || a % 16 != 0 || i >= k.function_by_address.size() ||
      k.function_by_address[i] < 0)
    c.fault("call through an address that is not a function of the kernel", tid, a);
  return static_cast<uint32_t>(k.function_by_address[i]);
}

// Copies between the call's .param variables and the callee's, in order (an indirect call).
void copy_vars(ExecCtx& c, uint32_t tid, const std::vector<isa::FrameVar>& from, uint8_t* from_base,
               const std::vector<isa::FrameVar>& to, uint8_t* to_base, const std::string& callee) {
  if (from.size() != to.size())
    c.fault("call through a pointer to '" + callee + "' with " + std::to_string(from.size()) +
                " values where it has " + std::to_string(to.size()),
            tid, 0, false);
  for (size_t i = 0; i < from.size(); ++i)
    std::memcpy(to_base + to[i].offset, from_base + from[i].offset,
                std::min(from[i].size, to[i].size));
}

void call(ExecCtx& c) {
  const isa::Kernel& k = *c.launch().kernel;
  const auto site_index = static_cast<uint32_t>(c.in->ops[0].imm);
  const isa::CallSite& site = k.calls[site_index];
  const bool indirect = site.callee == isa::CallSite::kIndirect;
  CtaState& cta = *c.cta;
  lanes(c, [&](unsigned lane, uint32_t tid) {
    const uint32_t callee = indirect ? indirect_callee(c, k, tid) : site.callee;
    const isa::FunctionInfo& f = k.functions[callee];
    uint8_t* local = cta.local_of(tid);
    const uint32_t fp = cta.fp[tid];
    // With a stack pointer (alloca), the callee's frame goes above the caller's allocations too.
    const uint32_t callee_fp = align16(
        cta.sp.empty() ? fp + site.caller_frame : std::max(fp + site.caller_frame, cta.sp[tid]));
    if (uint64_t{callee_fp} + f.frame_bytes > k.local_bytes)
      c.fault("call stack overflow calling '" + f.name + "' (" + std::to_string(k.local_bytes) +
                  " bytes of local memory per thread)",
              tid, callee_fp);
    uint8_t* frame = local + callee_fp;
    std::memcpy(frame, &fp, 4);
    std::memcpy(frame + 4, &site_index, 4);
    std::memcpy(frame + 8, &callee, 4);
    if (!cta.sp.empty()) {  // the header's last word: the caller's stack pointer, back at ret
      std::memcpy(frame + 12, &cta.sp[tid], 4);
      cta.sp[tid] = callee_fp + f.frame_bytes;
    }
    if (indirect)
      copy_vars(c, tid, site.arg_vars, local + fp, f.params, frame, f.name);
    else
      for (const isa::CallSite::Copy& a : site.args)
        std::memcpy(frame + a.to, local + fp + a.from, a.size);
    if (f.save_offset) save_registers(cta, f, tid, frame, true);
    cta.fp[tid] = callee_fp;
    c.result->addr[lane] = f.entry_pc;
  });
  c.result->taken = c.mask;
}

void ret(ExecCtx& c) {
  const isa::Kernel& k = *c.launch().kernel;
  CtaState& cta = *c.cta;
  lanes(c, [&](unsigned, uint32_t tid) {
    uint8_t* local = cta.local_of(tid);
    uint8_t* frame = local + cta.fp[tid];
    uint32_t caller_fp, site_index, callee;
    std::memcpy(&caller_fp, frame, 4);
    std::memcpy(&site_index, frame + 4, 4);
    std::memcpy(&callee, frame + 8, 4);
    const isa::CallSite& site = k.calls[site_index];
    const isa::FunctionInfo& f = k.functions[callee];
    if (site.callee == isa::CallSite::kIndirect)
      copy_vars(c, tid, f.rets, frame, site.ret_vars, local + caller_fp, f.name);
    else
      for (const isa::CallSite::Copy& r : site.rets)
        std::memcpy(local + caller_fp + r.to, frame + r.from, r.size);
    if (f.save_offset) save_registers(cta, f, tid, frame, false);
    if (!cta.sp.empty())
      std::memcpy(&cta.sp[tid], frame + 12, 4);  // the callee's allocations are freed
    cta.fp[tid] = caller_fp;
  });
}

}  // namespace

ExecFn bind_call(const isa::Instruction& in) {
  if (in.has(isa::kBuiltinCall))
    return bind_service_call(in);  // a device service: runs in place (service_calls.cpp)
  if (in.is_call()) return call;
  if (in.is_return()) return ret;
  return nullptr;
}

}  // namespace gputlm::func::sem
