// bench_sim, the speed benchmark (not a test of speed: nothing here asserts a rate): its JSON has,
// for every workload and mode, the rates and the peak resident memory of a run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/files.h"
#include "support/shell.h"

namespace gputlm {
namespace {

TEST(BenchSim, ItsJsonGivesEveryModesRatesAndPeakMemory) {
  const std::string json = test::scratch_file("bench_sim", "bench.json");
  const test::ShellResult r = test::shell("cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BIN_DIR
                                          "/bench_sim' --repeat 1 --json '" +
                                          json + "' traces/micro/divergence 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("peak MB"), std::string::npos) << r.out;
  const nlohmann::json rows = nlohmann::json::parse(test::read_text(json));
  std::vector<std::string> modes;
  for (const auto& row : rows) {
    if (row["mode"] == "systemc_kernel_floor") {
      EXPECT_GT(row["cycles_per_second"].get<double>(), 0);
      continue;
    }
    const std::string mode = row["mode"];
    modes.push_back(mode);
    EXPECT_EQ(row["workload"], "traces/micro/divergence");
    EXPECT_EQ(row["thread_instructions"].get<uint64_t>(), 471447u) << mode;
    EXPECT_GT(row["thread_instructions_per_second"].get<double>(), 0) << mode;
    EXPECT_GT(row["peak_rss_bytes"].get<uint64_t>(), 1u << 20) << mode;
    if (mode == "functional") continue;
    // The timed modes on the default configs: the one-core preset three ways, fermi-gtx480's 15
    // cores.
    const bool fermi = mode == "timed@fermi-gtx480";
    EXPECT_EQ(row["config"], fermi ? "fermi-gtx480" : "narasiman-baseline") << mode;
    EXPECT_EQ(row["cycles"].get<uint64_t>(), fermi ? 24257u : 40582u) << mode;
    EXPECT_EQ(row.contains("host_time_relative_to_timed"), !fermi) << mode;
    const double sm_cycles = row["cycles"].get<double>() * (fermi ? 15 : 1);
    EXPECT_NEAR(row["sm_cycles_per_second"].get<double>(),
                sm_cycles / row["median_seconds"].get<double>(), 1e-6 * sm_cycles)
        << mode;
  }
  EXPECT_EQ(modes, (std::vector<std::string>{"functional", "timed", "timed+window", "timed+waves",
                                             "timed@fermi-gtx480"}));
}

}  // namespace
}  // namespace gputlm
