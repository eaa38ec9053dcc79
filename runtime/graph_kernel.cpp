// Kernel nodes' arguments: copied from the program's kernelParams or `extra` into the layout of
// the kernel's PTX parameter list (graph.h KernelCall).
#include <cstring>

#include "runtime/graph.h"
#include "runtime/runtime.h"

namespace gputlm::runtime {

namespace {

// The `extra` form of a launch's arguments: pairs CU_LAUNCH_PARAM_BUFFER_POINTER (1) / pointer and
// CU_LAUNCH_PARAM_BUFFER_SIZE (2) / pointer to size_t, ended by CU_LAUNCH_PARAM_END (0).
bool read_extra(void** extra, const isa::Kernel& k, std::vector<uint8_t>& params) {
  const void* buffer = nullptr;
  size_t size = 0;
  for (size_t i = 0; extra[i]; i += 2) {
    const auto tag = reinterpret_cast<uintptr_t>(extra[i]);
    if (tag == 1)
      buffer = extra[i + 1];
    else if (tag == 2)
      size = *static_cast<size_t*>(extra[i + 1]);
    else
      return false;
  }
  if (!buffer || size < k.param_bytes) return false;
  std::memcpy(params.data(), buffer, k.param_bytes);
  return true;
}

}  // namespace

CudaError make_kernel_call(const KernelNodeParams& p, KernelCall& out) {
  RegisteredKernel* k = Runtime::get().kernel(p.func);
  return k ? make_kernel_call(*k, p, out) : kErrorInvalidDeviceFunction;
}

CudaError make_kernel_call(RegisteredKernel& k, const KernelNodeParams& p, KernelCall& out) {
  const isa::Kernel& kernel =
      k.kernel ? *k.kernel : k.module->ptx->get(k.name);  // throws the kernel's error
  KernelCall call;
  call.func = p.func;
  call.kernel = &k;
  call.grid = p.gridDim;
  call.block = p.blockDim;
  call.shared = p.sharedMemBytes;
  call.params.assign(kernel.param_bytes, 0);
  if (p.kernelParams) {
    for (size_t i = 0; i < kernel.params.size(); ++i)
      std::memcpy(call.params.data() + kernel.params[i].offset, p.kernelParams[i],
                  kernel.params[i].size);
  } else if (!kernel.params.empty() && (!p.extra || !read_extra(p.extra, kernel, call.params))) {
    return kErrorInvalidValue;
  }
  for (const isa::VarDecl& param : kernel.params)
    call.args.push_back(call.params.data() + param.offset);
  out = call;
  return kSuccess;
}

KernelNodeParams kernel_params_of(KernelCall& call) {
  return {const_cast<void*>(call.func),       call.grid,        call.block,
          static_cast<unsigned>(call.shared), call.args.data(), nullptr};
}

}  // namespace gputlm::runtime
