// gputlm run --sample N: the time series rows (app::Sampler) read the model between slices of
// simulation and change nothing it simulates; the rows of a launch add up to the launch.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/shell.h"

namespace {

using gputlm::test::gputlm_cli;
std::string scratch(const std::string& name) { return gputlm::test::scratch_file("samples", name); }

// The --stats JSON of a timing run (with `extra` options), host time removed.
nlohmann::json run_stats(const std::string& config, const std::string& workload,
                         const std::string& extra) {
  const std::string stats = scratch("s.json");
  const auto r = gputlm_cli("run --config configs/" + config + " --workload traces/" + workload +
                            " --stats " + stats + " " + extra);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  j.erase("host_seconds");
  return j;
}

struct Case {
  const char* config;
  const char* workload;
};
// One launch on SIMT cores, 24 launches (rodinia-like bfs), and the VGIW core.
const Case kCases[] = {{"fermi-gtx480.json", "micro/divergence"},
                       {"fermi-gtx480.json", "rodinia-like/bfs"},
                       {"vgiw.json", "micro/divergence"}};

TEST(Samples, ARunWithSamplesSimulatesExactlyWhatOneWithoutDoes) {
  for (const Case& c : kCases) {
    const nlohmann::json plain = run_stats(c.config, c.workload, "");
    nlohmann::json sampled = run_stats(c.config, c.workload, "--sample 37");
    ASSERT_TRUE(sampled.contains("samples")) << c.workload;
    EXPECT_EQ(sampled["samples"]["every"], 37);
    sampled.erase("samples");
    EXPECT_EQ(plain, sampled) << c.config << " " << c.workload;
  }
}

TEST(Samples, EachLaunchsRowsAddUpToItsCyclesInstructionsAndStalls) {
  for (const Case& c : kCases) {
    const nlohmann::json j = run_stats(c.config, c.workload, "--sample 50");
    const nlohmann::json& launches = j["launches"];
    std::vector<uint64_t> cycles(launches.size()), threads(launches.size());
    uint64_t stalls = 0;
    for (const auto& row : j["samples"]["rows"]) {
      const size_t l = row["launch"];
      ASSERT_LT(l, launches.size());
      EXPECT_LE(row["cycles"].get<uint64_t>(), 50u);
      cycles[l] += row["cycles"].get<uint64_t>();
      threads[l] += row["thread_instructions"].get<uint64_t>();
      for (const char* cause : {"idle", "pipeline", "memory", "barrier", "icache", "backpressure"})
        stalls += row["stall_cycles." + std::string(cause)].get<uint64_t>();
    }
    for (size_t l = 0; l < launches.size(); ++l) {
      EXPECT_EQ(cycles[l], launches[l]["cycles"].get<uint64_t>()) << c.workload << " launch " << l;
      EXPECT_EQ(threads[l], launches[l]["thread_instructions"].get<uint64_t>())
          << c.workload << " launch " << l;
    }
    uint64_t total_stalls = 0;
    for (const auto& s : j["total"]["fetch_stall_cycles"]) total_stalls += s.get<uint64_t>();
    EXPECT_EQ(stalls, total_stalls) << c.workload;
  }
}

TEST(Samples, SampleCsvHasOneLinePerRowAndNeedsSample) {
  const std::string csv = scratch("samples.csv");
  const auto r = gputlm_cli(
      "run --config configs/fermi-gtx480.json --workload traces/micro/vecadd --sample 100 "
      "--sample-csv " +
      csv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("launch,cycle,cycles,thread_instructions,warp_instructions,ipc,active_"
                         "lanes,stall_cycles.idle",
                         0),
            0u)
      << header;
  size_t lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 7u);  // 688 cycles: 6 whole intervals and the last 88 cycles
  const auto bad = gputlm_cli(
      "run --config configs/fermi-gtx480.json --workload traces/micro/vecadd --sample-csv " + csv);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--sample-csv needs --sample N"), std::string::npos) << bad.output;
}

}  // namespace
