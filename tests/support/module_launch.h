// Test support for whole PTX modules: parses a file (or text), places its .global/.const variables
// in a fresh global memory and runs one kernel on the functional engine with 32-bit or 64-bit
// parameters, for tests of calls and module variables.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/func/module_image.h"
#include "models/func/reference_executor.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::test {

// tests/data/ptx/<name> in the source tree.
inline std::string ptx_data(const std::string& name) {
  return std::string(GPUTLM_SOURCE_DIR) + "/tests/data/ptx/" + name;
}

struct ModuleLaunch {
  explicit ModuleLaunch(std::unique_ptr<isa::Module> m)
      : module(std::move(m)), image(func::load_module_variables(*module, memory)) {}
  static ModuleLaunch file(const std::string& path) {
    return ModuleLaunch(isa::parse_ptx_file(path));
  }

  // A launch of `kernel` with `params` (each written with the size the kernel declares).
  func::Launch launch(const std::string& kernel, uint32_t grid, uint32_t block,
                      const std::vector<uint64_t>& params) {
    const isa::Kernel& k = module->get(kernel);
    bound = std::make_unique<func::BoundKernel>(k, &image);
    func::Launch l;
    l.kernel = &k;
    l.grid = {grid, 1, 1};
    l.block = {block, 1, 1};
    l.memory = &memory;
    l.params.assign(k.param_bytes, 0);
    for (size_t i = 0; i < params.size() && i < k.params.size(); ++i)
      std::memcpy(l.params.data() + k.params[i].offset, &params[i], k.params[i].size);
    return l;
  }
  // Runs it on the functional engine.
  func::FuncStats run(const std::string& kernel, uint32_t grid, uint32_t block,
                      const std::vector<uint64_t>& params) {
    const func::Launch l = launch(kernel, grid, block, params);
    return func::run_reference(*bound, l);
  }
  template <class T>
  std::vector<T> read(uint64_t addr, size_t n) const {
    std::vector<T> v(n);
    memory.read(addr, v.data(), n * sizeof(T));
    return v;
  }

  std::unique_ptr<isa::Module> module;
  func::GlobalMemory memory;
  func::ModuleImage image;
  std::unique_ptr<func::BoundKernel> bound;
};

// Host versions of tests/data/ptx/calls.cu.
inline uint32_t host_fact(uint32_t n) { return n <= 1 ? 1 : n * host_fact(n - 1); }
inline int host_fib(int n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }
inline uint32_t host_recurse(int i, int scale) {
  static const int kTable[5] = {10, 20, 30, 40, 50};
  return host_fact(static_cast<uint32_t>(i % 13)) +
         static_cast<uint32_t>(host_fib(i % 10) * scale + kTable[i % 5]);
}

}  // namespace gputlm::test
