// How the runtime API's C functions end: errors the program can handle are returned as
// cudaError_t; errors it cannot are fatal, printed once on stderr as "gputlm cuda: ..." after the
// program's own output is flushed, and end the process with gputlm's exit codes:
//   2 bad input: PTX the front end rejects, a fat binary without PTX, a runtime API function or
//     argument value gputlm does not implement (unimplemented_api.cpp), options missing;
//   3 the kernel faulted (out-of-allocation or misaligned address, trap, barrier deadlock, the
//     watchdog), as `gputlm run` ends; the program does not see a cudaError_t for it.
// A failed device assert is not fatal: as on a GPU, its message goes to stderr and every later
// call returns cudaErrorAssert (sticky_error()), the program ending as it chooses.
#pragma once

#include <mutex>
#include <string>

#include "runtime/cuda_abi.h"

namespace gputlm::runtime {

[[noreturn]] void fatal(int exit_code, const std::string& message);

// Runs `body` (returning a CudaError) holding the runtime's lock (calls from several host threads
// take turns), turning exceptions into the fatal ends above. Every API function that reads or
// changes the runtime's state runs in it.
template <typename Body>
int guarded(const char* api, Body&& body) noexcept;

// The runtime-state object's lock (recursive: an API function may call another).
std::recursive_mutex& api_mutex();
// The sticky error every call returns once the context is unusable (a failed device assert:
// cudaErrorAssert), kSuccess before.
CudaError sticky_error();

// A runtime API function ran: as CUDA's runtime initialises the driver on its first call (CUDA
// Runtime API, "Initialization"), the driver API answers from then on as after cuInit.
void runtime_api_called();

// Runs the launches the program queued (Runtime::launch) unless `api` only queues another or
// gives a memory hint: every other call waits for, or is ordered after, the device's work.
void run_queued_before(const char* api);

// Not implemented: a runtime API function (or a value of an argument) gputlm has no model for.
[[noreturn]] void not_implemented(const std::string& what);

// Out-of-line part of guarded(): rethrows the current exception as a fatal end.
[[noreturn]] void fatal_from_current_exception(const char* api);

template <typename Body>
int guarded(const char* api, Body&& body) noexcept {
  try {
    const std::lock_guard<std::recursive_mutex> lock(api_mutex());
    if (api[0] == 'c' && api[1] == 'u' && api[2] == 'd' && api[3] == 'a') runtime_api_called();
    run_queued_before(api);
    if (const CudaError sticky = sticky_error()) return static_cast<int>(sticky);
    return static_cast<int>(body());
  } catch (...) {
    fatal_from_current_exception(api);
  }
}

}  // namespace gputlm::runtime
