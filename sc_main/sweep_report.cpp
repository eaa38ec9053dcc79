#include "sc_main/sweep_report.h"

#include <iostream>
#include <map>
#include <memory>

#include "sweep/run_launcher.h"

using namespace gputlm::sweep;

namespace gputlm {

namespace {

std::string axes_text(const nlohmann::ordered_json& axes) {
  std::string s;
  for (auto it = axes.begin(); it != axes.end(); ++it)
    s += (s.empty() ? "" : " ") + it.key() + "=" + it.value().dump();
  return s;
}

}  // namespace

std::string run_label(const nlohmann::ordered_json& run) {
  std::string s = run["config"].get<std::string>() + "  " + run["workload"].get<std::string>();
  if (!run["size"].get<std::string>().empty()) s += "  " + run["size"].get<std::string>();
  const std::string axes = axes_text(run["axes"]);
  return axes.empty() ? s : s + "  " + axes;
}

std::function<std::string(const std::string&)> run_labels(const nlohmann::ordered_json& runs) {
  auto labels = std::make_shared<std::map<std::string, std::string>>();
  for (const auto& run : runs)
    (*labels)[run["id"]] = run["id"].get<std::string>().substr(0, 12) + "  " + run_label(run);
  return [labels](const std::string& id) {
    return labels->count(id) ? labels->at(id) : id.substr(0, 12);
  };
}

void print_failures(const sweep::RunStore& store, const nlohmann::ordered_json& runs) {
  for (const auto& run : runs) {
    const nlohmann::json r = store.result(run["id"].get<std::string>());
    if (r.is_null() || r.value("status", "") != "failed") continue;
    std::cout << "FAILED " << run["id"].get<std::string>().substr(0, 12) << "  " << run_label(run)
              << ": " << outcome(r) << "\n";
    const nlohmann::json tail = r.value("tail", nlohmann::json::array());
    for (size_t i = tail.size() > 5 ? tail.size() - 5 : 0; i < tail.size(); ++i)
      std::cout << "    " << tail[i].get<std::string>() << "\n";
    std::cout << "    log: " << store.file(run["id"].get<std::string>(), "log.txt") << "\n";
  }
}

void print_collected(const sweep::RunStore& store, const sweep::CollectCounts& c) {
  std::cout << "collected " << c.ok << " ok run(s) as " << c.rows << " row(s) in " << store.out()
            << "/sweep.csv (and sweep.jsonl); " << c.failed << " failed in failures.csv"
            << (c.missing ? "; " + std::to_string(c.missing) + " not run yet" : "") << "\n";
}

}  // namespace gputlm
