// The launch description of a workload (traces/<suite>/<name>/launch.json, documented in
// traces/README.md), read for one size ("test", "study", ...) with every expression evaluated.
// Every problem is a ConfigError naming the file and the key.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "io/workload/param_spec.h"
#include "models/common/expr.h"
#include "models/func/launch.h"

namespace gputlm::workload {

struct CheckSpec {
  enum class Mode { None, Exact, Float, Multiset };
  Mode mode = Mode::None;
  double rel = 0.0;
  double abs = 0.0;
};

// How a buffer's initial contents are made ("init"); every value fits the buffer's type.
struct InitSpec {
  std::string gen = "zeros";       // zeros, const, iota, uniform or custom
  bool sparse = false;             // custom only: the generator writes pieces
  double value = 0.0;              // const
  double start = 0.0, step = 1.0;  // iota: element i is start + step x i
  double min = 0.0, max = 0.0;     // uniform: inclusive for integer types, [min, max) for floats
};

struct BufferSpec {
  std::string name;
  std::string type;
  size_t elem_size = 4;
  size_t count = 0;
  InitSpec init;
  CheckSpec check;
  bool output =
      false;  // "output": true, or a "check": a result of the run (--dump-outputs writes it)
};

struct LaunchSpec {
  std::string kernel;
  func::Dim3 grid, block;
  uint32_t shared_bytes = 0;
  std::vector<ParamSpec> params;
  uint64_t repeat = 1;
  std::vector<std::pair<std::string, std::string>> swaps;
};

struct WorkloadSpec {
  std::string file;  // path of launch.json, for messages
  std::string size;
  nlohmann::json doc;  // the whole description (description, paper, scaling, ...)
  uint64_t seed = 1;
  std::string reference;
  bool reference_named =
      false;  // "reference" given: it must exist; else the default may be absent (unchecked)
  std::string generator;
  ExprVars vars;
  std::vector<BufferSpec> buffers;
  std::vector<LaunchSpec> launches;

  const BufferSpec* buffer(const std::string& name) const;
};

// Element size of a buffer type name, 0 if unknown.
size_t buffer_type_size(const std::string& type);

// Whether `v` is a value of buffer type `type` (integers: in the type's range and in int64's;
// floats: finite and within the type's range).
bool fits_type(const std::string& type, double v);
// Whether `v` is a value of integer buffer type `type`.
bool fits_int_type(const std::string& type, int64_t v);

// Reads and validates `file` for `size`; `default_reference` is "<suite>/<name>". Sizes, grid and
// block dimensions and buffer sizes are checked against models/common/limits.h.
WorkloadSpec read_workload_spec(const std::string& file, const std::string& size,
                                const std::string& default_reference);
// The same from the description's text; `file` names it in messages.
WorkloadSpec parse_workload_spec(const std::string& text, const std::string& file,
                                 const std::string& size, const std::string& default_reference);

}  // namespace gputlm::workload
