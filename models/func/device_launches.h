// Grids launched from the device: CUDA dynamic parallelism as CUDA 12 and later define it (CUDA
// programming guide, "CUDA Dynamic Parallelism", CDP2): a thread asks for a parameter buffer for a
// kernel, grid and block (cudaGetParameterBuffer, __cudaCDP2GetParameterBufferV2), fills it and
// launches it (cudaLaunchDevice, __cudaCDP2LaunchDeviceV2); `kernel<<<g, b>>>(...)` in device code
// is these two calls. The parent cannot wait for its children (CDP2 has no device-side
// cudaDeviceSynchronize); a parent grid completes only when its children have.
//
// The engine runs the children after their parent grid, in the order they were launched, each a
// launch of its own (statistics, timing): the children's children after them, and so on. This is
// one order a GPU may show (a child may start before its parent ends, but nothing may rely on it);
// running a child beside its parent is not modelled, a choice. Device streams are handles only:
// all children run one after another. Limits as CUDA documents them: nesting depth 24 (a deeper
// launch returns cudaErrorLaunchMaxDepthExceeded) and cudaLimitDevRuntimePendingLaunchCount, 2048
// by default (more children pending returns cudaErrorLaunchPendingCountExceeded).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "models/func/launch.h"

namespace gputlm::func {

// A child grid, launched and waiting for its parent to complete.
struct ChildLaunch {
  const isa::Kernel* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  std::vector<uint8_t> params;  // kernel->param_bytes, copied from the buffer at the launch
  uint32_t depth = 1;           // 1: launched by a grid the host launched
};

class DeviceLaunches {
 public:
  static constexpr uint32_t kMaxDepth = 24;
  static constexpr uint64_t kDefaultPendingLimit = 2048;
  // CUDA runtime error codes (driver_types.h, CUDA 13) the device runtime returns.
  static constexpr int kSuccess = 0, kErrorInvalidValue = 1, kErrorMemoryAllocation = 2,
                       kErrorInvalidDevicePointer = 17, kErrorLaunchMaxDepthExceeded = 65,
                       kErrorLaunchPendingCountExceeded = 69;

  // The kernel a kernel address names (isa::Module::kernel_at of the module the parent came from),
  // nullptr for none.
  using Resolver = std::function<const isa::Kernel*(uint64_t)>;

  // Before each launch: how its kernel addresses resolve (null: device launches fault, as in runs
  // without a module, gputlm run) and how deep it is (0: launched by the host).
  void begin_parent(Resolver resolver, uint32_t depth) {
    m_resolver = std::move(resolver);
    m_depth = depth;
    m_last_errors.clear();
  }
  bool can_launch() const { return static_cast<bool>(m_resolver); }
  const isa::Kernel* kernel_at(uint64_t address) const {
    return m_resolver ? m_resolver(address) : nullptr;
  }

  // A parameter buffer at `address` was handed out for `child` (params not yet filled).
  void add_buffer(uint64_t address, ChildLaunch child);
  // Launches the child whose buffer is at `address`, copying its parameters from `memory`; a CUDA
  // error code (kErrorInvalidValue: no such buffer). The buffer is no longer the child's after.
  int launch(uint64_t address, const GlobalMemory& memory);

  bool has_pending() const { return !m_pending.empty(); }
  ChildLaunch take_next();
  uint64_t launched() const { return m_launched; }

  void set_pending_limit(uint64_t n) { m_pending_limit = n; }
  uint64_t pending_limit() const { return m_pending_limit; }

  // Each thread's last device runtime error (cudaGetLastError, cudaPeekAtLastError), by CTA and
  // thread of the running launch; a call that fails sets it.
  void set_error(uint64_t cta, uint32_t tid, int code) {
    if (code) m_last_errors[{cta, tid}] = code;
  }
  int last_error(uint64_t cta, uint32_t tid, bool reset) {
    auto it = m_last_errors.find({cta, tid});
    if (it == m_last_errors.end()) return kSuccess;
    const int e = it->second;
    if (reset) m_last_errors.erase(it);
    return e;
  }

  // A new device stream or event handle (nonzero; not one of the special streams 0 to 4).
  uint64_t new_stream() { return ++m_streams + 0x100; }
  // Where the text of error `code` is in device memory (cudaGetErrorString), 0 when not yet set.
  uint64_t& error_string(int code) { return m_error_strings[code]; }

 private:
  Resolver m_resolver;
  uint32_t m_depth = 0;
  std::map<uint64_t, ChildLaunch> m_buffers;
  std::deque<ChildLaunch> m_pending;
  uint64_t m_pending_limit = kDefaultPendingLimit, m_launched = 0, m_streams = 0;
  std::map<int, uint64_t> m_error_strings;
  std::map<std::pair<uint64_t, uint32_t>, int> m_last_errors;
};

}  // namespace gputlm::func
