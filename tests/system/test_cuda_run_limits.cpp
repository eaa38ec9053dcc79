// `gputlm cuda`'s limits on a run: --time-limit stops it with the statistics of what ran,
// --timed-launches times only a kernel's first launches, --cache-control all starts each timed
// launch with empty caches. Skipped, saying why, when nvcc was not
// found at configure.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cuda_programs.h"
#include "support/cuda_run.h"

namespace {

using gputlm::test::CudaPrograms;
using namespace gputlm::test::cuda_run;

// --time-limit: the runtime stops the launch at its next check past the limit (before a CTA, or
// between slices of simulated time), keeps the statistics of what ran and ends with exit 2 and a
// line naming the launch and the engine's speed. 65536 elements make a timed launch longer than
// the 4096 cycles between checks (4096 elements take 688 cycles, and a launch ends when its work
// has drained).
TEST_F(CudaPrograms, TheTimeLimitStopsTheRunWithItsStatisticsAndExitTwo) {
  for (const bool functional : {false, true}) {
    const std::string stats = scratch(functional ? "limit_functional.json" : "limit.json");
    const ProgramRun r = cuda("vecadd",
                              std::string(functional ? "--functional " : "") +
                                  "--time-limit 0.000001 --stats '" + stats + "'",
                              "65536");
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_FALSE(contains(r.out, "PASSED")) << "the program did not go on";
    EXPECT_TRUE(contains(
        r.err,
        "gputlm cuda: the time limit (--time-limit 1e-06 s) stopped launch 0 (vecadd) after "))
        << r.err;
    EXPECT_TRUE(contains(r.err, "M warp instructions/s: the program needs more simulation time"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "STOPPED by the time limit (exit 2) in launch 0 (vecadd)"))
        << r.err;
    const nlohmann::json j = nlohmann::json::parse(read(stats));
    EXPECT_EQ(j["complete"], false);
    EXPECT_EQ(j["launches"].size(), 1u) << "the stopped launch, with what of it ran";
  }
  const ProgramRun bad = cuda("vecadd", "--time-limit 0");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--time-limit must be a positive number of seconds")) << bad.err;
}

// bfs run with `options_a` and with `options_b`, each writing its statistics (scratch files named
// by `tag`): both runs, and whether both passed with the same output (checked here), and their
// statistics then.
struct TwoRuns {
  ProgramRun a, b;
  bool passed = false;
  nlohmann::json stats_a, stats_b;
};
TwoRuns bfs_twice(const std::string& tag, const std::string& options_a,
                  const std::string& options_b) {
  const std::string file_a = scratch("bfs_" + tag + "_a.json"),
                    file_b = scratch("bfs_" + tag + "_b.json");
  TwoRuns t{cuda("bfs", options_a + " --stats '" + file_a + "'"),
            cuda("bfs", options_b + " --stats '" + file_b + "'")};
  EXPECT_EQ(t.a.exit_code, 0) << t.a.out << t.a.err;
  EXPECT_EQ(t.b.exit_code, 0) << t.b.out << t.b.err;
  EXPECT_EQ(t.b.out, t.a.out) << "the same results";
  t.passed = t.a.exit_code == 0 && t.b.exit_code == 0 && t.a.out == t.b.out;
  if (t.passed) {
    t.stats_a = nlohmann::json::parse(read(file_a));
    t.stats_b = nlohmann::json::parse(read(file_b));
  }
  return t;
}

// --timed-launches 2: bfs's first two launches of each kernel are timed, the later ones run on the
// functional engine against the same memory: the program still finds the same depth and passes,
// the timed launches are those of a fully timed run, cycle for cycle, and each untimed one is
// listed with its program launch index and the mean of its kernel's timed cycles.
TEST_F(CudaPrograms, TimedLaunchesTimesTheFirstLaunchesOfEachKernelAndRunsTheRestFunctionally) {
  const TwoRuns t = bfs_twice("timed", "", "--timed-launches 2");
  ASSERT_TRUE(t.passed);
  const ProgramRun& r = t.b;
  const nlohmann::json &a = t.stats_a, &j = t.stats_b;
  const size_t launches = a["launches"].size();
  ASSERT_GT(launches, 4u);
  ASSERT_EQ(j["launches"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(j["launches"][i]["cycles"], a["launches"][i]["cycles"]);
  ASSERT_EQ(j["untimed_launches"].size(), launches - 4);
  for (size_t i = 0; i < launches - 4; ++i) {
    const nlohmann::json& u = j["untimed_launches"][i];
    EXPECT_EQ(u["launch"], i + 4);
    EXPECT_EQ(u["kernel"], a["launches"][i + 4]["kernel"]);
    EXPECT_EQ(u["warp_instructions"], a["launches"][i + 4]["warp_instructions"]);
    const uint64_t c0 = j["launches"][i % 2]["cycles"], c1 = j["launches"][i % 2 + 2]["cycles"];
    EXPECT_EQ(u["clock_cycles"], (c0 + c1) / 2) << i;
  }
  EXPECT_TRUE(contains(
      r.err, "untimed launches    " + std::to_string(launches - 4) + " (--timed-launches 2: "))
      << r.err;
  const ProgramRun zero = cuda("bfs", "--timed-launches 0");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_TRUE(contains(zero.err, "--timed-launches must be at least 1")) << zero.err;
  const ProgramRun functional = cuda("bfs", "--functional --timed-launches 2");
  EXPECT_EQ(functional.exit_code, 2);
  EXPECT_TRUE(contains(functional.err, "--timed-launches needs a timing run")) << functional.err;
}

// --cache-control all (Nsight Compute's default): every timed launch of bfs starts with empty
// caches, so each launch after the first fills more L2 lines from DRAM than it does when the L2
// keeps what the launches before it read (--cache-control none, the default); the first launch,
// which starts empty either way, fills the same lines; the results are the same.
TEST_F(CudaPrograms, CacheControlAllStartsEveryTimedLaunchWithEmptyCaches) {
  const TwoRuns t = bfs_twice("cache", "--cache-control none", "--cache-control all");
  ASSERT_TRUE(t.passed);
  const nlohmann::json &a = t.stats_a, &b = t.stats_b;
  auto l2_fills = [](const nlohmann::json& launch) {
    uint64_t n = 0;
    for (const auto& [name, values] : launch["modules"].items())
      if (name.rfind("gpu.l2_", 0) == 0) n += values.value("fills", uint64_t{0});
    return n;
  };
  ASSERT_EQ(a["launches"].size(), b["launches"].size());
  ASSERT_GT(a["launches"].size(), 2u);
  EXPECT_EQ(l2_fills(b["launches"][0]), l2_fills(a["launches"][0]));
  for (size_t i = 1; i < a["launches"].size(); ++i)
    EXPECT_GT(l2_fills(b["launches"][i]), l2_fills(a["launches"][i])) << "launch " << i;
  const ProgramRun bad = cuda("bfs", "--cache-control some");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--cache-control must be 'all' or 'none', not 'some'")) << bad.err;
}

}  // namespace
