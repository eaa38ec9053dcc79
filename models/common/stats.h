// Statistics owned by modules. A module keeps plain counters on its hot path and registers each
// once with a name, a unit and a description; derived figures (rates, averages) are formulas
// evaluated when the report is written. collect_stats() walks the SystemC hierarchy and returns
// JSON keyed by each module's hierarchical name ("gpu.sm0.l1").
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sc_core {
class sc_object;
}

namespace gputlm {

class StatGroup {
 public:
  struct Entry {
    std::string name;
    std::string unit;  // "count", "cycles", "bytes", "ratio", "GB/s", ...
    std::string description;
    const uint64_t* counter = nullptr;   // a counter, or
    std::function<double()> formula;      // a derived value
    const std::vector<uint64_t>* histogram = nullptr;  // or a histogram
  };

  void counter(const std::string& name, const uint64_t& value, const std::string& unit, const std::string& description);
  void formula(const std::string& name, std::function<double()> f, const std::string& unit, const std::string& description);
  void histogram(const std::string& name, const std::vector<uint64_t>& bins, const std::string& unit, const std::string& description);

  const std::vector<Entry>& entries() const { return m_entries; }
  // {"name": value, ...}
  nlohmann::json values() const;
  // {"name": {"unit": ..., "description": ...}, ...}
  nlohmann::json schema() const;

 private:
  std::vector<Entry> m_entries;
};

// Implemented by modules that own statistics.
class StatProvider {
 public:
  virtual ~StatProvider() = default;
  virtual const StatGroup& stats() const = 0;
};

// {"<hierarchical name>": {stat: value}} for every StatProvider below the given roots (all
// top-level objects if empty).
nlohmann::json collect_stats(const std::vector<sc_core::sc_object*>& roots = {});

// Ratio that is 0 when the denominator is 0.
inline double ratio(double num, double den) { return den == 0 ? 0.0 : num / den; }

}  // namespace gputlm
