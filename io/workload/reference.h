// The host side of a workload: custom input generators and CPU references, registered by name
// from traces/<suite>/<name>/reference.cpp. launch.json names them ("reference", "generator").
//
//   GPUTLM_REFERENCE("micro/vecadd") {            // ctx is a RefContext&
//     auto a = ctx.input<float>("a"), b = ctx.input<float>("b");
//     std::vector<float> c(a.size());
//     for (size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];
//     ctx.expect("c", c);                          // every buffer with a "check" needs one
//   }
//   GPUTLM_GENERATOR("narasiman/bfs") {            // ctx is a GenContext&; fills "custom" buffers
//     std::vector<uint32_t> offsets(ctx.count("row_offsets")); ... ctx.fill("row_offsets",
//     offsets);
//   }
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/workload/rng.h"
#include "models/common/error.h"

namespace gputlm::workload {

// One named buffer of a workload on the host: element type, count and contents.
struct HostBuffer {
  std::string name;
  std::string type;  // u8 s8 u16 s16 u32 s32 u64 s64 f32 f64
  size_t elem_size = 4;
  size_t count = 0;
  std::vector<uint8_t> bytes;  // initial contents (size = elem_size * count), unless sparse
  // A sparse buffer ("init": {"gen": "custom", "sparse": true}) holds only the pieces its generator
  // wrote (first element -> bytes); the rest of it reads as zeros. For inputs far larger than what
  // a kernel touches (a search tree of a billion keys, of which only the looked-up paths exist).
  bool sparse = false;
  std::map<size_t, std::vector<uint8_t>> pieces;
  std::vector<uint8_t> expected;  // filled by the reference for checked buffers
  bool has_expected = false;
};

// Everything a generator or reference may read: size variables and buffers by name.
class HostData {
 public:
  HostData(std::string where, std::map<std::string, int64_t> vars, std::vector<HostBuffer>& buffers)
      : m_where(std::move(where)), m_vars(std::move(vars)), m_buffers(buffers) {}

  // A size variable of the selected size ("sizes" in launch.json).
  int64_t var(const std::string& name) const;
  // Number of elements of a buffer.
  size_t count(const std::string& buffer) const { return find(buffer).count; }

 protected:
  HostBuffer& find(const std::string& buffer) const;
  template <class T>
  static std::vector<T> as(const std::vector<uint8_t>& bytes) {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
  template <class T>
  void put(HostBuffer& b, const std::vector<T>& values, std::vector<uint8_t>& dst) const {
    check_shape(b, sizeof(T), values.size());
    dst.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(dst.data(), values.data(), dst.size());
  }
  void check_shape(const HostBuffer& b, size_t elem_size, size_t n) const;

  std::string m_where;

 private:
  std::map<std::string, int64_t> m_vars;
  std::vector<HostBuffer>& m_buffers;
};

// Given to a custom generator: fills the buffers whose "init" is {"gen": "custom"}.
class GenContext : public HostData {
 public:
  GenContext(std::string where, std::map<std::string, int64_t> vars,
             std::vector<HostBuffer>& buffers, uint64_t seed)
      : HostData(std::move(where), std::move(vars), buffers), m_rng(seed) {}
  Rng& rng() { return m_rng; }
  template <class T>
  void fill(const std::string& buffer, const std::vector<T>& values) {
    HostBuffer& b = find(buffer);
    if (b.sparse)
      throw InputError(m_where + ": buffer '" + buffer + "' is sparse: fill it with fill_at");
    put(b, values, b.bytes);
  }
  // Writes `values` from element `first` on (a piece of a sparse buffer, or part of a dense one).
  template <class T>
  void fill_at(const std::string& buffer, size_t first, const std::vector<T>& values) {
    HostBuffer& b = find(buffer);
    if (sizeof(T) != b.elem_size || first + values.size() > b.count)
      check_shape(b, sizeof(T), first + values.size());
    const uint8_t* src = reinterpret_cast<const uint8_t*>(values.data());
    if (b.sparse)
      b.pieces[first].assign(src, src + values.size() * sizeof(T));
    else if (!values.empty())
      std::memcpy(b.bytes.data() + first * sizeof(T), src, values.size() * sizeof(T));
  }

 private:
  Rng m_rng;
};

// Scalar kernel parameters of each launch in launch.json order; nullopt where a buffer is passed.
using ScalarParams = std::vector<std::vector<std::optional<double>>>;

// Given to a CPU reference: reads initial inputs and scalar parameters, states the expected
// final outputs.
class RefContext : public HostData {
 public:
  RefContext(std::string where, std::map<std::string, int64_t> vars,
             std::vector<HostBuffer>& buffers, ScalarParams scalars)
      : HostData(std::move(where), std::move(vars), buffers), m_scalars(std::move(scalars)) {}
  // The scalar parameter `index` of launch `launch` (both 0-based, as listed in launch.json).
  double param(size_t launch, size_t index) const;
  // Initial contents of a buffer (as generated, before the kernel ran).
  template <class T>
  std::vector<T> input(const std::string& buffer) const {
    const HostBuffer& b = find(buffer);
    check_shape(b, sizeof(T), b.count);
    if (b.sparse)
      throw InputError(m_where + ": buffer '" + buffer +
                       "' is sparse; a reference cannot read it whole");
    return as<T>(b.bytes);
  }
  // Expected contents of a checked buffer after the launches (compared per its "check" mode).
  template <class T>
  void expect(const std::string& buffer, const std::vector<T>& values) {
    HostBuffer& b = find(buffer);
    put(b, values, b.expected);
    b.has_expected = true;
  }

 private:
  ScalarParams m_scalars;
};

using ReferenceFn = std::function<void(RefContext&)>;
using GeneratorFn = std::function<void(GenContext&)>;

// Name -> function tables, filled by static registration objects before main().
const ReferenceFn* find_reference(const std::string& name);
const GeneratorFn* find_generator(const std::string& name);
std::vector<std::string> reference_names();
std::vector<std::string> generator_names();

struct ReferenceRegistration {
  ReferenceRegistration(const char* name, ReferenceFn fn);
};
struct GeneratorRegistration {
  GeneratorRegistration(const char* name, GeneratorFn fn);
};

}  // namespace gputlm::workload

#define GPUTLM_WL_CONCAT2(a, b) a##b
#define GPUTLM_WL_CONCAT(a, b) GPUTLM_WL_CONCAT2(a, b)
#define GPUTLM_REFERENCE(NAME)                                                               \
  static void GPUTLM_WL_CONCAT(gputlm_ref_, __LINE__)(::gputlm::workload::RefContext & ctx); \
  static const ::gputlm::workload::ReferenceRegistration GPUTLM_WL_CONCAT(                   \
      gputlm_ref_reg_, __LINE__)(NAME, &GPUTLM_WL_CONCAT(gputlm_ref_, __LINE__));            \
  static void GPUTLM_WL_CONCAT(gputlm_ref_, __LINE__)(::gputlm::workload::RefContext & ctx)
#define GPUTLM_GENERATOR(NAME)                                                               \
  static void GPUTLM_WL_CONCAT(gputlm_gen_, __LINE__)(::gputlm::workload::GenContext & ctx); \
  static const ::gputlm::workload::GeneratorRegistration GPUTLM_WL_CONCAT(                   \
      gputlm_gen_reg_, __LINE__)(NAME, &GPUTLM_WL_CONCAT(gputlm_gen_, __LINE__));            \
  static void GPUTLM_WL_CONCAT(gputlm_gen_, __LINE__)(::gputlm::workload::GenContext & ctx)
