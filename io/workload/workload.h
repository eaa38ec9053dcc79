// A workload ready to run: its PTX module, launch description for one size, generated inputs,
// and its CPU reference. Drives any executor (the functional reference executor now, the timing
// model later) through for_each_launch() and checks every output buffer afterwards.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/workload/launch_spec.h"
#include "io/workload/reference.h"
#include "models/func/bound_kernel.h"
#include "models/func/device_services.h"
#include "models/isa/kernel.h"

namespace gputlm::workload {

struct BufferCheck {
  std::string name;
  std::string mode;
  size_t elements = 0;
  size_t mismatches = 0;
  std::string first_mismatch;  // "element 17: got 3.5, expected 3.25"
};

// The check of a run's outputs. Verified: buffers were checked and all match; failed: one
// differs; unchecked: none was checked (no reference, no "check" in launch.json, or the run was
// stopped), which is not a failure.
struct VerifyReport {
  std::vector<BufferCheck> buffers;
  std::string unchecked_reason;  // why no buffer was checked, when none was
  bool failed() const {
    for (const auto& b : buffers)
      if (b.mismatches) return true;
    return false;
  }
  bool unchecked() const { return buffers.empty(); }
  bool ok() const { return !failed() && !unchecked(); }  // verified
  const char* status() const {
    return failed() ? "failed" : unchecked() ? "unchecked" : "verified";
  }
  // The status of one buffer: verified, failed or unchecked.
  const char* status_of(const std::string& buffer) const {
    for (const auto& b : buffers)
      if (b.name == buffer) return b.mismatches ? "failed" : "verified";
    return "unchecked";
  }
};

// The final contents of an output buffer (raw bytes, little-endian elements).
struct OutputBuffer {
  std::string name;
  std::string type;
  size_t count = 0;
  std::vector<uint8_t> bytes;
};

// "<suite>/<name>" of a workload directory: its parent's name and its own, of the absolute path
// (so `vecadd` run from traces/micro is "micro/vecadd", as traces/micro/vecadd is). The default
// name of its CPU reference.
std::string workload_name(const std::string& dir);

class Workload {
 public:
  // Loads traces/<suite>/<name> (directory `dir`) for `size`. InputError on any problem,
  // including a reference launch.json names that is not registered, a checked buffer without a
  // reference, "custom" inputs without a generator, or a kernel whose parameters do not match
  // the description. Without a reference (none named, none registered by the default name) the
  // workload runs unchecked.
  Workload(const std::string& dir, const std::string& size);

  const std::string& name() const { return m_name; }
  const WorkloadSpec& spec() const { return m_spec; }
  const isa::Module& module() const { return *m_module; }

  // Generates the inputs, allocates every buffer in `mem` and copies the inputs in.
  void setup(func::GlobalMemory& mem);
  // Runs every launch in order (repeat and swap included) through `run`. The kernels' device
  // printf output goes to stdout after each launch (also one that faults).
  void for_each_launch(
      func::GlobalMemory& mem,
      const std::function<void(const func::BoundKernel&, const func::Launch&)>& run);
  // Computes the reference and compares it with every checked buffer in `mem` (nothing checked,
  // with the reason, when there is no reference).
  VerifyReport verify(const func::GlobalMemory& mem);
  bool has_reference() const { return m_has_reference; }
  // The final contents of the output buffers in `mem` (those with "check" or "output": true; when
  // launch.json marks none, every buffer that is not sparse), in launch.json order.
  std::vector<OutputBuffer> outputs(const func::GlobalMemory& mem) const;

 private:
  void check_host_code();
  void generate();
  // The parameter bytes of launch `index` (spec().launches) for kernel `k`, checked against its
  // .param list.
  std::vector<uint8_t> params(size_t index, const isa::Kernel& k) const;
  BufferCheck compare(const BufferSpec& spec, const HostBuffer& host,
                      const std::vector<uint8_t>& got) const;

  std::string m_dir;
  std::string m_name;
  WorkloadSpec m_spec;
  std::unique_ptr<isa::Module> m_module;
  std::map<std::string, std::unique_ptr<func::BoundKernel>> m_bound;
  func::ModuleImage m_image;        // where setup() placed the module's variables
  func::DeviceServices m_services;  // the kernels' printf FIFO and malloc heap
  std::vector<HostBuffer> m_host;
  std::map<std::string, uint64_t> m_address;  // buffer name -> device address (after swaps)
  bool m_has_reference = false;
};

}  // namespace gputlm::workload
