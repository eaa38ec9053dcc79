// A researcher's first hour: the README's sample output is the real output, waves read at first
// open (no SystemC reports in the summary, the VCD ends at the last cycle, names for states and
// DRAM commands, groups that do not apply left out), and mistakes are errors before any work,
// with the nearest known name suggested.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support/files.h"
#include "support/shell.h"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  return gputlm::test::scratch_file("first_hour_test", name);
}
std::string read(const std::string& path) { return gputlm::test::read_text(path); }

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// gputlm with `args` from the source directory: exit code, stdout, and stderr (read from a file).
struct CliRun {
  int exit_code;
  std::string out, err;
};
CliRun gputlm(const std::string& args) {
  const std::string err = scratch("stderr");
  const gputlm::test::ShellResult r = gputlm::test::shell(
      "cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BINARY "' " + args + " 2> '" + err + "'");
  return {r.exit_code, r.out, read(err)};
}

// The last timestamp of a VCD and its time unit in ps.
std::pair<uint64_t, uint64_t> vcd_end(const std::string& path) {
  const std::string text = read(path);
  std::smatch m;
  std::regex_search(text, m, std::regex(R"(\$timescale\s+(\d+)\s*(ns|ps)\s+\$end)"));
  const uint64_t unit = std::stoull(m[1]) * (m[2] == "ns" ? 1000 : 1);
  const size_t at = text.rfind("\n#");
  return {at == std::string::npos ? 0 : std::stoull(text.substr(at + 2)), unit};
}

TEST(FirstHour, TheReadmesSampleOutputIsTheMainJobsRealOutput) {
  const std::string readme = read(GPUTLM_SOURCE_DIR "/README.md");
  const size_t heading = readme.find("## What the main job shows");
  ASSERT_NE(heading, std::string::npos);
  const size_t open = readme.find("```\n", heading), close = readme.find("```\n", open + 4);
  ASSERT_NE(close, std::string::npos);
  std::string sample = readme.substr(open + 4, close - open - 4);
  // The main job's command (scripts/main.sh) with its files in a scratch directory.
  const std::string dir = scratch("main");
  fs::create_directories(dir);
  CliRun r = gputlm(
      "run --config configs/narasiman-baseline.json --workload traces/micro/divergence --stats " +
      dir + "/main.json --vcd " + dir + "/main.vcd --vcd-scope gpu.core0");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::string out = std::regex_replace(r.out, std::regex(dir + "/"), "waves/");
  // The host's time and speed differ from run to run.
  const std::regex host(R"(host time           [0-9.]+ s \([0-9.]+ M)");
  out = std::regex_replace(out, host, "host time           T s (R M");
  sample = std::regex_replace(sample, host, "host time           T s (R M");
  EXPECT_EQ(sample, out);
}

TEST(FirstHour, GputlmListFitsA100ColumnTerminal) {
  const gputlm::test::ShellResult r = gputlm::test::shell(
      "cd '" GPUTLM_SOURCE_DIR "' && env -u COLUMNS '" GPUTLM_BINARY "' list --kernels");
  ASSERT_EQ(r.exit_code, 0);
  std::istringstream lines(r.out);
  std::string line, widest;
  size_t n = 0;
  while (std::getline(lines, line)) {
    ++n;
    if (line.size() > widest.size()) widest = line;
  }
  EXPECT_GT(n, 50u);
  EXPECT_LE(widest.size(), 100u) << widest;
}

TEST(FirstHour, AMultiClockRunWithWavesPrintsNoSystemCReport) {
  const std::string vcd = scratch("fermi.vcd");
  const CliRun r =
      gputlm("run --config configs/fermi-gtx480.json --workload traces/micro/divergence --vcd " +
             vcd + " --stats " + scratch("fermi.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& s : {r.out, r.err}) {
    EXPECT_FALSE(contains(s, "W713")) << s.substr(0, 400);
    EXPECT_FALSE(contains(s, "Warning:")) << s.substr(0, 400);
    EXPECT_FALSE(contains(s, "SystemC")) << s.substr(0, 400);
  }
  // The VCD ends at the run's last cycle, in a unit that holds every clock edge (1.4 GHz core,
  // 700 MHz L2, 924 MHz DRAM: 1 ps).
  const nlohmann::json j = nlohmann::json::parse(read(scratch("fermi.json")));
  const auto [end, unit] = vcd_end(vcd);
  EXPECT_EQ(unit, 1u);
  EXPECT_EQ(end, j["total"]["cycles"].get<uint64_t>() * 1000 / unit);
}

TEST(FirstHour, TheMainJobsWavesEndAtItsLastCycleWithNamesBesideTheSaveFile) {
  const std::string vcd = scratch("core.vcd");
  const CliRun r =
      gputlm("run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --vcd " +
             vcd + " --vcd-scope gpu.core0 --stats " + scratch("core.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read(scratch("core.json")));
  const auto [end, unit] = vcd_end(vcd);
  EXPECT_EQ(unit, 1000u) << "one clock: 1 ns = one cycle";
  EXPECT_EQ(end, j["total"]["cycles"].get<uint64_t>());
  const std::string gtkw = read(scratch("core.gtkw"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(gtkw, m, std::regex(R"(\^(\d+) (\S+warp_state\.txt)\n@2024\n)")))
      << gtkw.substr(0, 800);
  EXPECT_EQ(read(m[2]), read(scratch("core.warp_state.txt")));
  EXPECT_TRUE(contains(read(scratch("core.warp_state.txt")), "\n1 ready\n2 barrier\n3 done\n"));
  // A round-robin core with static warps has no fetch groups and no sub-warps to show.
  EXPECT_FALSE(contains(gtkw, "prioritized_group"));
  EXPECT_FALSE(contains(gtkw, "subwarp"));
  EXPECT_TRUE(contains(gtkw, "@c00200\n-gpu.core0.l1d")) << "the caches open collapsed";
}

TEST(FirstHour, DramCommandsHaveNamesAndTwoLevelCoresShowTheirFetchGroup) {
  const std::string vcd = scratch("twolevel.vcd");
  const CliRun r =
      gputlm("run --config configs/2lev8.json --workload traces/micro/vecadd --vcd " + vcd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string gtkw = read(scratch("twolevel.gtkw"));
  EXPECT_TRUE(contains(gtkw, "prioritized_group"));
  EXPECT_TRUE(contains(gtkw, "dram_command.txt\n@2024\nSystemC.gpu.dram0.bank0.command"));
  EXPECT_EQ(read(scratch("twolevel.dram_command.txt"))
                .substr(read(scratch("twolevel.dram_command.txt")).find('\n') + 1),
            "0 idle\n1 ACT\n2 RD\n3 WR\n4 PRE\n5 REF\n");
}

// Errors before work: exit 2 with the message, and nothing of a run printed.
void expect_input_error(const std::string& args, const std::string& message) {
  const CliRun r = gputlm(args);
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
  EXPECT_TRUE(contains(r.err, message)) << args << "\n" << r.err;
  EXPECT_FALSE(contains(r.out, "cycles")) << "the run started: " << r.out;
  EXPECT_FALSE(contains(r.err, "Info:")) << "SystemC's noise before gputlm's error: " << r.err;
}

TEST(FirstHour, AFaultInATimedRunIsGputlmsMessageWithoutSystemCsNoise) {
  const CliRun r = gputlm(
      "run --config configs/narasiman-baseline.json --workload tests/data/workloads/fault_oob");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.rfind("gputlm: kernel fault in 'vecadd'", 0), 0u)
      << "something printed before gputlm's message: " << r.err;
  for (const char* noise : {"Info:", "Simulation stopped by user", "W545", "sc_stop"})
    EXPECT_FALSE(contains(r.err + r.out, noise)) << noise;
}

TEST(FirstHour, AScopeThatMatchesNothingListsTheScopes) {
  expect_input_error(
      "run --config configs/narasiman-baseline.json --workload traces/micro/vecadd --vcd " +
          scratch("s.vcd") + " --vcd-scope gpu.cor1",
      "--vcd-scope 'gpu.cor1' matches no module; the scopes are: gpu.core0, gpu.xbar, gpu.dram0");
  EXPECT_FALSE(fs::exists(scratch("s.vcd")));
}

TEST(FirstHour, OutputPathsAreCheckedBeforeTheRun) {
  const std::string base =
      "run --config configs/narasiman-baseline.json --workload traces/micro/divergence ";
  expect_input_error(
      base + "--stats /nonexistent-dir/x.json",
      "/nonexistent-dir/x.json: cannot write --stats (no directory /nonexistent-dir)");
  expect_input_error(base + "--csv " + fs::temp_directory_path().string(),
                     "cannot write --csv (it is a directory)");
  expect_input_error(base + "--dram-trace /nonexistent-dir/d.csv", "cannot write --dram-trace");
  expect_input_error(
      "run --functional --workload traces/micro/vecadd --stats /nonexistent-dir/f.json",
      "cannot write --stats");
  expect_input_error("trace record --workload traces/micro/vecadd --out /nonexistent-dir/t.trace",
                     "cannot write the trace");
}

TEST(FirstHour, CsvWithAFunctionalRunIsRefused) {
  expect_input_error("run --functional --workload traces/micro/vecadd --csv " + scratch("f.csv"),
                     "run: --csv needs a timing run");
}

TEST(FirstHour, UnknownNamesSuggestTheNearestKnownOne) {
  expect_input_error("run --functional --workload traces/micro/vecadd --vdc x.vcd",
                     "unknown option '--vdc' (did you mean '--vcd'?)");
  expect_input_error(
      "run --functional --workload traces/micro/vecad",
      "traces/micro/vecad: no such workload directory (did you mean 'traces/micro/vecadd'?)");
  expect_input_error(
      "run --config configs/fermi.json --workload traces/micro/vecadd",
      "configs/fermi.json: cannot open config (did you mean 'configs/fermi-gtx480.json'?)");
  const CliRun r = gputlm("rn --functional");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "unknown command 'rn' (did you mean 'run'?)")) << r.err;
  const gputlm::test::ShellResult tb = gputlm::test::shell(
      "cd '" GPUTLM_SOURCE_DIR "' && '" GPUTLM_BIN_DIR
      "/tb_gpu' --config configs/vgiw.json --workload traces/micro/vecadd --sats x 2>&1");
  EXPECT_EQ(tb.exit_code, 2);
  EXPECT_TRUE(contains(tb.out, "tb_gpu: unknown option '--sats' (did you mean '--stats'?)"))
      << tb.out;
}

TEST(FirstHour, AConfigReportsAllItsBadKeysAndValuesSuggestions) {
  const std::string bad = scratch("bad.json");
  std::ofstream(bad) << R"({"base": ")" GPUTLM_SOURCE_DIR
                        R"(/configs/narasiman-baseline.json", "cores": 1,
    "core": {"clok_mhz": 1000}, "dram": {"bnaks": 8}, "watchdog_cycle": 1000})";
  expect_input_error("run --config " + bad + " --workload traces/micro/vecadd",
                     "key 'core.clok_mhz': unknown key (did you mean 'clock_mhz'?)");
  const CliRun r = gputlm("run --config " + bad + " --workload traces/micro/vecadd");
  EXPECT_TRUE(contains(r.err, "key 'dram.bnaks': unknown key (did you mean 'banks'?)")) << r.err;
  EXPECT_TRUE(
      contains(r.err, "key 'watchdog_cycle': unknown key (did you mean 'watchdog_cycles'?)"))
      << r.err;
  const std::string value = scratch("value.json");
  std::ofstream(value) << R"({"base": ")" GPUTLM_SOURCE_DIR
                          R"(/configs/narasiman-baseline.json", "dram": {"scheduler": "fr-fcsf"}})";
  expect_input_error("run --config " + value + " --workload traces/micro/vecadd",
                     "'fr-fcsf' (did you mean 'fr-fcfs'?)");
}

TEST(FirstHour, AMissingBaseNamesTheFileWhoseBaseKeyPointsThere) {
  const std::string child = scratch("child.json");
  std::ofstream(child) << R"({"base": "no-such-base.json", "cores": 2})";
  expect_input_error("run --config " + child + " --workload traces/micro/vecadd",
                     child + ": key 'base': cannot open '" + scratch("no-such-base.json") + "'");
}

}  // namespace
