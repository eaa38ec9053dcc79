#include "models/common/stats.h"

#include <systemc>

namespace gputlm {

void StatGroup::counter(const std::string& name, const uint64_t& value, const std::string& unit, const std::string& description) {
  m_entries.push_back({name, unit, description, &value, {}, nullptr});
}

void StatGroup::formula(const std::string& name, std::function<double()> f, const std::string& unit, const std::string& description) {
  m_entries.push_back({name, unit, description, nullptr, std::move(f), nullptr});
}

void StatGroup::histogram(const std::string& name, const std::vector<uint64_t>& bins, const std::string& unit, const std::string& description) {
  m_entries.push_back({name, unit, description, nullptr, {}, &bins});
}

nlohmann::json StatGroup::values() const {
  nlohmann::json j = nlohmann::json::object();
  for (const Entry& e : m_entries) {
    if (e.counter) j[e.name] = *e.counter;
    else if (e.histogram) j[e.name] = *e.histogram;
    else j[e.name] = e.formula();
  }
  return j;
}

nlohmann::json StatGroup::schema() const {
  nlohmann::json j = nlohmann::json::object();
  for (const Entry& e : m_entries) j[e.name] = {{"unit", e.unit}, {"description", e.description}};
  return j;
}

namespace {
void walk(sc_core::sc_object* obj, nlohmann::json& out) {
  if (auto* p = dynamic_cast<StatProvider*>(obj)) out[obj->name()] = p->stats().values();
  for (sc_core::sc_object* child : obj->get_child_objects()) walk(child, out);
}
}  // namespace

nlohmann::json collect_stats(const std::vector<sc_core::sc_object*>& roots) {
  nlohmann::json out = nlohmann::json::object();
  const std::vector<sc_core::sc_object*> tops = roots.empty() ? sc_core::sc_get_top_level_objects() : roots;
  for (sc_core::sc_object* o : tops) walk(o, out);
  return out;
}

}  // namespace gputlm
