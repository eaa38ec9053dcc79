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
                                          "/bench_sim' --repeat 1 --json '" + json + "' traces/micro/divergence 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("peak MB"), std::string::npos) << r.out;
  const nlohmann::json rows = nlohmann::json::parse(test::read_text(json));
  size_t modes = 0;
  for (const auto& row : rows) {
    if (row["mode"] == "systemc_kernel_floor") {
      EXPECT_GT(row["cycles_per_second"].get<double>(), 0);
      continue;
    }
    ++modes;
    EXPECT_EQ(row["workload"], "traces/micro/divergence");
    EXPECT_EQ(row["thread_instructions"].get<uint64_t>(), 471447u) << row["mode"];
    EXPECT_GT(row["thread_instructions_per_second"].get<double>(), 0) << row["mode"];
    EXPECT_GT(row["peak_rss_bytes"].get<uint64_t>(), 1u << 20) << row["mode"];
    if (row["mode"] != "functional") EXPECT_EQ(row["cycles"].get<uint64_t>(), 40582u) << row["mode"];
  }
  EXPECT_EQ(modes, 3u);
}

}  // namespace
}  // namespace gputlm
