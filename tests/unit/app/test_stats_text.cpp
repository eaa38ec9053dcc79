// The --stats file's text (app::stats_text): the same JSON as dump(2), with a module's statistics,
// an array of scalars and an object of scalars in an array on one line each.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "app/report.h"

namespace gputlm::app {
namespace {

nlohmann::json run_stats() {
  return nlohmann::json::parse(R"json({
    "workload": "rodinia-like/nw", "complete": true, "host_seconds": 0.25,
    "config": {"name": "fermi-gtx480", "cores": 15},
    "launches": [
      {"kernel": "_Z6parentPii", "kernel_demangled": "parent(int*, int)", "cycles": 688,
       "grid": [4, 1, 1], "fabric_cycles": {}, "notes": [],
       "modules": {"gpu": {"cycles": 688, "launches": 1},
                   "gpu.core0": {"fetch_stall_cycles": {"idle": 3, "memory": 0}, "simd_lanes_started": [0, 5, 0],
                                 "resident_thread_cycles": 6880.5}}}
    ],
    "modules": {"gpu": {"cycles": 688, "launches": 1}, "gpu.dram0": {"bus_utilization": 0.125, "name": "\u00e9\"\\"}},
    "samples": {"every": 100, "rows": [{"launch": 0, "cycle": 100, "ipc": 1.5}, {"launch": 0, "cycle": 200, "ipc": 2}]},
    "verify": {"buffers": [{"name": "c", "mismatches": 0}], "status": "checked by the program"}
  })json");
}

TEST(StatsText, ReadsAsTheSameJson) {
  const nlohmann::json j = run_stats();
  EXPECT_EQ(nlohmann::json::parse(stats_text(j)), j);
  const std::string text = stats_text(j);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text[text.size() - 2], '\n');
}

TEST(StatsText, IsDump2WhereNoModuleOrScalarArrayIs) {
  const nlohmann::json j = nlohmann::json::parse(
      R"json({"a": {"b": 1, "c": {"d": "e"}}, "f": [{"g": {"h": 2.5}}], "i": {}, "j": []})json");
  EXPECT_EQ(stats_text(j), j.dump(2) + "\n");
}

TEST(StatsText, PutsAModulesStatisticsAScalarArrayAndASampleRowOnALineEach) {
  const std::string text = stats_text(run_stats());
  for (const char* line :
       {"\n  \"modules\": {\n    \"gpu\": {\"cycles\":688,\"launches\":1},\n",
        "\n      \"modules\": {\n        \"gpu\": {\"cycles\":688,\"launches\":1},\n",
        "\n        \"gpu.core0\": {\"fetch_stall_cycles\":{\"idle\":3,\"memory\":0},"
        "\"resident_thread_cycles\":6880.5,\"simd_lanes_started\":[0,5,0]}\n      },\n",
        "\n      \"grid\": [4,1,1],\n", "\n      \"fabric_cycles\": {},\n",
        "\n      \"notes\": []\n", "\n      {\"cycle\":100,\"ipc\":1.5,\"launch\":0},\n",
        "\n      {\"mismatches\":0,\"name\":\"c\"}\n",
        "\n    \"gpu.dram0\": {\"bus_utilization\":0.125,\"name\":\"\xc3\xa9\\\"\\\\\"}\n",
        "\n  \"config\": {\n    \"cores\": 15,\n    \"name\": \"fermi-gtx480\"\n  },\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in\n" << text;
}

// Many launches of a GPU of many modules, most of their statistics zero (a launch of a few CTAs
// on 15 cores): about half the bytes of dump(2), a line a module.
TEST(StatsText, TakesAboutHalfTheBytesOfDump2) {
  nlohmann::json j = run_stats();
  nlohmann::json module;
  for (int s = 0; s < 20; ++s) module["statistic_" + std::to_string(s)] = s % 5 ? 0 : s;
  module["histogram"] = nlohmann::json::array({0, 0, 0, 0, 0, 0, 0, 0});
  j["launches"] = nlohmann::json::array();
  for (int l = 0; l < 100; ++l) {
    nlohmann::json launch{{"kernel", "k"}, {"cycles", 1000 + l}};
    for (int m = 0; m < 50; ++m) launch["modules"]["gpu.core" + std::to_string(m)] = module;
    j["launches"].push_back(launch);
  }
  const std::string text = stats_text(j), pretty = j.dump(2);
  EXPECT_EQ(nlohmann::json::parse(text), j);
  EXPECT_LT(text.size(), pretty.size() * 6 / 10) << text.size() << " of " << pretty.size();
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 100 * 60);
}

}  // namespace
}  // namespace gputlm::app
