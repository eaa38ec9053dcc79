// Module variables in device memory: what a CUDA runtime needs for __constant__ and __device__
// variables (__cudaRegisterVar, cudaMemcpyToSymbol, cudaGetSymbolAddress).
//
//   func::GlobalMemory mem;
//   func::ModuleImage image = func::load_module_variables(module, mem);
//   uint64_t a = image.address.at("coeffs");          // device address of a variable
//   mem.write(a, host_values, sizeof host_values);    // cudaMemcpyToSymbol
//   func::BoundKernel bound(*module.find("k"), &image);  // instructions naming variables get their
//   addresses
//
// Every .global and .const variable of the module gets an allocation of its own in global memory
// (named "module:<name>"), holding its initial bytes (zeros where it has none); address
// initialisers (`generic(sym)`) are filled with the addresses of the variables (or device
// functions: isa::kFunctionAddressBase) they name. .const
// variables live in the same address space as .global ones: ld.const reads global memory, and
// cvta.const is the identity (as cvta.global). An .extern variable of unknown size is an error.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "models/func/global_memory.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

struct ModuleImage {
  std::map<std::string, uint64_t> address;  // variable name -> device address
  std::map<std::string, uint64_t> size;     // variable name -> bytes

  // The address of `name`; throws InputError naming the variable if the module has none.
  uint64_t at(const std::string& name) const;
};

// Allocates and initialises every .global and .const variable of `module` in `memory`.
ModuleImage load_module_variables(const isa::Module& module, GlobalMemory& memory);

}  // namespace gputlm::func
