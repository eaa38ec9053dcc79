#include "runtime/runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "models/common/error.h"
#include "models/func/kernel_fault.h"
#include "models/isa/ptx_parser.h"
#include "runtime/api_support.h"
#include "runtime/fat_binary.h"
#include "tb/interrupt.h"
#include "tb/sc_reports.h"

namespace gputlm::runtime {

[[noreturn]] void fatal(int exit_code, const std::string& message) {
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr << "gputlm cuda: " << message << std::endl;
  std::_Exit(exit_code);
}

std::recursive_mutex& api_mutex() { return Runtime::get().mutex(); }

[[noreturn]] void not_implemented(const std::string& what) { fatal(kExitInputError, what + " is not implemented"); }

[[noreturn]] void fatal_from_current_exception(const char* api) {
  try {
    throw;
  } catch (const func::KernelFault& e) {
    fatal(kExitKernelFault, e.what());
  } catch (const InputError& e) {
    fatal(kExitInputError, std::string(api) + ": " + e.what());
  } catch (const std::exception& e) {  // a launch that stopped making progress (the watchdog's dump)
    fatal(kExitKernelFault, e.what());
  }
  fatal(kExitKernelFault, std::string(api) + ": unknown error");
}

namespace {
// The program's own buffered output goes first (exit() flushes stdio only after the atexit
// handlers), so that `gputlm cuda ... 2>&1` shows it before the summary.
void finish_at_exit() {
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
      return new Runtime();
    } catch (...) {
      fatal_from_current_exception("starting the runtime");
    }
  }();
  return *state;
}

Runtime::Runtime() {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  tb::route_systemc_reports();
  tb::install_stop_handlers();
  m_run = std::make_unique<ProgramRun>(ProgramOptions::from_env());
  std::atexit(finish_at_exit);
}

void** Runtime::register_fat_binary(const void* wrapper) {
  const std::string where = m_run->program_name() + ": fat binary " + std::to_string(m_modules.size());
  const std::vector<FatBinaryEntry> entries = read_wrapper(wrapper, where);
  const FatBinaryEntry& ptx = select_ptx(entries, where);
  auto module = std::make_unique<LoadedModule>();
  module->ptx = isa::parse_ptx(ptx.payload, m_run->program_name() + ".sm_" + std::to_string(ptx.arch) + ".ptx");
  module->variables = func::load_module_variables(*module->ptx, m_memory.global());
  m_modules.push_back(std::move(module));
  return reinterpret_cast<void**>(m_modules.back().get());
}

void Runtime::register_function(void** handle, const void* host_fun, const char* device_name) {
  auto* module = reinterpret_cast<LoadedModule*>(handle);
  const isa::Kernel* k = module->ptx->find(device_name);
  if (!k && !module->ptx->kernel_errors.count(device_name))
    throw InputError(std::string("kernel '") + device_name + "' is registered but not in the fat binary's PTX");
  RegisteredKernel& r = m_kernels[host_fun];
  r.module = module;
  r.name = device_name;
  r.kernel = k;  // a kernel the front end could not take fails at its launch, with its error
}

void Runtime::register_var(void** handle, const void* host_var, const char* device_name, uint64_t size) {
  m_vars[host_var] = {reinterpret_cast<LoadedModule*>(handle), device_name, size};
}

RegisteredKernel* Runtime::kernel(const void* host_fun) {
  auto it = m_kernels.find(host_fun);
  return it == m_kernels.end() ? nullptr : &it->second;
}

CudaError Runtime::symbol(const void* host_var, uint64_t& address, uint64_t& size) const {
  auto it = m_vars.find(host_var);
  if (it == m_vars.end()) return kErrorInvalidSymbol;
  address = it->second.module->variables.at(it->second.name);
  size = it->second.size;
  return kSuccess;
}

CudaError Runtime::launch(RegisteredKernel& k, Dim3 grid, Dim3 block, void** args, size_t shared) {
  if (!k.kernel) k.module->ptx->get(k.name);  // throws the kernel's error (file, line, text)
  const sm::CoreSpec& core = m_run->spec().core;
  const uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (!grid.x || !grid.y || !grid.z || !threads || threads > max_threads_per_block() || grid.y > 65535 || grid.z > 65535)
    return kErrorInvalidConfiguration;
  if (k.kernel->shared_bytes + shared > core.shared_bytes) return kErrorInvalidConfiguration;
  if (!k.bound) k.bound = std::make_unique<func::BoundKernel>(*k.kernel, &k.module->variables);
  func::Launch l;
  l.kernel = k.kernel;
  l.grid = {grid.x, grid.y, grid.z};
  l.block = {block.x, block.y, block.z};
  l.params.assign(k.kernel->param_bytes, 0);
  for (size_t i = 0; i < k.kernel->params.size(); ++i) {
    const isa::VarDecl& p = k.kernel->params[i];
    std::memcpy(l.params.data() + p.offset, args[i], p.size);
  }
  l.dynamic_shared = static_cast<uint32_t>(shared);
  l.memory = &m_memory.global();
  m_memory.managed_to_device();
  m_run->launch(*k.bound, l);
  m_memory.managed_to_host();
  return kSuccess;
}

uint32_t Runtime::max_threads_per_block() const { return std::min<uint32_t>(1024, m_run->spec().core.max_threads); }

double Runtime::elapsed_ms() const { return double(m_run->cycles()) / (m_run->spec().core_clock_mhz() * 1e3); }

CudaError Runtime::last_error(bool reset) {
  const CudaError e = m_last_error;
  if (reset) m_last_error = kSuccess;
  return e;
}

}  // namespace gputlm::runtime
