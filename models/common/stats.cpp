#include "models/common/stats.h"

#include <algorithm>
#include <stdexcept>
#include <systemc>

namespace gputlm {

void StatGroup::add(Entry e) { m_entries.push_back(std::move(e)); }

void StatGroup::counter(const std::string& name, uint64_t& value, const std::string& unit,
                        const std::string& description) {
  add({name, Kind::kCounter, unit, description, &value, Accrual::kSum, {}, nullptr, {}});
}

void StatGroup::maximum(const std::string& name, uint64_t& value, const std::string& unit,
                        const std::string& description) {
  add({name, Kind::kMaximum, unit, description, &value, Accrual::kMax, {}, nullptr, {}});
}

void StatGroup::histogram(const std::string& name, std::vector<uint64_t>& bins,
                          const std::string& unit, const std::string& description,
                          std::vector<std::string> labels) {
  if (!labels.empty() && labels.size() != bins.size())
    throw std::logic_error("statistic '" + name + "': " + std::to_string(labels.size()) +
                           " labels for " + std::to_string(bins.size()) + " bins");
  add({name,
       Kind::kHistogram,
       unit,
       description,
       nullptr,
       Accrual::kSum,
       {},
       &bins,
       std::move(labels)});
}

void StatGroup::formula(const std::string& name, std::function<double()> f, const std::string& unit,
                        const std::string& description) {
  add({name, Kind::kFormula, unit, description, nullptr, Accrual::kSum, std::move(f), nullptr, {}});
}

void StatGroup::tally(const std::string& name, std::function<double()> f, const std::string& unit,
                      const std::string& description) {
  add({name, Kind::kTally, unit, description, nullptr, Accrual::kSum, std::move(f), nullptr, {}});
}

void StatGroup::formula_input(uint64_t& value, Accrual accrual) {
  add({"", Kind::kInput, "", "", &value, accrual, {}, nullptr, {}});
}

nlohmann::json StatGroup::value_of(const Entry& e) const {
  if (e.value) return *e.value;
  if (e.formula) return e.formula();
  if (e.labels.empty()) return *e.bins;
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < e.labels.size(); ++i) j[e.labels[i]] = (*e.bins)[i];
  return j;
}

nlohmann::json StatGroup::values() const {
  nlohmann::json j = nlohmann::json::object();
  for (const Entry& e : m_entries)
    if (e.kind != Kind::kInput) j[e.name] = value_of(e);
  return j;
}

nlohmann::json StatGroup::schema() const {
  static const char* const kKinds[] = {"counter", "maximum", "histogram", "formula", "tally"};
  nlohmann::json j = nlohmann::json::object();
  for (const Entry& e : m_entries) {
    if (e.kind == Kind::kInput) continue;
    nlohmann::json& s = j[e.name] = {{"unit", e.unit},
                                     {"description", e.description},
                                     {"kind", kKinds[static_cast<size_t>(e.kind)]}};
    if (!e.labels.empty()) s["bins"] = e.labels;
  }
  return j;
}

StatGroup::Mark StatGroup::open_window() {
  Mark m{std::vector<uint64_t>(m_entries.size(), 0),
         std::vector<std::vector<uint64_t>>(m_entries.size()),
         std::vector<double>(m_entries.size(), 0.0)};
  for (size_t i = 0; i < m_entries.size(); ++i) {
    const Entry& e = m_entries[i];
    if (e.value) {
      m.values[i] = *e.value;
      if (e.accrual == Accrual::kMax) *e.value = 0;
      if (e.accrual == Accrual::kMin) *e.value = ~0ull;
    }
    if (e.bins) m.bins[i] = *e.bins;
    if (e.kind == Kind::kTally) m.tallies[i] = e.formula();
  }
  return m;
}

nlohmann::json StatGroup::close_window(const Mark& start) {
  // The run's values now; tallies first, as they may read registered values.
  std::vector<double> tallies(m_entries.size(), 0.0);
  for (size_t i = 0; i < m_entries.size(); ++i)
    if (m_entries[i].kind == Kind::kTally) tallies[i] = m_entries[i].formula() - start.tallies[i];
  std::vector<uint64_t> run(m_entries.size(), 0);
  std::vector<std::vector<uint64_t>> run_bins(m_entries.size());
  // The window's values in their place (maxima and earliest marks already hold the window's).
  for (size_t i = 0; i < m_entries.size(); ++i) {
    const Entry& e = m_entries[i];
    if (e.value && e.accrual == Accrual::kSum) {
      run[i] = *e.value;
      *e.value -= start.values[i];
    }
    if (e.bins) {
      run_bins[i] = *e.bins;
      for (size_t b = 0; b < e.bins->size(); ++b) (*e.bins)[b] -= start.bins[i][b];
    }
  }
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < m_entries.size(); ++i) {
    const Entry& e = m_entries[i];
    if (e.kind == Kind::kTally)
      j[e.name] = tallies[i];
    else if (e.kind != Kind::kInput)
      j[e.name] = value_of(e);
  }
  // The run's values back.
  for (size_t i = 0; i < m_entries.size(); ++i) {
    const Entry& e = m_entries[i];
    if (e.value && e.accrual == Accrual::kSum) *e.value = run[i];
    if (e.value && e.accrual == Accrual::kMax) *e.value = std::max(*e.value, start.values[i]);
    if (e.value && e.accrual == Accrual::kMin) *e.value = std::min(*e.value, start.values[i]);
    if (e.bins) *e.bins = std::move(run_bins[i]);
  }
  return j;
}

std::vector<std::pair<std::string, StatProvider*>> stat_providers(
    const std::vector<sc_core::sc_object*>& roots) {
  std::vector<std::pair<std::string, StatProvider*>> out;
  std::function<void(sc_core::sc_object*)> walk = [&](sc_core::sc_object* obj) {
    if (auto* p = dynamic_cast<StatProvider*>(obj)) out.emplace_back(obj->name(), p);
    for (sc_core::sc_object* child : obj->get_child_objects()) walk(child);
  };
  for (sc_core::sc_object* o : roots.empty() ? sc_core::sc_get_top_level_objects() : roots) walk(o);
  return out;
}

nlohmann::json collect_stats(const std::vector<sc_core::sc_object*>& roots) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, p] : stat_providers(roots)) out[name] = p->stats().values();
  return out;
}

}  // namespace gputlm
