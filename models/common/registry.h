// Name -> value tables filled before main() by static registration objects: policies by the name
// a JSON config uses, workload references by workload name. The one sanctioned kind of global
// state (docs/design/architecture.md): a function-local static per value type, read-only once
// main() runs.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/common/nearest_name.h"

namespace gputlm {

template <class Value>
class Registry {
 public:
  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  // Registers `value` under `name`; a second registration of one name is a programming error.
  void add(const std::string& name, Value value) {
    if (!m_entries.emplace(name, std::move(value)).second)
      throw std::logic_error("duplicate registration of '" + name + "'");
  }
  // The value registered as `name`, or nullptr.
  const Value* find(const std::string& name) const {
    auto it = m_entries.find(name);
    return it == m_entries.end() ? nullptr : &it->second;
  }
  // The value registered as `name`; otherwise an InputError naming `what` and the known names.
  const Value& get(const std::string& name, const std::string& what) const {
    if (const Value* v = find(name)) return *v;
    std::string known;
    for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("unknown " + what + " '" + name + "'" + did_you_mean(name, names()) +
                     " (known: " + known + ")");
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, value] : m_entries) out.push_back(name);
    return out;
  }

 private:
  Registry() = default;
  std::map<std::string, Value> m_entries;
};

}  // namespace gputlm
