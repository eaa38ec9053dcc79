#include "app/kernel_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gputlm::app {

std::string demangled_kernel_name(const std::string& ptx_name) {
  // Only a mangled function name: the demangler also reads a bare type code ("f" is float).
  if (ptx_name.compare(0, 2, "_Z") != 0) return ptx_name;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(ptx_name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && name ? std::string(name.get()) : ptx_name;
}

}  // namespace gputlm::app
