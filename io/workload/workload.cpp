#include "io/workload/workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>

#include "io/workload/buffer_values.h"
#include "models/common/error.h"
#include "models/common/nearest_name.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::workload {
namespace {

uint64_t name_hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

std::string workload_name(const std::string& dir) {
  std::error_code ec;  // a relative path names the same workload as its absolute form
  std::filesystem::path p = std::filesystem::absolute(dir, ec);
  if (ec) p = dir;
  p = p.lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.parent_path().filename().string() + "/" + p.filename().string();
}

Workload::Workload(const std::string& dir, const std::string& size)
    : m_dir(dir), m_name(workload_name(dir)) {
  std::error_code
      ec;  // a path the file system cannot look up (too long, ...) is no directory either
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(dir + ": no such workload directory" + did_you_mean_file(dir));
  const std::filesystem::path base(dir);
  m_spec = read_workload_spec((base / "launch.json").string(), size, m_name);
  m_module = isa::parse_ptx_file((base / "kernel.ptx").string());
  check_host_code();
  for (size_t i = 0; i < m_spec.launches.size(); ++i) {
    const LaunchSpec& l = m_spec.launches[i];
    const isa::Kernel* k = m_module->find(l.kernel);
    if (!k && m_module->kernel_errors.count(l.kernel))
      m_module->get(l.kernel);  // throws the kernel's parse error
    if (!k)
      throw ConfigError(m_spec.file, "launches[" + std::to_string(i) + "].kernel",
                        "no kernel '" + l.kernel + "' in kernel.ptx");
    if (!m_bound.count(
            l.kernel)) {  // binds now to report errors before any run; setup() binds again
      func::GlobalMemory scratch;
      const func::ModuleImage image = func::load_module_variables(*m_module, scratch);
      m_bound[l.kernel] = std::make_unique<func::BoundKernel>(*k, &image);
    }
    params(i, *k);  // checks the parameter list now, before any run
  }
}

// The reference and generator launch.json asks for are registered. A reference it does not name
// may be absent (the run is unchecked), unless a buffer has a "check"; "custom" inputs need a
// generator.
void Workload::check_host_code() {
  m_has_reference = find_reference(m_spec.reference) != nullptr;
  if (m_spec.reference_named && !m_has_reference)
    throw ConfigError(m_spec.file, "reference",
                      "no CPU reference registered as '" + m_spec.reference + "'" +
                          did_you_mean(m_spec.reference, reference_names()));
  for (size_t i = 0; i < m_spec.buffers.size() && !m_has_reference; ++i)
    if (m_spec.buffers[i].check.mode != CheckSpec::Mode::None)
      throw ConfigError(m_spec.file, "buffers[" + std::to_string(i) + "].check",
                        "needs a CPU reference, and none is registered as '" + m_spec.reference +
                            "' (write one with GPUTLM_REFERENCE, or replace \"check\" with "
                            "\"output\": true for an unchecked run)");
  if (!m_spec.generator.empty() && !find_generator(m_spec.generator))
    throw ConfigError(m_spec.file, "generator",
                      "no input generator registered as '" + m_spec.generator + "'" +
                          did_you_mean(m_spec.generator, generator_names()));
  for (size_t i = 0; i < m_spec.buffers.size() && m_spec.generator.empty(); ++i)
    if (m_spec.buffers[i].init.gen == "custom")
      throw ConfigError(m_spec.file, "buffers[" + std::to_string(i) + "].init.gen",
                        "\"custom\" contents come from an input generator: name one registered "
                        "with GPUTLM_GENERATOR in \"generator\", "
                        "or use zeros, const, iota or uniform, which need none");
}

void Workload::generate() {
  m_host.clear();
  bool custom = false;
  for (const BufferSpec& b : m_spec.buffers) {
    HostBuffer h;
    h.name = b.name;
    h.type = b.type;
    h.elem_size = b.elem_size;
    h.count = b.count;
    const InitSpec& in = b.init;  // validated by the reader: every value fits the type
    h.sparse = in.sparse;
    if (!h.sparse) h.bytes.assign(b.count * b.elem_size, 0);
    Rng rng(m_spec.seed ^ name_hash(b.name));
    const ElemType type = elem_type(b.type);
    if (in.gen == "const") {
      for (size_t i = 0; i < b.count; ++i) store_real(h.bytes, type, i, in.value);
    } else if (in.gen == "iota") {
      for (size_t i = 0; i < b.count; ++i)
        store_real(h.bytes, type, i, in.start + in.step * static_cast<double>(i));
    } else if (in.gen == "uniform") {
      for (size_t i = 0; i < b.count; ++i) {
        if (type.is_float())
          store_real(h.bytes, type, i, rng.uniform_real(in.min, in.max));
        else
          store_int(h.bytes, type, i,
                    rng.uniform_int(static_cast<int64_t>(in.min), static_cast<int64_t>(in.max)));
      }
    } else if (in.gen == "custom") {
      custom = true;
    }
    m_host.push_back(std::move(h));
  }
  if (custom) {  // check_host_code() made sure the generator exists
    GenContext ctx(m_spec.file, m_spec.vars, m_host, m_spec.seed);
    (*find_generator(m_spec.generator))(ctx);
  }
}

void Workload::setup(func::GlobalMemory& mem) {
  generate();
  m_address.clear();
  for (const HostBuffer& h : m_host) {
    const uint64_t addr = mem.allocate(h.count * h.elem_size, h.name);
    if (h.sparse)
      for (const auto& [first, piece] : h.pieces)
        mem.write(addr + first * h.elem_size, piece.data(), piece.size());
    else
      mem.write(addr, h.bytes.data(), h.bytes.size());
    m_address[h.name] = addr;
  }
  // Module variables (__constant__, __device__) after the buffers, and the kernels bound to their
  // addresses.
  m_image = func::load_module_variables(*m_module, mem);
  func::CodeLayout code;  // kernels' code in the order of their first launch
  std::set<std::string> placed;
  for (const LaunchSpec& l : m_spec.launches) {
    if (!placed.insert(l.kernel).second) continue;
    std::unique_ptr<func::BoundKernel>& bound = m_bound.at(l.kernel);
    const isa::Kernel& k = bound->kernel();
    bound = std::make_unique<func::BoundKernel>(k, &m_image, code.place(k));
  }
}

std::vector<uint8_t> Workload::params(size_t index, const isa::Kernel& k) const {
  const LaunchSpec& l = m_spec.launches[index];
  if (l.params.size() != k.params.size())
    throw ConfigError(m_spec.file, "launches[" + std::to_string(index) + "].params",
                      "kernel '" + k.name + "' takes " + std::to_string(k.params.size()) +
                          " parameters, the description gives " + std::to_string(l.params.size()));
  std::vector<uint8_t> bytes(k.param_bytes, 0);
  for (size_t i = 0; i < l.params.size(); ++i) {
    check_param(l.params[i], k.params[i], m_spec.file);
    encode_param(l.params[i], k.params[i], m_address, bytes);
  }
  return bytes;
}

void Workload::for_each_launch(
    func::GlobalMemory& mem,
    const std::function<void(const func::BoundKernel&, const func::Launch&)>& run) {
  for (size_t index = 0; index < m_spec.launches.size(); ++index) {
    const LaunchSpec& l = m_spec.launches[index];
    const func::BoundKernel& bk = *m_bound.at(l.kernel);
    for (uint64_t r = 0; r < l.repeat; ++r) {
      func::Launch launch;
      launch.kernel = &bk.kernel();
      launch.grid = l.grid;
      launch.block = l.block;
      launch.dynamic_shared = l.shared_bytes;
      launch.memory = &mem;
      launch.params = params(index, bk.kernel());
      launch.services = &m_services;
      m_services.begin_launch(bk.kernel(), mem);
      try {
        run(bk, launch);
      } catch (...) {
        std::cout << m_services.take_output() << std::flush;
        throw;
      }
      std::cout << m_services.take_output() << std::flush;
      for (const auto& [a, b] : l.swaps) std::swap(m_address[a], m_address[b]);
    }
  }
}

VerifyReport Workload::verify(const func::GlobalMemory& mem) {
  VerifyReport report;
  if (!m_has_reference) {
    report.unchecked_reason =
        "no CPU reference: launch.json names none and none is registered as '" + m_spec.reference +
        "'";
    return report;
  }
  ScalarParams scalars;
  for (const LaunchSpec& l : m_spec.launches) {
    scalars.emplace_back();
    for (const ParamSpec& p : l.params) scalars.back().push_back(p.scalar);
  }
  RefContext ctx(m_spec.file, m_spec.vars, m_host, std::move(scalars));
  (*find_reference(m_spec.reference))(ctx);
  for (size_t i = 0; i < m_spec.buffers.size(); ++i) {
    const BufferSpec& b = m_spec.buffers[i];
    if (b.check.mode == CheckSpec::Mode::None) continue;
    if (!m_host[i].has_expected)
      throw InputError(m_spec.file + ": reference '" + m_spec.reference +
                       "' gives no expected contents for checked buffer '" + b.name + "'");
    std::vector<uint8_t> got(m_host[i].count * m_host[i].elem_size);
    mem.read(m_address.at(b.name), got.data(), got.size());
    report.buffers.push_back(compare(b, m_host[i], got));
  }
  if (report.buffers.empty())
    report.unchecked_reason = "launch.json marks no buffer with \"check\"";
  return report;
}

std::vector<OutputBuffer> Workload::outputs(const func::GlobalMemory& mem) const {
  bool marked = false;
  for (const BufferSpec& b : m_spec.buffers) marked = marked || b.output;
  std::vector<OutputBuffer> out;
  for (const BufferSpec& b : m_spec.buffers) {
    if (marked ? !b.output : b.init.sparse) continue;
    OutputBuffer o{b.name, b.type, b.count, std::vector<uint8_t>(b.count * b.elem_size)};
    mem.read(m_address.at(b.name), o.bytes.data(), o.bytes.size());
    out.push_back(std::move(o));
  }
  return out;
}

BufferCheck Workload::compare(const BufferSpec& spec, const HostBuffer& host,
                              const std::vector<uint8_t>& got_in) const {
  BufferCheck c;
  c.name = spec.name;
  c.elements = spec.count;
  std::vector<uint8_t> got = got_in, want = host.expected;
  const size_t n = spec.elem_size;
  const ElemType type = elem_type(spec.type);
  if (spec.check.mode == CheckSpec::Mode::Multiset) {
    c.mode = "multiset";
    auto sort_elems = [&](std::vector<uint8_t>& v) {
      std::vector<size_t> idx(spec.count);
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        return element_value(v, type, a) < element_value(v, type, b);
      });
      std::vector<uint8_t> out(v.size());
      for (size_t i = 0; i < idx.size(); ++i)
        std::memcpy(out.data() + i * n, v.data() + idx[i] * n, n);
      v = std::move(out);
    };
    sort_elems(got);
    sort_elems(want);
  } else {
    c.mode = spec.check.mode == CheckSpec::Mode::Float ? "float" : "exact";
  }
  for (size_t i = 0; i < spec.count; ++i) {
    bool equal;
    if (spec.check.mode == CheckSpec::Mode::Float && type.is_float()) {
      const double g = element_value(got, type, i), w = element_value(want, type, i);
      equal = (std::isnan(g) && std::isnan(w)) ||
              std::fabs(g - w) <= spec.check.abs + spec.check.rel * std::fabs(w);
    } else {
      equal = std::memcmp(got.data() + i * n, want.data() + i * n, n) == 0;
    }
    if (!equal && c.mismatches++ == 0)
      c.first_mismatch =
          std::string(spec.check.mode == CheckSpec::Mode::Multiset ? "sorted element "
                                                                   : "element ") +
          std::to_string(i) + ": got " + element_text(got, type, i) + ", expected " +
          element_text(want, type, i);
  }
  return c;
}

}  // namespace gputlm::workload
