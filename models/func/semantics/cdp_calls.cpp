// The CUDA device runtime of dynamic parallelism (cuda_device_runtime_api.h, CUDA 13: the
// __cudaCDP2* functions; CUDA programming guide, "CUDA Dynamic Parallelism"), for the active lanes
// in lane order. Each returns a cudaError_t as CUDA documents it; pointers are generic addresses.
//   GetParameterBufferV2(func, grid, block, smem): a buffer of the kernel's parameter bytes from
//     the device heap, or NULL when `func` is no kernel of the module or the heap is full.
//   LaunchDeviceV2(buffer, stream): the child grid is queued (device_launches.h); its parameters
//     are read from the buffer now, and the buffer is freed.
//   StreamCreateWithFlags(&s, flags) / StreamDestroy(s), EventCreateWithFlags(&e, flags) /
//     EventDestroy(e), EventRecord(e, s), StreamWaitEvent(s, e, flags): handles, and success; every
//     device stream is in order with the others (device_launches.h), so every wait is met.
//   GetDevice(&d) / GetDeviceCount(&n) / RuntimeGetVersion(&v): 0, 1 (the one simulated device)
//     and 13000 (CUDA 13.0, as the host runtime reports).
//   Malloc(&p, size) / Free(p): the device heap, as malloc/free (cudaErrorMemoryAllocation when it
//     is full, cudaErrorInvalidDevicePointer for a pointer it did not give).
//   MemcpyAsync(dst, src, n, kind, stream) / MemsetAsync(dst, value, n, stream): done at the call
//     (the calling thread's stream has no earlier work of its own that is not done: children run
//     after the parent grid).
//   GetLastError / PeekAtLastError: the calling thread's last error from these calls (GetLastError
//     resets it), as the device runtime keeps one per thread.
//   GetErrorString(e): "no error" for 0, else the code's number, as a string in the device heap.
#include <vector>

#include "models/func/semantics/service_call_support.h"

namespace gputlm::func::sem {
namespace {

using DL = DeviceLaunches;

Dim3 dim3_argument(ExecCtx& c, const isa::CallSite& s, uint32_t tid, size_t i) {
  uint32_t v[3];
  argument_bytes(c, s, tid, i, v, sizeof v);
  return {v[0], v[1], v[2]};
}

void parameter_buffer(ExecCtx& c, const isa::CallSite& s, DeviceServices& services) {
  DeviceLaunches& dl = services.launches();
  lanes(c, [&](unsigned, uint32_t tid) {
    if (!dl.can_launch())
      c.fault("device-side kernel launch: this run has no module to launch from", tid, 0, false);
    ChildLaunch child;
    child.kernel = dl.kernel_at(argument(c, s, tid, 0, 8));
    child.grid = dim3_argument(c, s, tid, 1);
    child.block = dim3_argument(c, s, tid, 2);
    child.dynamic_shared = static_cast<uint32_t>(argument(c, s, tid, 3, 4));
    uint64_t buffer = 0;
    if (child.kernel)
      buffer =
          services.malloc(*c.launch().memory, std::max<uint64_t>(child.kernel->param_bytes, 1), 64);
    if (buffer) dl.add_buffer(buffer, std::move(child));
    set_result(c, s, tid, buffer);
  });
}

void launch_device(ExecCtx& c, const isa::CallSite& s, DeviceServices& services) {
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t buffer = argument(c, s, tid, 0, 8);
    const int e = services.launches().launch(buffer, *c.launch().memory);
    if (e == DL::kSuccess) services.free(buffer);
    services.launches().set_error(c.cta->linear_id, tid, e);
    set_result(c, s, tid, static_cast<uint64_t>(e));
  });
}

// Stores `value` (`bytes` bytes) at the generic address argument 0 points to.
bool store_out(ExecCtx& c, const isa::CallSite& s, uint32_t tid, uint64_t value, unsigned bytes) {
  return ThreadMemory(c, tid).write(argument(c, s, tid, 0, 8), &value, bytes);
}

int copy_or_set(ExecCtx& c, const isa::CallSite& s, uint32_t tid, bool set) {
  const ThreadMemory mem(c, tid);
  const uint64_t dst = argument(c, s, tid, 0, 8), n = argument(c, s, tid, 2, 8);
  if (n > (uint64_t{1} << 36)) return DL::kErrorInvalidValue;
  std::vector<uint8_t> bytes(n, static_cast<uint8_t>(argument(c, s, tid, 1, 4)));
  const bool ok = (set || mem.read(argument(c, s, tid, 1, 8), bytes.data(), n)) &&
                  mem.write(dst, bytes.data(), n);
  return ok ? DL::kSuccess : DL::kErrorInvalidValue;
}

void error_string(ExecCtx& c, const isa::CallSite& s, DeviceServices& services, uint32_t tid) {
  const int code = static_cast<int32_t>(argument(c, s, tid, 0, 4));
  uint64_t& at = services.launches().error_string(code);
  if (!at) {
    const std::string text = code == 0 ? "no error" : "CUDA error " + std::to_string(code);
    GlobalMemory& mem = *c.launch().memory;
    at = services.malloc(mem, text.size() + 1);
    if (at) mem.write(at, text.c_str(), text.size() + 1);
  }
  set_result(c, s, tid, at);
}

}  // namespace

void cdp_call(ExecCtx& c, const isa::CallSite& s, DeviceServices& services) {
  using isa::Builtin;
  if (s.builtin == Builtin::CdpGetParameterBuffer) return parameter_buffer(c, s, services);
  if (s.builtin == Builtin::CdpLaunchDevice) return launch_device(c, s, services);
  DeviceLaunches& dl = services.launches();
  lanes(c, [&](unsigned, uint32_t tid) {
    const uint64_t cta = c.cta->linear_id;
    if (s.builtin == Builtin::CdpGetLastError || s.builtin == Builtin::CdpPeekAtLastError)
      return set_result(
          c, s, tid,
          static_cast<uint64_t>(dl.last_error(cta, tid, s.builtin == Builtin::CdpGetLastError)));
    if (s.builtin == Builtin::CdpGetErrorString) return error_string(c, s, services, tid);
    int e = DL::kSuccess;  // CdpNoop
    auto out = [&](uint64_t value, unsigned bytes) {
      e = store_out(c, s, tid, value, bytes) ? DL::kSuccess : DL::kErrorInvalidValue;
    };
    switch (s.builtin) {
      case Builtin::CdpStreamCreate:
      case Builtin::CdpEventCreate:
        out(dl.new_stream(), 8);
        break;
      case Builtin::CdpGetDevice:
        out(0, 4);
        break;
      case Builtin::CdpGetDeviceCount:
        out(1, 4);
        break;
      case Builtin::CdpRuntimeGetVersion:
        out(13000, 4);
        break;
      case Builtin::CdpMalloc: {
        const uint64_t p = services.malloc(*c.launch().memory, argument(c, s, tid, 1, 8));
        e = !store_out(c, s, tid, p, 8) ? DL::kErrorInvalidValue
            : p                         ? DL::kSuccess
                                        : DL::kErrorMemoryAllocation;
        break;
      }
      case Builtin::CdpFree: {
        const uint64_t p = argument(c, s, tid, 0, 8);
        e = !p || services.free(p) ? DL::kSuccess : DL::kErrorInvalidDevicePointer;
        break;
      }
      case Builtin::CdpMemcpyAsync:
        e = copy_or_set(c, s, tid, false);
        break;
      case Builtin::CdpMemsetAsync:
        e = copy_or_set(c, s, tid, true);
        break;
      default:
        break;
    }
    dl.set_error(cta, tid, e);
    set_result(c, s, tid, static_cast<uint64_t>(e));
  });
}

}  // namespace gputlm::func::sem
