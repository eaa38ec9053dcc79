#include "runtime/runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

#include "app/huge_pages.h"
#include "app/interrupt.h"
#include "app/sc_reports.h"
#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "models/isa/load_hoisting.h"
#include "models/isa/ptx_parser.h"
#include "models/sm/core_spec.h"
#include "runtime/api_support.h"
#include "runtime/device_attributes.h"
#include "runtime/fat_binary.h"
#include "runtime/ptx_text_link.h"

namespace gputlm::runtime {

namespace {
// The runtime once it is made (nullptr before, and while it is being made): what an error reports.
Runtime*& made() {
  static Runtime* runtime = nullptr;
  return runtime;
}
}  // namespace

[[noreturn]] void fatal(int exit_code, const std::string& message) {
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr << "gputlm cuda: " << message << std::endl;
  // Nothing lost: the statistics (and waves) of every launch completed so far, marked incomplete.
  if (Runtime* rt = made()) {
    try {
      const char* what =
          exit_code == kExitKernelFault ? "a kernel fault (exit 3) " : "an error (exit 2) ";
      rt->program().finish(what + rt->program().position());
    } catch (...) {  // the reports themselves failed: the error above is what counts
    }
  }
  std::_Exit(exit_code);
}

std::recursive_mutex& api_mutex() { return Runtime::get().mutex(); }

CudaError sticky_error() { return Runtime::get().sticky_error(); }
void runtime_api_called() { Runtime::get().set_driver_initialised(); }

void run_queued_before(const char* api) {
  // The calls that only add to the queue, or give a hint with no effect on data (Runtime::launch).
  static constexpr std::string_view kQueueing[] = {
      "<<<>>>",         "__cudaGetKernel",      "cudaLaunchKernel", "cudaLaunchKernelEx",
      "cuLaunchKernel", "cudaMemPrefetchAsync", "cudaMemAdvise"};
  for (const std::string_view q : kQueueing)
    if (q == api) return;
  Runtime::get().run_queued();
}

[[noreturn]] void not_implemented(const std::string& what) {
  fatal(kExitInputError, what + " is not implemented");
}

[[noreturn]] void fatal_from_current_exception(const char* api) {
  try {
    throw;
  } catch (const func::KernelFault& e) {
    fatal(kExitKernelFault, e.what());
  } catch (const InputError& e) {
    fatal(kExitInputError, std::string(api) + ": " + e.what());
  } catch (
      const std::exception& e) {  // a launch that stopped making progress (the watchdog's dump)
    fatal(kExitKernelFault, e.what());
  }
  fatal(kExitKernelFault, std::string(api) + ": unknown error");
}

namespace {
// The program's own buffered output goes first (exit() flushes stdio only after the atexit
// handlers), so that `gputlm cuda ... 2>&1` shows it before the summary.
void finish_at_exit() {
  try {
    Runtime::get().run_queued();  // launches the program did not wait for
  } catch (...) {
    fatal_from_current_exception("at exit");
  }
  Runtime::get().synchronize();  // device printf output not yet shown (as a GPU's context teardown)
  std::fflush(nullptr);
  try {
    Runtime::get().program().finish();
  } catch (...) {
    fatal_from_current_exception("at exit");
  }
}
}  // namespace

Runtime& Runtime::get() {
  static Runtime* const state = [] {
    try {
      return made() = new Runtime();
    } catch (...) {
      fatal_from_current_exception("starting the runtime");
    }
  }();
  return *state;
}

Runtime::Runtime() {
  app::prefer_huge_pages();  // the simulated GPU's state, allocated from here on
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  app::route_systemc_reports();
  app::install_stop_handlers();
  m_run = std::make_unique<ProgramRun>(ProgramOptions::from_env());
  m_memory.set_capacity(m_run->spec().device.memory_bytes());
  m_memcheck = func::MemoryCheck(m_run->options().memcheck);
  m_virtual.set_generic_compression(m_run->spec().device.cc_major >= 8);
  // The memory a CUDA context keeps for itself before the program allocates any (its printf FIFO,
  // 1 MB by default): mapped but no allocation, just below the program's first buffer, so that a
  // read just before that buffer is served, as on a GPU, not a fault.
  m_memory.global().reserve_below_heap(func::DeviceServices::kDefaultPrintfFifoBytes);
  std::atexit(finish_at_exit);
}

namespace {
std::unique_ptr<LoadedModule> load_ptx(const std::string& ptx, const std::string& file,
                                       func::GlobalMemory& memory) {
  auto module = std::make_unique<LoadedModule>();
  module->ptx = isa::parse_ptx(ptx, file);
  module->variables = func::load_module_variables(*module->ptx, memory);
  return module;
}
}  // namespace

void** Runtime::register_fat_binary(const void* wrapper) {
  const std::string where =
      m_run->program_name() + ": fat binary " + std::to_string(m_modules.size());
  const std::vector<FatBinaryEntry> entries = read_wrapper(wrapper, where);
  const std::vector<std::string> objects = prelinked_ptx(wrapper, where);
  if (!objects.empty()) {  // -rdc=true: the objects' PTX, linked (ptx_text_link.h)
    m_modules.push_back(load_ptx(link_ptx_modules(objects), m_run->program_name() + ".linked.ptx",
                                 m_memory.global()));
    return reinterpret_cast<void**>(m_modules.back().get());
  }
  const FatBinaryEntry& ptx = select_ptx(entries, where);
  m_modules.push_back(load_ptx(ptx.payload,
                               m_run->program_name() + ".sm_" + std::to_string(ptx.arch) + ".ptx",
                               m_memory.global()));
  return reinterpret_cast<void**>(m_modules.back().get());
}

LoadedModule* Runtime::load_module(const void* image, const std::string& name) {
  const auto* bytes = static_cast<const uint8_t*>(image);
  uint32_t magic = 0;
  std::memcpy(&magic, bytes, 4);
  const std::string where = m_run->program_name() + ": " + name;
  if (std::memcmp(bytes,
                  "\x7f"
                  "ELF",
                  4) == 0)
    throw InputError(where +
                     " is machine code (a cubin); gputlm runs PTX: load PTX text (NVRTC's "
                     "nvrtcGetPTX, nvcc -ptx) or a fat "
                     "binary that holds PTX");
  if (magic == kWrapperMagic || magic == kContainerMagic) {
    const std::vector<FatBinaryEntry> entries = magic == kWrapperMagic
                                                    ? read_wrapper(image, where)
                                                    : read_container(bytes, SIZE_MAX, where);
    const FatBinaryEntry& ptx = select_ptx(entries, where);
    m_modules.push_back(load_ptx(ptx.payload, where + ".sm_" + std::to_string(ptx.arch) + ".ptx",
                                 m_memory.global()));
  } else {
    m_modules.push_back(load_ptx(static_cast<const char*>(image), where, m_memory.global()));
  }
  return m_modules.back().get();
}

RegisteredKernel* Runtime::module_kernel(LoadedModule* module, const std::string& name) {
  const isa::Kernel* k = module->ptx->find(name);
  if (!k && !module->ptx->kernel_errors.count(name)) return nullptr;
  RegisteredKernel& r = m_module_kernels[{module, name}];
  r.module = module;
  r.name = name;
  r.kernel = k;  // a kernel the front end could not take fails at its launch, with its error
  return &r;
}

void Runtime::register_function(void** handle, const void* host_fun, const char* device_name) {
  auto* module = reinterpret_cast<LoadedModule*>(handle);
  const isa::Kernel* k = module->ptx->find(device_name);
  if (!k && !module->ptx->kernel_errors.count(device_name))
    throw InputError(std::string("kernel '") + device_name +
                     "' is registered but not in the fat binary's PTX");
  RegisteredKernel& r = m_kernels[host_fun];
  r.module = module;
  r.name = device_name;
  r.kernel = k;  // a kernel the front end could not take fails at its launch, with its error
}

void Runtime::register_var(void** handle, const void* host_var, const char* device_name,
                           uint64_t size) {
  m_vars[host_var] = {reinterpret_cast<LoadedModule*>(handle), device_name, size};
}

RegisteredKernel* Runtime::kernel(const void* host_fun) {
  auto it = m_kernels.find(host_fun);
  return it == m_kernels.end() ? nullptr : &it->second;
}

const void* Runtime::host_function(const RegisteredKernel* k) const {
  for (const auto& [host_fun, registered] : m_kernels)
    if (&registered == k) return host_fun;
  return nullptr;
}

CudaError Runtime::symbol(const void* host_var, uint64_t& address, uint64_t& size) const {
  auto it = m_vars.find(host_var);
  if (it == m_vars.end()) return kErrorInvalidSymbol;
  address = it->second.module->variables.at(it->second.name);
  size = it->second.size;
  return kSuccess;
}

CudaError Runtime::launch(RegisteredKernel& k, Dim3 grid, Dim3 block, void** args, size_t shared,
                          LaunchExtras extras, bool queued) {
  const bool cooperative = extras.cooperative;
  if (!k.kernel) k.module->ptx->get(k.name);  // throws the kernel's error (file, line, text)
  if (!fits(*k.kernel, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared))
    return kErrorInvalidConfiguration;
  // A cooperative launch must have every CTA resident at once: at most the cores times the CTAs
  // of this kernel one core holds.
  if (cooperative && resident_ctas(k, block, shared) * uint64_t{m_run->spec().cores} <
                         uint64_t{grid.x} * grid.y * grid.z)
    return kErrorCooperativeLaunchTooLarge;
  bind(k);
  func::Launch l;
  l.kernel = k.kernel;
  l.grid = {grid.x, grid.y, grid.z};
  l.block = {block.x, block.y, block.z};
  if (const CudaError e = set_cluster(k, extras.cluster, block, shared, l); e != kSuccess) return e;
  l.params.assign(k.kernel->param_bytes, 0);
  for (size_t i = 0; i < k.kernel->params.size(); ++i) {
    const isa::VarDecl& p = k.kernel->params[i];
    std::memcpy(l.params.data() + p.offset, args[i], p.size);
  }
  l.dynamic_shared = static_cast<uint32_t>(shared);
  l.preferred_carveout = k.carveout;
  l.memory = &m_memory.global();
  l.services = &m_services;
  l.memcheck = &m_memcheck;
  if (cooperative) {
    // The driver's grid workspace {wsSize, barrier} (cooperative_groups/details/driver_abi.h),
    // its barrier counter zero at the start of each launch.
    if (!m_grid_workspace && !(m_grid_workspace = m_memory.allocate(8, false)))
      return kErrorMemoryAllocation;
    const uint32_t workspace[2] = {8, 0};
    m_memory.global().write(m_grid_workspace, workspace, sizeof workspace);
    l.grid_workspace = m_grid_workspace;
  }
  l.textures = &m_textures;
  RegisteredKernel* kernel = &k;
  auto work = [this, kernel, l] {
    if (run(*kernel, l, 0) == kSuccess) run_children(*kernel, l);
  };
  if (queued && !cooperative) {
    m_queued.push_back(std::move(work));
    return kSuccess;
  }
  run_queued();
  work();
  return kSuccess;
}

void Runtime::run_queued() {
  while (!m_queued.empty() && m_sticky == kSuccess) {
    const std::function<void()> work = std::move(m_queued.front());
    m_queued.pop_front();
    work();
  }
  m_queued.clear();  // after a failed device assert the context is unusable: nothing more runs
}

bool Runtime::fits(const isa::Kernel& k, func::Dim3 grid, func::Dim3 block,
                   uint64_t dynamic_shared) const {
  const uint64_t threads = block.count();
  return grid.count() && threads && threads <= max_threads_per_block() && block.z <= 64 &&
         grid.y <= 65535 && grid.z <= 65535 &&
         k.shared_bytes + dynamic_shared <= m_run->spec().core.shared_bytes;
}

void Runtime::bind(RegisteredKernel& k) {
  if (k.bound) return;
  if (m_run->spec().core.hoist_loads) {
    k.hoisted = isa::hoist_loads(*k.kernel).kernel;
    k.kernel = k.hoisted.get();
  }
  k.bound = std::make_unique<func::BoundKernel>(*k.kernel, &k.module->variables,
                                                m_code_layout.place(*k.kernel));
}

void Runtime::run_children(RegisteredKernel& k, const func::Launch& l) {
  for (func::DeviceLaunches& dl = m_services.launches();
       dl.has_pending() && m_sticky == kSuccess;) {
    const func::ChildLaunch child = dl.take_next();
    RegisteredKernel& ck = *module_kernel(k.module, child.kernel->name);
    if (!fits(*child.kernel, child.grid, child.block, child.dynamic_shared))
      throw func::KernelFault("kernel fault in '" + k.kernel->name + "': device-side launch of '" +
                              child.kernel->name + "' with grid " + child.grid.str() + ", block " +
                              child.block.str() + " and " + std::to_string(child.dynamic_shared) +
                              " bytes of dynamic shared memory: an invalid configuration on " +
                              m_run->spec().name);
    bind(ck);
    func::Launch cl = l;
    cl.kernel = ck.kernel;
    cl.grid = child.grid;
    cl.block = child.block;
    cl.params = child.params;
    cl.dynamic_shared = child.dynamic_shared;
    cl.preferred_carveout = ck.carveout;
    cl.grid_workspace = 0;
    run(ck, cl, child.depth);
  }
}

CudaError Runtime::run(RegisteredKernel& k, const func::Launch& l, uint32_t depth) {
  m_services.launches().begin_parent(
      [module = k.module](uint64_t address) { return module->ptx->kernel_at(address); }, depth);
  synchronize();  // CUDA flushes the printf FIFO at the start of a launch
  m_services.begin_launch(*k.kernel, m_memory.global());
  m_memory.managed_to_device();
  try {
    m_run->launch(*k.bound, l);
    report_memory_warnings();
  } catch (const func::KernelFault&) {
    report_memory_warnings();
    synchronize();  // the faulting kernel's printf output, before the fault ends the process
    if (!m_services.has_failed_assertion()) throw;
    // A failed device assert (CUDA programming guide, "Assertion"): the kernel stops, its message
    // goes to stderr, and the context is unusable: every later call returns cudaErrorAssert. The
    // launch itself was made: like an asynchronous launch on a GPU it returns success, and the
    // error shows at the calls after it.
    m_memory.managed_to_host();
    std::fflush(stdout);
    for (const std::string& m : m_services.take_assertions())
      std::fprintf(stderr, "%s\n", m.c_str());
    std::fflush(stderr);
    m_sticky = kErrorAssert;
    return kSuccess;
  }
  m_memory.managed_to_host();
  return kSuccess;
}

void Runtime::report_memory_warnings() {
  std::vector<std::string> first;
  const uint64_t n = m_memcheck.take(first);
  if (!n) return;
  std::fflush(stdout);
  std::fprintf(stderr,
               "gputlm cuda: warning: %llu global access%s outside any allocation, in memory the "
               "device maps (2 MB pages), "
               "read or written as a GPU does (--memcheck makes them faults, as compute-sanitizer "
               "reports them):\n",
               static_cast<unsigned long long>(n), n == 1 ? "" : "es");
  for (const std::string& m : first) std::fprintf(stderr, "  %s\n", m.c_str());
  if (n > first.size())
    std::fprintf(stderr, "  ... and %llu more\n",
                 static_cast<unsigned long long>(n - first.size()));
  std::fflush(stderr);
}

CudaError Runtime::synchronize() {
  const std::string text = m_services.take_output();
  if (!text.empty())
    std::fwrite(text.data(), 1, text.size(),
                stdout);  // the program's own stdout, in order with its printf
  return kSuccess;
}

// Thread block clusters (CUDA C++ Programming Guide, "Thread Block Clusters"): from the launch's
// cudaLaunchAttributeClusterDimension or the kernel's compile-time size (__cluster_dims__:
// .reqnctapercluster), which a launch may not change. The grid must be a whole number of clusters;
// a cluster holds at most 8 CTAs (portable), 16 with
// cudaFuncAttributeNonPortableClusterSizeAllowed, no more than the kernel's .maxclusterrank, and
// all of its CTAs must be resident at once (here: on the cores together, as cooperative launches).
CudaError Runtime::set_cluster(const RegisteredKernel& k, Dim3 asked, Dim3 block, size_t shared,
                               func::Launch& l) const {
  const Dim3 fixed = k.cluster_dims();
  const bool from_launch = asked.x || asked.y || asked.z;
  if (!from_launch && !fixed.x) {
    // .explicitcluster without a size (cudaFuncAttributeClusterDimMustBeSet): the launch must name
    // one.
    return k.kernel->explicit_cluster ? kErrorInvalidClusterSize : kSuccess;
  }
  const func::Dim3 c =
      from_launch ? func::Dim3{asked.x, asked.y, asked.z} : func::Dim3{fixed.x, fixed.y, fixed.z};
  if (from_launch && fixed.x && (c.x != fixed.x || c.y != fixed.y || c.z != fixed.z))
    return kErrorInvalidClusterSize;
  const uint64_t size = c.count();
  const uint64_t most = k.non_portable_cluster ? 16 : 8;
  if (size == 0 || size > most || l.grid.x % c.x || l.grid.y % c.y || l.grid.z % c.z)
    return kErrorInvalidClusterSize;
  if (k.kernel->max_cluster_rank && size > k.kernel->max_cluster_rank)
    return kErrorInvalidClusterSize;
  if (uint64_t{resident_ctas(k, block, shared)} * m_run->spec().cores < size)
    return kErrorInvalidClusterSize;
  l.cluster = c;
  l.explicit_cluster = true;
  return kSuccess;
}

uint32_t Runtime::resident_ctas(const RegisteredKernel& k, Dim3 block,
                                size_t dynamic_shared) const {
  func::Launch l;
  l.kernel = k.kernel ? k.kernel : &k.module->ptx->get(k.name);
  l.block = {block.x, block.y, block.z};
  l.dynamic_shared = static_cast<uint32_t>(dynamic_shared);
  return sm::ctas_fitting(m_run->spec().core, l);
}

uint32_t Runtime::max_threads_per_block() const {
  return runtime::max_threads_per_block(m_run->spec());
}

double Runtime::elapsed_ms() const {
  return double(m_run->cycles()) / (m_run->spec().core_clock_mhz() * 1e3);
}

CudaError Runtime::last_error(bool reset) {
  const CudaError e = m_last_error;
  if (reset) m_last_error = kSuccess;
  return e;
}

}  // namespace gputlm::runtime
