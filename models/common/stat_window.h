// The statistics of one window of a run (a launch), for every module that owns statistics:
// opened before the launch runs, closed after it. Each module's StatGroup marks its values at
// the open and, at the close, reports the counters' growth, the peaks within the window and its
// formulas over the window's values alone (stats.h), then puts the run's values back: the
// run-level statistics and what is simulated are as if no window had been taken. Open and close
// only while no simulation runs; the cost is one pass over the registered values each.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "models/common/stats.h"

namespace gputlm {

class StatWindow {
 public:
  // Opens the window on every StatProvider below the roots (all top-level objects if empty).
  explicit StatWindow(const std::vector<sc_core::sc_object*>& roots = {});
  // Puts the run's values back if close() was not called (the launch threw).
  ~StatWindow();
  StatWindow(const StatWindow&) = delete;
  StatWindow& operator=(const StatWindow&) = delete;

  // {"<hierarchical name>": {stat: value over the window}}, as collect_stats(). Once.
  nlohmann::json close();

 private:
  std::vector<std::pair<std::string, StatProvider*>> m_providers;
  std::vector<StatGroup::Mark> m_marks;
  bool m_closed = false;
};

}  // namespace gputlm
