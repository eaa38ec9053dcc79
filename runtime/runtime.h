// The CUDA runtime stand-in's state: the one object the runtime API's C functions reach (the
// CUDA ABI gives them no context argument, so the library keeps it as its only global, made at
// the first call and never destroyed: its simulation lives until the process ends).
//
// It holds the registered fat binaries (their PTX parsed), kernels and variables by the host
// addresses the program names them with, the program's memory, the launch configuration stack of
// <<<>>>, the last error, streams and events, and the simulator (ProgramRun). Launches are
// serialised: every call that could overlap on a GPU runs to its end first. Calls from several
// host threads take turns (api_support.h, guarded()).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/module_image.h"
#include "models/isa/kernel.h"
#include "runtime/cuda_abi.h"
#include "runtime/device_memory.h"
#include "runtime/program_run.h"

namespace gputlm::runtime {

struct LoadedModule {
  std::unique_ptr<isa::Module> ptx;
  func::ModuleImage variables;  // module-scope variables (__device__, __constant__) in device memory
};

struct RegisteredKernel {
  LoadedModule* module = nullptr;
  std::string name;                  // its PTX name
  const isa::Kernel* kernel = nullptr;  // null: the front end could not take it (its error at launch)
  std::unique_ptr<func::BoundKernel> bound;  // bound at its first launch
};

struct RegisteredVar {
  LoadedModule* module = nullptr;
  std::string name;
  uint64_t size = 0;
};

struct LaunchConfig {
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t shared = 0;
  void* stream = nullptr;
};

class Runtime {
 public:
  // The state, made at the first call (reads the options gputlm cuda set; exits with status 2
  // and one message when they are missing or bad).
  static Runtime& get();

  // Registration (host code's static constructors). InputError for a fat binary without PTX or
  // PTX the front end rejects.
  void** register_fat_binary(const void* wrapper);
  void register_function(void** handle, const void* host_fun, const char* device_name);
  void register_var(void** handle, const void* host_var, const char* device_name, uint64_t size);

  RegisteredKernel* kernel(const void* host_fun);  // nullptr: not registered
  // The device address and size of a registered variable; kErrorInvalidSymbol when unknown.
  CudaError symbol(const void* host_var, uint64_t& address, uint64_t& size) const;

  // Runs a launch to its end (validated first: kErrorInvalidConfiguration for an empty or too
  // large block, too much shared memory). Kernel faults end the process (see api_support.h).
  CudaError launch(RegisteredKernel& k, Dim3 grid, Dim3 block, void** args, size_t shared);

  // The calling host thread's <<<>>> configurations (pushed by the launch's host code, popped
  // by its stub).
  std::vector<LaunchConfig>& config_stack() { return m_configs[std::this_thread::get_id()]; }
  std::recursive_mutex& mutex() { return m_mutex; }
  std::set<const void*>& streams() { return m_streams; }  // made by cudaStreamCreate
  DeviceMemory& memory() { return m_memory; }
  ProgramRun& program() { return *m_run; }
  // CUDA's 1024 threads a block, or fewer when the config's core holds fewer.
  uint32_t max_threads_per_block() const;
  // Simulated milliseconds of the launches so far (cycles at the config's core clock).
  double elapsed_ms() const;

  // Sticky error state of cudaGetLastError / cudaPeekAtLastError.
  CudaError record(CudaError e) {
    if (e != kSuccess) m_last_error = e;
    return e;
  }
  CudaError last_error(bool reset);

 private:
  Runtime();

  std::unique_ptr<ProgramRun> m_run;
  DeviceMemory m_memory;
  std::vector<std::unique_ptr<LoadedModule>> m_modules;
  std::map<const void*, RegisteredKernel> m_kernels;
  std::map<const void*, RegisteredVar> m_vars;
  std::map<std::thread::id, std::vector<LaunchConfig>> m_configs;
  std::recursive_mutex m_mutex;
  std::set<const void*> m_streams;
  CudaError m_last_error = kSuccess;
};

}  // namespace gputlm::runtime
