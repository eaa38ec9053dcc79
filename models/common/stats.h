// Statistics owned by modules. A module keeps plain counters on its hot path and registers each
// once with a name, a unit and a description; derived figures (rates, averages) are formulas
// evaluated when the report is written. collect_stats() walks the SystemC hierarchy and returns
// JSON keyed by each module's hierarchical name ("gpu.sm0.l1").
//
// A group can also report a window of the run alone (one launch: stat_window.h). Every value
// registered says how it behaves over a window: a counter's or histogram's value is its growth,
// a maximum's the largest value within the window, a formula is evaluated with the registered
// values replaced by the window's. So each value a formula reads is registered, reported or not
// (formula_input).
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
  // How a registered value behaves over a window of the run, and so how the module updates it.
  enum class Accrual {
    kSum,  // only grows (+=): over a window, its growth
    kMax,  // a peak (x = max(x, v)): over a window, the peak within it
    kMin,  // an earliest mark (x = min(x, v), ~0 before any): over a window, the earliest within it
  };
  enum class Kind { kCounter, kMaximum, kHistogram, kFormula, kTally, kInput };

  struct Entry {
    std::string name;  // empty for an input
    Kind kind = Kind::kCounter;
    std::string unit;  // "count", "cycles", "bytes", "ratio", "GB/s", ...
    std::string description;
    uint64_t* value = nullptr;              // a counter, maximum or input
    Accrual accrual = Accrual::kSum;        // of `value`
    std::function<double()> formula;        // a formula or a tally
    std::vector<uint64_t>* bins = nullptr;  // a histogram
    std::vector<std::string> labels;  // a histogram's bin names (empty: bins indexed by value)
  };

  // A count that only grows.
  void counter(const std::string& name, uint64_t& value, const std::string& unit,
               const std::string& description);
  // The largest value seen (the module keeps value = max(value, x)).
  void maximum(const std::string& name, uint64_t& value, const std::string& unit,
               const std::string& description);
  // Counts by bin. With labels (one per bin) the bins have meanings (a cause, a kind) and are
  // reported as {label: count}; without, the index is the value counted ([count of 0, of 1, ...]).
  void histogram(const std::string& name, std::vector<uint64_t>& bins, const std::string& unit,
                 const std::string& description, std::vector<std::string> labels = {});
  // A derived value (a rate, an average) computed from registered values only.
  void formula(const std::string& name, std::function<double()> f, const std::string& unit,
               const std::string& description);
  // A count computed when read from state that is no registered counter (a policy's count, a
  // running sum folded in lazily); it only grows: over a window, its growth.
  void tally(const std::string& name, std::function<double()> f, const std::string& unit,
             const std::string& description);
  // A value formulas read that is not reported itself (a latency sum, a first-arrival cycle).
  void formula_input(uint64_t& value, Accrual accrual);

  const std::vector<Entry>& entries() const { return m_entries; }
  // {"name": value, ...}: a number, an array of counts, or {label: count}.
  nlohmann::json values() const;
  // {"name": {"unit": ..., "description": ..., "kind": "counter" | "maximum" | "histogram" |
  // "formula" | "tally"[, "bins": [label, ...]]}, ...}
  nlohmann::json schema() const;

  // The group's state where a window opens. Windows open and close only while no simulation
  // runs (between launches); the registered values are the module's own and are rewritten here.
  struct Mark {
    std::vector<uint64_t> values;             // per entry: the value at the start (0 if none)
    std::vector<std::vector<uint64_t>> bins;  // per entry: the histogram at the start
    std::vector<double> tallies;              // per entry: the tally at the start
  };
  // Marks the start of a window; maxima and earliest marks restart (the run's are kept in the
  // mark).
  Mark open_window();
  // The values over the window alone (as values()); afterwards every registered value is the
  // run's again, as if no window had been taken.
  nlohmann::json close_window(const Mark& start);

 private:
  void add(Entry e);
  nlohmann::json value_of(const Entry& e) const;
  std::vector<Entry> m_entries;
};

// Implemented by modules that own statistics: they register into m_stats in their constructor.
class StatProvider {
 public:
  virtual ~StatProvider() = default;
  const StatGroup& stats() const { return m_stats; }
  StatGroup& stats() { return m_stats; }

 protected:
  StatGroup m_stats;
};

// Every StatProvider below the given roots (all top-level objects if empty), in hierarchy
// order, with its hierarchical name.
std::vector<std::pair<std::string, StatProvider*>> stat_providers(
    const std::vector<sc_core::sc_object*>& roots = {});

// {"<hierarchical name>": {stat: value}} for every StatProvider below the given roots (all
// top-level objects if empty).
nlohmann::json collect_stats(const std::vector<sc_core::sc_object*>& roots = {});

// Ratio that is 0 when the denominator is 0.
inline double ratio(double num, double den) { return den == 0 ? 0.0 : num / den; }

}  // namespace gputlm
