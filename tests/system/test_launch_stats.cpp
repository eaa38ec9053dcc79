// Every module's statistics per launch (launches[i].modules in the --stats JSON): each launch's
// own counts, peaks and formulas, beside the run's totals, which stay what they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "models/common/stats.h"
#include "support/timed_workload.h"

namespace gputlm {
namespace {

struct Result {
  nlohmann::json stats;   // app::to_json of the run
  nlohmann::json schema;  // {"<module>": StatGroup::schema()}, read while the modules live
};

Result run(const std::string& preset, const std::string& workload) {
  nlohmann::json schema = nlohmann::json::object();
  const app::TimingRun timing = test::run_timed_workload(preset, workload, [&] {
    for (const auto& [name, p] : stat_providers()) schema[name] = p->stats().schema();
  });
  return {app::to_json(timing), schema};
}

// A statistic's value as numbers: a count, or its bins (an array, or {label: count}).
std::vector<double> numbers(const nlohmann::json& v) {
  if (v.is_number()) return {v.get<double>()};
  std::vector<double> out;
  for (const auto& b : v) out.push_back(b.get<double>());
  return out;
}

class LaunchStats : public testing::TestWithParam<std::string> {};

TEST_P(LaunchStats, ASingleLaunchsModuleStatsEqualTheRunTotals) {
  const Result r = run(GetParam(), "micro/vecadd");
  ASSERT_EQ(r.stats["verify"]["status"], "verified");
  ASSERT_EQ(r.stats["launches"].size(), 1u);
  const nlohmann::json& launch = r.stats["launches"][0]["modules"];
  EXPECT_TRUE(launch.contains("gpu.dram0"));
  EXPECT_EQ(launch.size(), r.stats["modules"].size());
  for (auto m = r.stats["modules"].begin(); m != r.stats["modules"].end(); ++m)
    for (auto s = m.value().begin(); s != m.value().end(); ++s)
      EXPECT_EQ(launch[m.key()][s.key()], s.value()) << m.key() << "." << s.key();
}

// Counters, histograms and tallies over the launches add up to the run's; a maximum over the run
// is the largest launch's; a launch's formulas are its own counts' (hit rates).
TEST_P(LaunchStats, PerLaunchCountersAddUpToTheRunTotal) {
  const Result r = run(GetParam(), "rodinia-like/backprop");
  ASSERT_EQ(r.stats["verify"]["status"], "verified");
  const nlohmann::json& launches = r.stats["launches"];
  ASSERT_GE(launches.size(), 2u);
  size_t checked = 0;
  for (auto m = r.stats["modules"].begin(); m != r.stats["modules"].end(); ++m) {
    for (auto s = m.value().begin(); s != m.value().end(); ++s) {
      const std::string kind = r.schema[m.key()][s.key()]["kind"];
      if (kind == "formula") continue;
      std::vector<double> total(numbers(s.value()).size(), 0.0);
      for (const auto& l : launches) {
        const std::vector<double> v = numbers(l["modules"][m.key()][s.key()]);
        ASSERT_EQ(v.size(), total.size()) << m.key() << "." << s.key();
        for (size_t i = 0; i < v.size(); ++i)
          total[i] = kind == "maximum" ? std::max(total[i], v[i]) : total[i] + v[i];
      }
      EXPECT_EQ(total, numbers(s.value())) << m.key() << "." << s.key() << " (" << kind << ")";
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);
  double spans = 0;
  for (const auto& l : launches) {
    const nlohmann::json& gpu = l["modules"]["gpu"];
    EXPECT_EQ(gpu["launches"], 1);
    EXPECT_EQ(gpu["cycles"], l["cycles"]);
    const nlohmann::json& dram = l["modules"]["gpu.dram0"];
    EXPECT_DOUBLE_EQ(dram["row_buffer_hit_rate"].get<double>(),
                     ratio(dram["row_hits"].get<double>(), dram["requests"].get<double>()));
    // DRAM's span: from the launch's first arrival to its last transfer (a launch's requests end in
    // it).
    const double span = dram["active_cycles"].get<double>();
    EXPECT_DOUBLE_EQ(dram["bus_utilization"].get<double>(),
                     ratio(dram["bus_busy_cycles"].get<double>(), span));
    spans += span;
  }
  EXPECT_GT(spans, 0.0);
  EXPECT_LE(spans, r.stats["modules"]["gpu.dram0"]["active_cycles"].get<double>());
  // The launches differ (else a launch's figures might be the run's over again).
  EXPECT_NE(launches[0]["modules"]["gpu"]["cycles"], r.stats["modules"]["gpu"]["cycles"]);
}

// A launch ends where its last CTA finished and its memory requests drained (the stores still on
// their way), and the next starts there: the simulated time at the end of the run is the launches'
// cycles and drains, no idle stretch between them (they once ended at the watchdog's next look, up
// to watchdog_cycles, 1,000,000, later).
TEST_P(LaunchStats, EachLaunchStartsWhereThePreviousOneDrained) {
  sc_core::sc_time end;
  const app::TimingRun run = test::run_timed_workload(GetParam(), "rodinia-like/nw",
                                                      [&] { end = sc_core::sc_time_stamp(); });
  ASSERT_EQ(run.verify.status(), "verified");
  ASSERT_GE(run.launches.size(), 10u);
  uint64_t drains = 0, longest = 0;
  for (size_t i = 0; i < run.launches.size(); ++i) {
    const app::TimedLaunch& l = run.launches[i];
    EXPECT_EQ(l.start_cycle, i ? run.launches[i - 1].end_cycle : 0) << "launch " << i;
    ASSERT_GT(l.end_cycle, l.start_cycle + l.cycles) << "launch " << i;
    const uint64_t drain = l.end_cycle - (l.start_cycle + l.cycles);
    drains += drain;
    longest = std::max(longest, drain);
  }
  EXPECT_LT(longest, 1000u);
  // One ns of simulated time is a core cycle (ClockDomain).
  EXPECT_EQ(end, sc_core::sc_time(static_cast<double>(run.cycles + drains), sc_core::SC_NS));
  EXPECT_LT(end, sc_core::sc_time(static_cast<double>(run.cycles + 1000 * run.launches.size()),
                                  sc_core::SC_NS));
}

INSTANTIATE_TEST_SUITE_P(Presets, LaunchStats, testing::Values("fermi-gtx480", "vgiw"),
                         [](const testing::TestParamInfo<std::string>& p) {
                           return p.param == "vgiw" ? std::string("Vgiw")
                                                    : std::string("FermiGtx480");
                         });

}  // namespace
}  // namespace gputlm
