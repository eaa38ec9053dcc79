// Test support: every kernel of every committed kernel.ptx under traces/, parsed.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "models/isa/kernel.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::test {

// Calls f(path, kernel) for each kernel; returns how many there were.
inline size_t for_each_trace_kernel(
    const std::function<void(const std::string&, const isa::Kernel&)>& f) {
  size_t kernels = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::string(GPUTLM_SOURCE_DIR) + "/traces")) {
    if (e.path().filename() != "kernel.ptx") continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    const auto m = isa::parse_ptx(text.str(), e.path().string());
    m->require_all_kernels();  // a workload kernel the front end cannot take fails the test
    for (const auto& k : m->kernels) {
      ++kernels;
      f(e.path().string(), *k);
    }
  }
  return kernels;
}

}  // namespace gputlm::test
