#include <gtest/gtest.h>

#include <algorithm>

#include "app/stat_table.h"

namespace gputlm::app {
namespace {

nlohmann::json two_launch_stats() {
  return nlohmann::json::parse(R"({
    "workload": "micro/vecadd", "size": "test", "config": {"name": "fermi", "hash": "ab12"},
    "mode": "timing", "complete": true, "verify": {"status": "verified"}, "host_seconds": 0.5,
    "launches": [
      {"kernel": "k1", "cycles": 10, "fabric_cycles": {"draining": 2}, "lanes": [1, 2]},
      {"kernel": "k2", "cycles": 20, "extra": "a,\"b\""}
    ]})");
}

TEST(StatTable, EachLaunchIsOneRowLedByTheRunsColumns) {
  const auto rows = launch_rows(two_launch_stats());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].begin().key(), "workload");
  EXPECT_EQ(rows[0]["config"], "fermi");
  EXPECT_EQ(rows[0]["config_hash"], "ab12");
  EXPECT_EQ(rows[0]["verify"], "verified");
  EXPECT_EQ(rows[1]["launch"], 1);
  EXPECT_EQ(rows[1]["kernel"], "k2");
  EXPECT_EQ(rows[1]["cycles"], 20);
}

TEST(StatTable, NestedObjectsAndArraysBecomeNamedColumns) {
  const auto rows = launch_rows(two_launch_stats());
  EXPECT_EQ(rows[0]["fabric_cycles.draining"], 2);
  EXPECT_EQ(rows[0]["lanes[1]"], 2);
}

TEST(StatTable, ARunWithoutLaunchesIsOneRowOfRunColumns) {
  const auto rows = launch_rows(nlohmann::json::parse(R"({"workload": "w", "launches": []})"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["workload"], "w");
  EXPECT_TRUE(rows[0]["config"].is_null());
}

TEST(StatTable, CsvHeaderIsTheUnionOfColumnsAndMissingCellsAreEmpty) {
  const std::string csv = to_csv(launch_rows(two_launch_stats()));
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(
      header,
      "workload,size,config,config_hash,mode,complete,verify,host_seconds,launch,kernel,cycles,"
      "fabric_cycles.draining,lanes[0],lanes[1],extra");
  EXPECT_NE(
      csv.find(
          "\n"
          "micro/vecadd,test,fermi,ab12,timing,true,verified,0.5,1,k2,20,,,,\"a,\"\"b\"\"\"\n"),
      std::string::npos)
      << csv;
}

TEST(StatTable, ALaunchsModuleStatisticsAreColumnsAfterItsOwnNamedByModuleAndBin) {
  const auto rows = launch_rows(nlohmann::json::parse(R"({
    "workload": "w",
    "launches": [{"kernel": "k", "modules": {"gpu.core0": {"fetch_stall_cycles": {"memory": 7}, "warp_instructions": 3},
                                             "gpu.core0.l1d": {"hits": 5}},
                  "zeta": 1}]})"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["modules.gpu.core0.fetch_stall_cycles.memory"], 7);
  EXPECT_EQ(rows[0]["modules.gpu.core0.l1d.hits"], 5);
  std::vector<std::string> columns;
  for (auto it = rows[0].begin(); it != rows[0].end(); ++it) columns.push_back(it.key());
  EXPECT_EQ(columns.back(), "modules.gpu.core0.l1d.hits");
  EXPECT_LT(std::find(columns.begin(), columns.end(), "zeta"),
            std::find(columns.begin(), columns.end(), "modules.gpu.core0.warp_instructions"));
}

// The demangled kernel name of a CUDA program's launch is in the statistics for people, not in the
// tables: their columns stay what studies and sweeps read (kernel, the PTX name, gives it).
TEST(StatTable, TheDemangledKernelNameIsNoColumn) {
  const auto rows = launch_rows(nlohmann::json::parse(R"json({
    "workload": "w",
    "launches": [{"kernel": "_Z6parentPii", "kernel_demangled": "parent(int*, int)", "cycles": 4}]})json"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["kernel"], "_Z6parentPii");
  EXPECT_FALSE(rows[0].contains("kernel_demangled"));
  const std::string csv = to_csv(rows);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      "workload,size,config,config_hash,mode,complete,verify,host_seconds,launch,kernel,cycles");
}

}  // namespace
}  // namespace gputlm::app
