// Reads the keys of a launch description (launch.json) with errors that name the file and the
// key path ("launches[0].params[2].offset"): one ConfigError per problem. Integers may be
// expressions over the size variables (models/common/expr.h).
#pragma once

#include <climits>
#include <nlohmann/json.hpp>
#include <string>

#include "models/common/error.h"
#include "models/common/expr.h"
#include "models/common/limits.h"
#include "models/func/launch.h"

namespace gputlm::workload {

using nlohmann::json;

// Reads keys of one JSON object with errors that name the key path.
class SpecReader {
 public:
  SpecReader(const std::string& file, const ExprVars& vars) : m_file(file), m_vars(vars) {}
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw ConfigError(m_file, key, why);
  }

  const json& at(const json& obj, const std::string& key, const std::string& path) const {
    object(obj, parent(path));
    if (!obj.contains(key)) fail(path, "missing");
    return obj.at(key);
  }
  const json& object(const json& v, const std::string& path) const {
    if (!v.is_object()) fail(path.empty() ? "(root)" : path, "must be a JSON object");
    return v;
  }
  const json& list(const json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, "must be a list");
    return v;
  }
  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "must be a string");
    return v.get<std::string>();
  }
  // An integer or an integer expression string.
  int64_t integer(const json& v, const std::string& path) const {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      fail(path, "must be at most 2^63-1");
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_string()) {
      try {
        return eval_expr(v.get<std::string>(), m_vars);
      } catch (const InputError& e) {
        fail(path, e.what());
      }
    }
    fail(path, "must be an integer or an integer expression");
  }
  int64_t bounded(const json& v, const std::string& path, int64_t min, uint64_t max,
                  const char* limit = nullptr) const {
    const int64_t n = integer(v, path);
    if (n < min || static_cast<uint64_t>(n) > max)
      fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                     " (is " + std::to_string(n) + ")" + (limit ? limits::named(limit) : ""));
    return n;
  }
  // A number, or an integer expression over the size variables.
  double real(const json& v, const std::string& path) const {
    if (v.is_number_float()) return v.get<double>();
    return static_cast<double>(integer(v, path));
  }
  func::Dim3 dim3(const json& v, const std::string& path, const uint64_t (&max)[3]) const {
    func::Dim3 d;
    const json one = json::array({v});
    const json& dims = v.is_array() ? v : one;
    if (dims.empty() || dims.size() > 3) fail(path, "must have 1 to 3 dimensions");
    uint32_t* out[3] = {&d.x, &d.y, &d.z};
    for (size_t i = 0; i < dims.size(); ++i)
      *out[i] = static_cast<uint32_t>(
          bounded(dims[i], v.is_array() ? path + "[" + std::to_string(i) + "]" : path, 1, max[i]));
    return d;
  }

 private:
  static std::string parent(const std::string& path) {
    const size_t dot = path.rfind('.');
    return dot == std::string::npos ? "" : path.substr(0, dot);
  }
  const std::string& m_file;
  const ExprVars& m_vars;
};

}  // namespace gputlm::workload
