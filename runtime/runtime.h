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
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/device_services.h"
#include "models/func/memory_check.h"
#include "models/func/module_image.h"
#include "models/func/texture_table.h"
#include "models/isa/kernel.h"
#include "runtime/cuda_abi.h"
#include "runtime/cuda_arrays.h"
#include "runtime/device_memory.h"
#include "runtime/graph_state.h"
#include "runtime/launch_extras.h"
#include "runtime/program_run.h"
#include "runtime/virtual_memory.h"

namespace gputlm::runtime {

struct LoadedModule {
  std::unique_ptr<isa::Module> ptx;
  func::ModuleImage
      variables;  // module-scope variables (__device__, __constant__) in device memory
};

struct RegisteredKernel {
  LoadedModule* module = nullptr;
  std::string name;  // its PTX name
  const isa::Kernel* kernel =
      nullptr;  // null: the front end could not take it (its error at launch)
  std::unique_ptr<func::BoundKernel> bound;  // bound at its first launch
  // With the config's core.hoist_loads, the kernel with its global and shared loads moved up its
  // basic blocks (isa/load_hoisting.h), made at the first launch; `kernel` then points to it.
  std::unique_ptr<isa::Kernel> hoisted;
  // cudaFuncSetAttribute: the dynamic shared memory a launch may ask for (the core's scratchpad
  // less the static shared memory until set) and the preferred carveout, which each launch carries
  // (func::Launch::preferred_carveout) to a core with a unified L1/shared array (sm/carveout.h;
  // no effect on others).
  int max_dynamic_shared = -1;
  int carveout = -1;
  // Thread block clusters (attributes 11-15): the cluster size set at run time (0x0x0: none; a
  // compile-time size, .reqnctapercluster, cannot be changed), non-portable sizes (up to 16 CTAs)
  // allowed, and the scheduling policy preference (kept, no effect).
  Dim3 required_cluster{0, 0, 0};
  int non_portable_cluster = 0;
  int cluster_policy = 0;

  // The cluster size launches take when they name none: the compile-time one, else the run-time
  // one.
  Dim3 cluster_dims() const {
    if (kernel && kernel->cluster_dims[0])
      return {kernel->cluster_dims[0], kernel->cluster_dims[1], kernel->cluster_dims[2]};
    return required_cluster;
  }
};

struct RegisteredVar {
  LoadedModule* module = nullptr;
  std::string name;
  uint64_t size = 0;
};

// A stream made by cudaStreamCreate*: its flags and priority, as the program set them (streams
// are serialised, so neither changes what runs when).
struct Stream {
  unsigned flags = 0;
  int priority = 0;
  uint64_t id = 0;
  unsigned char policy_window[64] = {};  // cudaStreamSetAttribute's access policy window, as set
};

// The limits of cudaDeviceSetLimit that only are stored (api_limits.cpp); the printf FIFO and the
// malloc heap are sized in func::DeviceServices. Defaults: CUDA's (stack 1 KB per thread, sync
// depth 2, 2048 pending launches: cuda_runtime_api.h); the fetch granularity's is not documented
// (32 bytes, one sector, chosen here).
struct DeviceLimits {
  size_t stack_bytes = 1024, sync_depth = 2, pending_launches = 2048, l2_fetch_granularity = 32,
         persisting_l2_bytes = 0;
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
  // The host function `k` was registered with; nullptr for a kernel of the driver API.
  const void* host_function(const RegisteredKernel* k) const;

  // Driver API (cuModuleLoadData, cuModuleLoad): a module from an image in memory, PTX text or a
  // fat binary holding PTX; InputError for machine code alone (a cubin), since gputlm runs PTX.
  LoadedModule* load_module(const void* image, const std::string& name);
  // cuModuleGetFunction: kernel `name` of a module load_module made; nullptr if it has none.
  RegisteredKernel* module_kernel(LoadedModule* module, const std::string& name);
  // The device address and size of a registered variable; kErrorInvalidSymbol when unknown.
  CudaError symbol(const void* host_var, uint64_t& address, uint64_t& size) const;

  // Runs a launch to its end (validated first: kErrorInvalidConfiguration for an empty or too
  // large block, too much shared memory). Kernel faults end the process (see api_support.h), but
  // for a failed device assert: its messages go to stderr and every later call returns
  // cudaErrorAssert (sticky_error()). A cooperative launch (its residency checked by the caller)
  // gets the grid workspace its grid.sync() needs (func::Launch::grid_workspace). The grids its
  // kernels launch from the device run after it (func/device_launches.h), each a launch of its own.
  //
  // A queued launch (the program's <<<>>>, cudaLaunchKernel, cudaLaunchKernelEx, cuLaunchKernel;
  // not a cooperative one) is validated now and runs later, in issue order, when the program next
  // calls the runtime for anything but another launch or a memory hint (run_queued(), from
  // guarded()) or ends: as on a GPU, the host goes on while a stream's work waits, so a kernel
  // may wait on host memory that the program writes after launching it (a latch) before it
  // synchronises. Any other launch runs the queue first.
  CudaError launch(RegisteredKernel& k, Dim3 grid, Dim3 block, void** args, size_t shared,
                   LaunchExtras extras = {}, bool queued = false);
  // Runs the queued launches, in issue order.
  void run_queued();
  // A synchronisation point (cudaDeviceSynchronize, a blocking copy, ...): the device printf
  // output so far goes to the program's stdout (CUDA programming guide, "Formatted Output").
  CudaError synchronize();
  // After a launch: the global accesses outside every allocation that mapped memory served
  // (func/memory_check.h), on stderr as warnings with their detail.
  void report_memory_warnings();
  // cudaErrorAssert once a device assert failed (the context is unusable), else kSuccess.
  CudaError sticky_error() const { return m_sticky; }
  func::DeviceServices& services() { return m_services; }  // printf FIFO, malloc heap
  DeviceLimits& limits() { return m_limits; }
  // CUDA arrays, and the texture and surface objects kernels reach by handle (each launch's
  // func::Launch::textures) with the descriptors they were made from (api_array.cpp,
  // api_texture.cpp).
  CudaArrays& arrays() { return m_arrays; }
  func::TextureTable& textures() { return m_textures; }
  std::map<uint64_t, ObjectDescs>& object_descs() { return m_object_descs; }

  // The calling host thread's <<<>>> configurations (pushed by the launch's host code, popped
  // by its stub).
  std::vector<LaunchConfig>& config_stack() { return m_configs[std::this_thread::get_id()]; }
  std::recursive_mutex& mutex() { return m_mutex; }
  std::set<const void*>& streams() { return m_streams; }  // made by cudaStreamCreate
  DeviceMemory& memory() { return m_memory; }
  VirtualMemory& virtual_memory() { return m_virtual; }
  GraphState& graphs() { return m_graphs; }  // stream captures, graph memory
  ProgramRun& program() { return *m_run; }
  // CTAs of `k` (its PTX loaded) with this block and dynamic shared memory that one core holds at
  // once: the timing model's own limit (sm::ctas_fitting), for the occupancy calculator and
  // cooperative launches.
  uint32_t resident_ctas(const RegisteredKernel& k, Dim3 block, size_t dynamic_shared) const;
  // The CTAs per cluster of a launch (`asked`: the launch attribute's, 0x0x0 for none) into `l`;
  // kErrorInvalidClusterSize for a misconfigured cluster.
  CudaError set_cluster(const RegisteredKernel& k, Dim3 asked, Dim3 block, size_t shared,
                        func::Launch& l) const;
  // Runs one validated launch of `k` (`depth`: 0 from the host, n for a grid n device-side launches
  // down), with launch()'s handling of faults and failed asserts.
  CudaError run(RegisteredKernel& k, const func::Launch& l, uint32_t depth);
  // Whether a launch of `k` with this shape is one CUDA accepts on the config's device (else
  // cudaErrorInvalidConfiguration): a nonempty grid and block, at most max_threads_per_block()
  // threads, block.z <= 64, grid.y and grid.z <= 65535, the shared memory within the core's.
  bool fits(const isa::Kernel& k, func::Dim3 grid, func::Dim3 block, uint64_t dynamic_shared) const;
  // Binds `k` at its first launch (after hoisting its loads when the config asks: hoisted).
  void bind(RegisteredKernel& k);
  // Runs the grids launched from the device by `k`'s launch `l` (and by them), in launch order,
  // each as a launch of its own in `l`'s memory and services.
  void run_children(RegisteredKernel& k, const func::Launch& l);
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

  // cuInit was called (the driver API answers CUDA_ERROR_NOT_INITIALIZED before).
  bool driver_initialised() const { return m_driver_initialised; }
  void set_driver_initialised() { m_driver_initialised = true; }

 private:
  Runtime();

  std::unique_ptr<ProgramRun> m_run;
  DeviceMemory m_memory;
  VirtualMemory m_virtual{m_memory};
  std::vector<std::unique_ptr<LoadedModule>> m_modules;
  std::map<const void*, RegisteredKernel> m_kernels;
  std::map<std::pair<LoadedModule*, std::string>, RegisteredKernel>
      m_module_kernels;  // the driver API's
  std::map<const void*, RegisteredVar> m_vars;
  std::map<std::thread::id, std::vector<LaunchConfig>> m_configs;
  std::recursive_mutex m_mutex;
  std::set<const void*> m_streams;
  CudaError m_last_error = kSuccess;
  bool m_driver_initialised = false;
  CudaError m_sticky = kSuccess;
  func::DeviceServices m_services;
  func::CodeLayout m_code_layout;              // kernels' code, in the order of their first launch
  std::deque<std::function<void()>> m_queued;  // launch() with queued: each runs its launch
  uint64_t m_grid_workspace = 0;        // cooperative launches' grid workspace, made at the first
  func::MemoryCheck m_memcheck{false};  // accesses outside allocations (gputlm cuda --memcheck)
  DeviceLimits m_limits;
  CudaArrays m_arrays;
  func::TextureTable m_textures;
  std::map<uint64_t, ObjectDescs> m_object_descs;
  GraphState m_graphs{m_memory};
};

}  // namespace gputlm::runtime
