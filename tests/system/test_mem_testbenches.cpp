// tb_dram and tb_cache as a user runs them: a streaming trace of 128-byte lines over 4KB rows hits
// the open row 31 times in 32, a random one almost never; bad traces and configs give one error
// with the line or key and exit 2; waves come with a GTKWave save file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/shell.h"

namespace {

struct Result {
  int exit_code;
  std::string out, err;
};

Result run(const std::string& args) {
  const std::string err_file =
      (std::filesystem::temp_directory_path() / ("tb_err_" + std::to_string(getpid()))).string();
  const gputlm::test::ShellResult r = gputlm::test::shell(
      "cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BIN_DIR "/" + args + " 2>" + err_file);
  std::ifstream e(err_file);
  std::stringstream es;
  es << e.rdbuf();
  return {r.exit_code, r.out, es.str()};
}
nlohmann::json stats_of(const Result& r) { return nlohmann::json::parse(r.out).at("stats"); }
std::string scratch(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gputlm_tb_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

TEST(TbDram, StreamingLinesHitTheOpenRow31TimesIn32AtNearlyPeakBandwidth) {
  const Result r =
      run("tb_dram' --config configs/mem/dram-papers.json --trace traces/mem/stream_128B.stl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = stats_of(r).at("dram");
  EXPECT_DOUBLE_EQ(d.at("row_buffer_hit_rate").get<double>(), 31.0 / 32.0);
  EXPECT_EQ(d.at("requests").get<int>(), 4096);
  EXPECT_GT(d.at("achieved_bandwidth_gbps").get<double>(), 0.95 * 32);
  EXPECT_LE(d.at("achieved_bandwidth_gbps").get<double>(), 32.0);
}

TEST(TbDram, RandomLinesRarelyHitTheOpenRow) {
  const Result r =
      run("tb_dram' --config configs/mem/dram-papers.json --trace traces/mem/random_128B.stl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = stats_of(r).at("dram");
  EXPECT_LT(d.at("row_buffer_hit_rate").get<double>(), 0.01);
  EXPECT_LT(d.at("achieved_bandwidth_gbps").get<double>(),
            8.0);  // conflicts serialise: 8 banks / 300 cycles
}

TEST(TbDram, TheGddr5CommandModelStreamsAtItsBankGroupLimit) {
  const Result r =
      run("tb_dram' --config configs/mem/dram-gddr5.json --trace traces/mem/stream_128B.stl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = stats_of(r).at("dram");
  // 4 KB rows: 31 of 32 lines hit, less the rows a refresh closed (every 3.9 us).
  EXPECT_GT(d.at("refreshes").get<double>(), 0);
  EXPECT_LT(d.at("row_buffer_hit_rate").get<double>(), 31.0 / 32.0);
  EXPECT_GT(d.at("row_buffer_hit_rate").get<double>(), 31.0 / 32.0 - 0.01);
  // A row's column commands are in one bank group, tCCD_L (3) apart for bursts of 2 cycles: the bus
  // is busy 2 cycles in 3 within a row, more where the stream moves on to the next bank.
  EXPECT_GT(d.at("bus_utilization").get<double>(), 2.0 / 3.0);
  EXPECT_LT(d.at("bus_utilization").get<double>(), 0.9);
}

TEST(TbDram, AMalformedTraceLineIsNamedAndExitsTwo) {
  const std::string trace = scratch("bad.stl");
  std::ofstream(trace) << "0: read 0x100\n# comment\n7: read 0x1zz\n";
  const Result r = run("tb_dram' --config configs/mem/dram-papers.json --trace " + trace);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.stl:3: bad address '0x1zz' (0x<hex>): `7: read 0x1zz`"),
            std::string::npos)
      << r.err;
  std::ofstream(trace) << "5: read 0x100\n4: read 0x200\n";
  EXPECT_NE(run("tb_dram' --config configs/mem/dram-papers.json --trace " + trace)
                .err.find("bad.stl:2: cycles must not decrease"),
            std::string::npos);
}

TEST(TbDram, ABadConfigValueNamesItsKeyAndExitsTwo) {
  const std::string cfg = scratch("bad.json");
  std::ofstream(cfg) << R"({"dram": {"scheduler": "lottery"}})";
  Result r = run("tb_dram' --config " + cfg + " --trace traces/mem/stream_128B.stl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("key 'dram.scheduler': unknown value 'lottery' (known: fcfs, fr-fcfs, "
                       "fr-fcfs-hold, fr-fcfs-ready)"),
            std::string::npos)
      << r.err;
  std::ofstream(cfg) << R"({"dram": {"latency": {"row_hit": 100, "row_conflict": 50}}})";
  r = run("tb_dram' --config " + cfg + " --trace traces/mem/stream_128B.stl");
  EXPECT_NE(r.err.find("key 'dram.latency.row_conflict': must not be below row_hit"),
            std::string::npos)
      << r.err;
  std::ofstream(cfg) << R"({"dram": {"banks": 8}, "dram2": {}})";
  r = run("tb_dram' --config " + cfg + " --trace traces/mem/stream_128B.stl");
  EXPECT_NE(r.err.find("key 'dram2': unknown key"), std::string::npos) << r.err;
}

TEST(TbDram, WavesComeWithASaveFileGroupedPerModule) {
  const std::string vcd = scratch("dram.vcd");
  ASSERT_EQ(run("tb_dram' --config configs/mem/dram-papers.json --trace traces/mem/random_128B.stl "
                "--vcd " +
                vcd)
                .exit_code,
            0);
  std::ifstream v(vcd);
  std::stringstream vs;
  vs << v.rdbuf();
  EXPECT_NE(vs.str().find("$timescale"), std::string::npos);
  EXPECT_NE(vs.str().find("1 ns"), std::string::npos);
  EXPECT_NE(vs.str().find("open_row"), std::string::npos);
  std::ifstream g(scratch("dram.gtkw"));
  std::stringstream gs;
  gs << g.rdbuf();
  EXPECT_NE(gs.str().find("SystemC.dram.bank7.command[2:0]"), std::string::npos) << gs.str();
  EXPECT_NE(gs.str().find("SystemC.dram.queue[15:0]"), std::string::npos);
}

TEST(TbCache, TheWholePathServesATraceAndReportsEveryModule) {
  const Result r = run(
      "tb_cache' --config configs/mem/cache-narasiman-db.json --trace traces/mem/cache_reuse.stl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = stats_of(r);
  EXPECT_EQ(s.at("core0").at("completed").get<int>(), 1056);
  EXPECT_EQ(s.at("l1_0").at("hits").get<int>(), 0);     // 64KB twice through a 32KB L1
  EXPECT_EQ(s.at("l2_0").at("fills").get<int>(), 512);  // the 1MB L2 keeps all of it
  EXPECT_EQ(s.at("dram_0").at("requests").get<int>(), 512);
  EXPECT_EQ(s.at("xbar").at("requests").get<int>(), 1056);
}

}  // namespace
