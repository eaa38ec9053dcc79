// StatGroup: what a module's registered statistics report, over the run and over a window of it
// (a launch).
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/common/stats.h"

namespace gputlm {
namespace {

// A cache-like module's statistics: counters, a peak, a formula over counters, a first and last
// cycle a span formula reads, a histogram by cause and one by value, and a tally of state that is
// no registered counter.
struct Module {
  uint64_t hits = 0, misses = 0, peak = 0, first = ~0ull, last = 0, hidden = 0;
  std::vector<uint64_t> by_cause = std::vector<uint64_t>(3, 0),
                        by_lanes = std::vector<uint64_t>(2, 0);
  StatGroup stats;

  Module() {
    stats.counter("hits", hits, "count", "hits");
    stats.counter("misses", misses, "count", "misses");
    stats.maximum("peak", peak, "count", "most at once");
    stats.formula(
        "hit_rate", [this] { return ratio(hits, hits + misses); }, "ratio", "hits / accesses");
    stats.formula(
        "span", [this] { return double(last > first ? last - first : 0); }, "cycles",
        "first to last");
    stats.formula_input(first, StatGroup::Accrual::kMin);
    stats.formula_input(last, StatGroup::Accrual::kMax);
    stats.histogram("stalls", by_cause, "cycles", "by cause", {"idle", "memory", "barrier"});
    stats.histogram("lanes", by_lanes, "count", "by lanes");
    stats.tally(
        "switches", [this] { return double(hidden); }, "count", "a policy's count");
  }
  // An event at `cycle`: hits or misses, the peak seen, the span's ends.
  void access(uint64_t cycle, uint64_t h, uint64_t m, uint64_t occupancy) {
    hits += h;
    misses += m;
    peak = std::max(peak, occupancy);
    first = std::min(first, cycle);
    last = std::max(last, cycle);
  }
};

TEST(StatGroup, LabelledHistogramBinsAreReportedByNameAndPlainOnesAsArrays) {
  Module m;
  m.by_cause = {1, 2, 3};
  m.by_lanes = {4, 5};
  const nlohmann::json v = m.stats.values();
  EXPECT_EQ(v["stalls"], nlohmann::json({{"idle", 1}, {"memory", 2}, {"barrier", 3}}));
  EXPECT_EQ(v["lanes"], nlohmann::json({4, 5}));
  EXPECT_EQ(v.size(), 8u);  // the formulas' inputs are not reported
}

TEST(StatGroup, TheSchemaNamesEachStatisticsKindAndItsBinLabels) {
  Module m;
  const nlohmann::json s = m.stats.schema();
  EXPECT_EQ(s["hits"]["kind"], "counter");
  EXPECT_EQ(s["peak"]["kind"], "maximum");
  EXPECT_EQ(s["hit_rate"]["kind"], "formula");
  EXPECT_EQ(s["switches"]["kind"], "tally");
  EXPECT_EQ(s["stalls"]["kind"], "histogram");
  EXPECT_EQ(s["stalls"]["bins"], nlohmann::json({"idle", "memory", "barrier"}));
  EXPECT_FALSE(s["lanes"].contains("bins"));
  EXPECT_EQ(s["hits"]["unit"], "count");
}

TEST(StatGroup, ALabelForEachBinOrNone) {
  uint64_t n = 0;
  std::vector<uint64_t> bins(3, 0);
  StatGroup g;
  g.counter("n", n, "count", "n");
  EXPECT_THROW(g.histogram("h", bins, "count", "h", {"a", "b"}), std::logic_error);
}

TEST(StatGroup, FormulasOverALaunchUseItsCountsAlone) {
  Module m;
  m.access(10, 1, 9, 0);  // the first launch: hit rate 0.1 from cycle 10
  const StatGroup::Mark start = m.stats.open_window();
  m.access(100, 3, 1, 0);  // the second: 0.75 over cycles 100..140
  m.access(140, 3, 1, 0);
  const nlohmann::json launch = m.stats.close_window(start);
  EXPECT_EQ(launch["hits"], 6);
  EXPECT_EQ(launch["misses"], 2);
  EXPECT_DOUBLE_EQ(launch["hit_rate"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(launch["span"].get<double>(), 40.0);
  const nlohmann::json run = m.stats.values();
  EXPECT_DOUBLE_EQ(run["hit_rate"].get<double>(), 7.0 / 18.0);
  EXPECT_DOUBLE_EQ(run["span"].get<double>(), 130.0);
}

TEST(StatGroup, AMaximumOverALaunchIsThePeakWithinItAndTheRunKeepsItsOwn) {
  Module m;
  m.access(1, 0, 0, 8);
  StatGroup::Mark start = m.stats.open_window();
  m.access(2, 0, 0, 3);
  EXPECT_EQ(m.stats.close_window(start)["peak"], 3);
  EXPECT_EQ(m.stats.values()["peak"], 8);
  start = m.stats.open_window();
  m.access(3, 0, 0, 12);
  EXPECT_EQ(m.stats.close_window(start)["peak"], 12);
  EXPECT_EQ(m.stats.values()["peak"], 12);
}

TEST(StatGroup, HistogramsAndTalliesOverALaunchAreTheirGrowth) {
  Module m;
  m.by_cause = {1, 1, 1};
  m.hidden = 5;
  const StatGroup::Mark start = m.stats.open_window();
  m.by_cause = {1, 4, 2};
  m.hidden = 7;
  const nlohmann::json launch = m.stats.close_window(start);
  EXPECT_EQ(launch["stalls"], nlohmann::json({{"idle", 0}, {"memory", 3}, {"barrier", 1}}));
  EXPECT_DOUBLE_EQ(launch["switches"].get<double>(), 2.0);
}

TEST(StatGroup, AWindowLeavesEveryRegisteredValueAsTheRunHasIt) {
  Module m;
  m.access(5, 2, 3, 4);
  const StatGroup::Mark start = m.stats.open_window();
  m.access(9, 1, 1, 2);
  m.by_lanes = {7, 7};
  const nlohmann::json before_close = m.stats.values();
  m.stats.close_window(start);
  EXPECT_EQ(m.hits, 3u);
  EXPECT_EQ(m.misses, 4u);
  EXPECT_EQ(m.peak, 4u);
  EXPECT_EQ(m.first, 5u);
  EXPECT_EQ(m.last, 9u);
  EXPECT_EQ(m.by_lanes, std::vector<uint64_t>({7, 7}));
  EXPECT_EQ(m.stats.values()["hits"], before_close["hits"]);
}

TEST(StatGroup, AWindowOverTheWholeRunReportsTheRunsValues) {
  Module m;
  const StatGroup::Mark start = m.stats.open_window();
  m.access(3, 2, 1, 6);
  m.access(8, 0, 1, 2);
  m.by_cause = {1, 2, 3};
  m.hidden = 4;
  EXPECT_EQ(m.stats.close_window(start), m.stats.values());
}

}  // namespace
}  // namespace gputlm
