#include "io/workload/catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "models/common/error.h"

namespace gputlm::workload {

namespace fs = std::filesystem;

std::string find_traces_root(const std::string& hint, const std::string& argv0) {
  if (!hint.empty()) return hint;
  if (fs::is_directory("traces")) return "traces";
  const fs::path exe = fs::path(argv0).parent_path();
  const fs::path guess = exe / ".." / ".." / "traces";
  if (fs::is_directory(guess)) return guess.lexically_normal().string();
  throw InputError(
      "cannot find the traces/ directory: run from the repository root or pass --traces");
}

std::vector<CatalogEntry> list_workloads(const std::string& root) {
  std::vector<CatalogEntry> out;
  for (const auto& suite : fs::directory_iterator(root)) {
    if (!suite.is_directory()) continue;
    for (const auto& w : fs::directory_iterator(suite.path())) {
      const fs::path desc = w.path() / "launch.json";
      if (!fs::is_regular_file(desc)) continue;
      CatalogEntry e;
      e.name = suite.path().filename().string() + "/" + w.path().filename().string();
      e.dir = w.path().string();
      try {
        std::ifstream in(desc);
        const nlohmann::json j = nlohmann::json::parse(in);
        e.description = j.value("description", "");
        if (j.contains("paper") && j["paper"].contains("branch"))
          e.paper_class = "branch " + j["paper"].value("branch", "?") + ", idle FU " +
                          j["paper"].value("idle_fu", "?");
        if (j.contains("sizes"))
          for (auto it = j["sizes"].begin(); it != j["sizes"].end(); ++it)
            e.sizes.push_back(it.key());
      } catch (const std::exception& ex) {
        e.description = std::string("(unreadable launch.json: ") + ex.what() + ")";
      }
      out.push_back(std::move(e));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const CatalogEntry& a, const CatalogEntry& b) { return a.name < b.name; });
  return out;
}

}  // namespace gputlm::workload
