// What the device services (service_calls.cpp, cdp_calls.cpp) share: a thread's view of device
// memory at generic addresses, and a call's arguments and return value in the caller's frame.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>

#include "models/func/device_services.h"
#include "models/func/semantics/semantics.h"

namespace gputlm::func::sem {

// What a service reads from device memory for one thread, at a generic address (PTX ISA 5.1.6,
// generic addressing: the shared and local windows, everything else global).
class ThreadMemory {
 public:
  ThreadMemory(ExecCtx& c, uint32_t tid) : m_c(c), m_tid(tid) {}

  // Copies [address, address + bytes) into `out`; false when it is outside its space's memory.
  bool read(uint64_t address, void* out, uint64_t bytes) const {
    CtaState& cta = *m_c.cta;
    if (address - kSharedWindow < kWindowSize) {
      const uint8_t* p = cta.shared_at(address - kSharedWindow, bytes);
      if (!p) return false;
      std::memcpy(out, p, bytes);
    } else if (address - kLocalWindow < kWindowSize) {
      const uint64_t at = address - kLocalWindow;
      if (at + bytes > m_c.launch().kernel->local_bytes) return false;
      std::memcpy(out, cta.local_of(m_tid) + at, bytes);
    } else {
      const GlobalMemory& mem = *m_c.launch().memory;
      if (!mem.find(address, bytes)) return false;
      mem.read(address, out, bytes);
    }
    return true;
  }
  // Copies `bytes` from `in` to [address, address + bytes); false when it is outside its space's
  // memory (nothing is written then).
  bool write(uint64_t address, const void* in, uint64_t bytes) const {
    CtaState& cta = *m_c.cta;
    if (address - kSharedWindow < kWindowSize) {
      uint8_t* p = cta.shared_at(address - kSharedWindow, bytes);
      if (!p) return false;
      std::memcpy(p, in, bytes);
    } else if (address - kLocalWindow < kWindowSize) {
      const uint64_t at = address - kLocalWindow;
      if (at + bytes > m_c.launch().kernel->local_bytes) return false;
      std::memcpy(cta.local_of(m_tid) + at, in, bytes);
    } else {
      GlobalMemory& mem = *m_c.launch().memory;
      if (!mem.find(address, bytes)) return false;
      mem.write(address, in, bytes);
    }
    return true;
  }
  // The NUL-terminated string at `address`, at most `max` bytes of it; a kernel fault naming
  // `what` when it leaves memory first.
  std::string string_at(uint64_t address, size_t max, const std::string& what) const {
    std::string s;
    char ch = 0;
    while (s.size() < max) {
      if (!read(address + s.size(), &ch, 1))
        m_c.fault(what + " is not a string in device memory", m_tid, address + s.size());
      if (ch == 0) break;
      s += ch;
    }
    return s;
  }
  uint32_t tid() const { return m_tid; }
  ExecCtx& ctx() const { return m_c; }

 private:
  ExecCtx& m_c;
  uint32_t m_tid;
};

// The call's raw argument `i`: `bytes` bytes of its .param variable into `out`.
inline void argument_bytes(ExecCtx& c, const isa::CallSite& s, uint32_t tid, size_t i, void* out,
                           unsigned bytes) {
  std::memcpy(out, c.cta->local_of(tid) + c.cta->frame_of(tid) + s.arg_vars[i].offset, bytes);
}
// The call's argument `i` (`bytes` bytes) and return value, in the caller's frame.
inline uint64_t argument(ExecCtx& c, const isa::CallSite& s, uint32_t tid, size_t i,
                         unsigned bytes) {
  uint64_t v = 0;
  std::memcpy(&v, c.cta->local_of(tid) + c.cta->frame_of(tid) + s.arg_vars[i].offset, bytes);
  return v;
}
inline void set_result(ExecCtx& c, const isa::CallSite& s, uint32_t tid, uint64_t v) {
  if (s.ret_vars.empty()) return;  // the call ignores the result
  std::memcpy(c.cta->local_of(tid) + c.cta->frame_of(tid) + s.ret_vars[0].offset, &v,
              std::min<uint32_t>(8, s.ret_vars[0].size));
}

// The CUDA device runtime calls of dynamic parallelism (isa::Builtin::Cdp*; cdp_calls.cpp).
void cdp_call(ExecCtx& c, const isa::CallSite& s, DeviceServices& services);

}  // namespace gputlm::func::sem
