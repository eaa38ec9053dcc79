// A workload ready to run: its PTX module, launch description for one size, generated inputs,
// and its CPU reference. Drives any executor (the functional reference executor now, the timing
// model later) through for_each_launch() and checks every output buffer afterwards.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/func/bound_kernel.h"
#include "models/isa/kernel.h"
#include "tb/workload/launch_spec.h"
#include "tb/workload/reference.h"

namespace gputlm::workload {

struct BufferCheck {
  std::string name;
  std::string mode;
  size_t elements = 0;
  size_t mismatches = 0;
  std::string first_mismatch;  // "element 17: got 3.5, expected 3.25"
};

struct VerifyReport {
  std::vector<BufferCheck> buffers;
  bool ok() const {
    for (const auto& b : buffers)
      if (b.mismatches) return false;
    return !buffers.empty();
  }
};

class Workload {
 public:
  // Loads traces/<suite>/<name> (directory `dir`) for `size`. InputError on any problem,
  // including a missing reference or a kernel whose parameters do not match the description.
  Workload(const std::string& dir, const std::string& size);

  const std::string& name() const { return m_name; }
  const WorkloadSpec& spec() const { return m_spec; }
  const isa::Module& module() const { return *m_module; }

  // Generates the inputs, allocates every buffer in `mem` and copies the inputs in.
  void setup(func::GlobalMemory& mem);
  // Runs every launch in order (repeat and swap included) through `run`.
  void for_each_launch(func::GlobalMemory& mem,
                       const std::function<void(const func::BoundKernel&, const func::Launch&)>& run);
  // Computes the reference and compares it with every checked buffer in `mem`.
  VerifyReport verify(const func::GlobalMemory& mem);

 private:
  void generate();
  std::vector<uint8_t> params(const LaunchSpec& l, const isa::Kernel& k) const;
  BufferCheck compare(const BufferSpec& spec, const HostBuffer& host, const std::vector<uint8_t>& got) const;

  std::string m_dir;
  std::string m_name;
  WorkloadSpec m_spec;
  std::unique_ptr<isa::Module> m_module;
  std::map<std::string, std::unique_ptr<func::BoundKernel>> m_bound;
  func::ModuleImage m_image;  // where setup() placed the module's variables
  std::vector<HostBuffer> m_host;
  std::map<std::string, uint64_t> m_address;  // buffer name -> device address (after swaps)
};

}  // namespace gputlm::workload
