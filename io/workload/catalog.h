// Finds workloads: every directory traces/<suite>/<name>/ holding a launch.json.
#pragma once

#include <string>
#include <vector>

namespace gputlm::workload {

struct CatalogEntry {
  std::string name;  // "suite/name"
  std::string dir;
  std::string description;
  std::string paper_class;  // "branch high, idle FU low" or empty
  std::vector<std::string> sizes;
};

// The traces root: `hint` if given, else ./traces, else <executable dir>/../../traces.
std::string find_traces_root(const std::string& hint, const std::string& argv0);
std::vector<CatalogEntry> list_workloads(const std::string& root);

}  // namespace gputlm::workload
