// The launch description of a workload (traces/<suite>/<name>/launch.json, documented in
// traces/README.md), read for one size ("test", "study", ...) with every expression evaluated.
// Every problem is a ConfigError naming the file and the key.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "models/common/expr.h"
#include "models/func/launch.h"

namespace gputlm::workload {

struct CheckSpec {
  enum class Mode { None, Exact, Float, Multiset };
  Mode mode = Mode::None;
  double rel = 0.0;
  double abs = 0.0;
};

struct BufferSpec {
  std::string name;
  std::string type;
  size_t elem_size = 4;
  size_t count = 0;
  nlohmann::json init;  // {"gen": ...}
  CheckSpec check;
};

struct ParamSpec {
  std::string buffer;  // device address of this buffer, or
  std::string type;    // a scalar of this type
  nlohmann::json value;
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
  std::string generator;
  ExprVars vars;
  std::vector<BufferSpec> buffers;
  std::vector<LaunchSpec> launches;

  const BufferSpec* buffer(const std::string& name) const;
};

// Element size of a buffer type name, 0 if unknown.
size_t buffer_type_size(const std::string& type);

// Reads and validates `file` for `size`; `default_reference` is "<suite>/<name>".
WorkloadSpec read_workload_spec(const std::string& file, const std::string& size, const std::string& default_reference);

}  // namespace gputlm::workload
