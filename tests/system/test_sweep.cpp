// gputlm sweep as a user runs it: the CSV holds the same values as gputlm run --stats of the same
// runs; a second invocation runs nothing; a changed axis value or a deleted result reruns exactly
// those runs; a failing run goes to failures.csv and the exit is non-zero; --dry-run and
// --print-jobs list without running; a bad spec is refused before any run.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/stat_table.h"
#include "support/files.h"
#include "support/shell.h"

namespace {

namespace fs = std::filesystem;

using Result = gputlm::test::CliResult;
Result gputlm(const std::string& args) { return gputlm::test::gputlm_cli(args); }
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A fresh directory for one test, with the spec written into it.
std::string sweep_dir(const std::string& test, const std::string& spec) {
  const fs::path dir = gputlm::test::scratch_file("sweep_test", test);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "spec.json") << spec;
  return dir.string();
}

std::string spec(const std::string& axes,
                 const std::string& workloads = R"("traces/micro/vecadd", "traces/micro/saxpy")",
                 const std::string& configs = R"("fermi-gtx480.json")") {
  nlohmann::json j =
      nlohmann::json::parse("{\"w\": [" + workloads + "], \"c\": [" + configs + "]}");
  nlohmann::json s = {
      {"name", "t"}, {"workloads", nlohmann::json::array()}, {"configs", nlohmann::json::array()}};
  for (const auto& x : j["w"])
    s["workloads"].push_back(GPUTLM_SOURCE_DIR "/" + x.get<std::string>());
  for (const auto& x : j["c"])
    s["configs"].push_back(GPUTLM_SOURCE_DIR "/configs/" + x.get<std::string>());
  if (!axes.empty()) s["axes"] = nlohmann::json::parse(axes);
  return s.dump(1);
}

Result sweep(const std::string& dir, const std::string& options = "--jobs 2") {
  return gputlm("sweep '" + dir + "/spec.json' --out '" + dir + "/out' " + options);
}

std::string read(const std::string& path) { return gputlm::test::read_text(path); }

// RFC 4180 rows (quoted cells unquoted).
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        rows.back().back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        rows.back().back() += c;
    } else if (c == '"')
      quoted = true;
    else if (c == ',')
      rows.back().emplace_back();
    else if (c == '\n')
      rows.emplace_back(1);
    else
      rows.back().back() += c;
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

std::map<std::string, std::string> row_map(const std::vector<std::vector<std::string>>& csv,
                                           size_t row) {
  std::map<std::string, std::string> m;
  for (size_t c = 0; c < csv[0].size(); ++c) m[csv[0][c]] = c < csv[row].size() ? csv[row][c] : "";
  return m;
}

std::string cell(const nlohmann::json& v) {
  return v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
}

TEST(Sweep, CsvHoldsTheSameValuesAsGputlmRunOfTheSameRuns) {
  const std::string dir =
      sweep_dir("csv", spec(R"({"core.scheduler": ["rr", "gto"]})",
                            R"("traces/micro/vecadd", "traces/micro/saxpy")",
                            R"("fermi-gtx480.json", "narasiman-baseline.json")"));
  const Result r = sweep(dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "8 runs, 0 cached, 8 ran, 0 failed")) << r.output;
  const auto csv = parse_csv(read(dir + "/out/sweep.csv"));
  ASSERT_EQ(csv.size(), 1u + 8) << read(dir + "/out/sweep.csv");  // one launch each
  const std::vector<std::string> lead = {"run_id", "config", "core.scheduler", "workload", "size"};
  EXPECT_EQ(std::vector<std::string>(csv[0].begin(), csv[0].begin() + 5), lead);
  std::map<std::string, int> per_scheduler;
  for (size_t row = 1; row < csv.size(); ++row)
    ++per_scheduler[row_map(csv, row)["core.scheduler"]];
  EXPECT_EQ(per_scheduler, (std::map<std::string, int>{{"rr", 4}, {"gto", 4}}));
  for (size_t row : {size_t{1}, size_t{8}}) {
    auto got = row_map(csv, row);
    const std::string run = dir + "/out/runs/" + got["run_id"];
    const std::string stats = dir + "/alone.json";
    const Result alone = gputlm("run --config '" + run + "/config.json' --workload traces/" +
                                got["workload"] + " --size test --stats '" + stats + "'");
    ASSERT_EQ(alone.exit_code, 0) << alone.output;
    const auto expected = gputlm::app::launch_rows(nlohmann::json::parse(read(stats)));
    ASSERT_EQ(expected.size(), 1u);
    size_t compared = 0;
    for (auto it = expected[0].begin(); it != expected[0].end(); ++it) {
      if (it.key() == "host_seconds") continue;
      ASSERT_TRUE(got.count(it.key())) << it.key();
      EXPECT_EQ(got[it.key()], cell(it.value())) << it.key();
      ++compared;
    }
    EXPECT_GT(compared, 50u);
    EXPECT_EQ(got["config"], row == 1 ? "fermi-gtx480" : "narasiman-baseline");
  }
  const auto result =
      nlohmann::json::parse(read(dir + "/out/runs/" + row_map(csv, 1)["run_id"] + "/result.json"));
  EXPECT_EQ(result["status"], "ok");
  EXPECT_EQ(result["exit_code"], 0);
  EXPECT_FALSE(result["gputlm_version"].get<std::string>().empty());
  EXPECT_EQ(result["axes"]["core.scheduler"], "rr");
  EXPECT_TRUE(fs::exists(dir + "/out/runs/" + row_map(csv, 1)["run_id"] + "/log.txt"));
  EXPECT_EQ(nlohmann::json::parse(read(dir + "/out/manifest.json"))["runs"].size(), 8u);
}

TEST(Sweep, RunsOnlyWhatIsMissingOrChanged) {
  const std::string dir = sweep_dir("rerun", spec(R"({"core.scheduler": ["rr", "gto"]})"));
  Result r = sweep(dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "4 runs, 0 cached, 4 ran")) << r.output;
  r = sweep(dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "4 runs, 4 cached, 0 ran")) << r.output;

  std::ofstream(dir + "/spec.json") << spec(R"({"core.scheduler": ["rr", "2lev"]})");
  r = sweep(dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "4 runs, 2 cached, 2 ran")) << r.output;
  EXPECT_EQ(parse_csv(read(dir + "/out/sweep.csv")).size(), 1u + 4);
  EXPECT_FALSE(contains(read(dir + "/out/sweep.csv"), "gto"));

  const auto csv = parse_csv(read(dir + "/out/sweep.csv"));
  const std::string id = row_map(csv, 3)["run_id"];
  fs::remove(dir + "/out/runs/" + id + "/result.json");
  r = sweep(dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "4 runs, 3 cached, 1 ran")) << r.output;
  EXPECT_TRUE(contains(r.output, id.substr(0, 12))) << r.output;  // the one line of the run it did
  EXPECT_TRUE(fs::exists(dir + "/out/runs/" + id + "/result.json"));

  r = sweep(dir, "--jobs 2 --fresh");
  EXPECT_TRUE(contains(r.output, "4 runs, 0 cached, 4 ran")) << r.output;
}

TEST(Sweep, FailingRunGoesToFailuresCsvAndTheExitIsNonZero) {
  // wrong_result's output differs from its reference: gputlm run exits 1.
  const std::string dir =
      sweep_dir("failing", spec(R"({"core.scheduler": ["rr", "gto"]})",
                                R"("traces/micro/vecadd", "tests/data/workloads/wrong_result")"));
  const Result r = sweep(dir);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "4 runs, 0 cached, 4 ran, 2 failed")) << r.output;
  EXPECT_TRUE(contains(r.output, "FAILED")) << r.output;
  EXPECT_TRUE(contains(r.output, "workloads/wrong_result  test  core.scheduler=\"gto\": exit 1"))
      << r.output;
  const auto ok = parse_csv(read(dir + "/out/sweep.csv"));
  ASSERT_EQ(ok.size(), 1u + 2);
  for (size_t row : {1, 2}) EXPECT_EQ(row_map(ok, row)["workload"], "micro/vecadd");
  const auto failed = parse_csv(read(dir + "/out/failures.csv"));
  ASSERT_EQ(failed.size(), 1u + 2) << read(dir + "/out/failures.csv");
  EXPECT_EQ(row_map(failed, 1)["workload"], "workloads/wrong_result");
  EXPECT_EQ(row_map(failed, 1)["core.scheduler"], "rr");
  EXPECT_EQ(row_map(failed, 1)["outcome"], "exit 1");
  EXPECT_TRUE(contains(row_map(failed, 1)["message"], "FAILED")) << row_map(failed, 1)["message"];
  // Failed runs are run again next time; the ok ones are not.
  const Result again = sweep(dir);
  EXPECT_TRUE(contains(again.output, "4 runs, 2 cached, 2 ran, 2 failed")) << again.output;
}

TEST(Sweep, DryRunAndPrintJobsListWithoutRunning) {
  const std::string dir = sweep_dir("dry", spec(R"({"core.scheduler": ["rr", "gto"]})"));
  Result r = sweep(dir, "--dry-run");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "sweep t: 4 runs, 0 done, 4 to run")) << r.output;
  EXPECT_TRUE(
      contains(r.output, "missing  fermi-gtx480  micro/saxpy  test  core.scheduler=\"gto\""))
      << r.output;
  EXPECT_FALSE(fs::exists(dir + "/out/runs"));

  r = sweep(dir, "--print-jobs");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> jobs;
  for (std::istringstream lines(r.output); std::getline(lines, jobs.emplace_back());) {}
  jobs.pop_back();
  ASSERT_EQ(jobs.size(), 4u) << r.output;
  EXPECT_TRUE(contains(jobs[0], "' sweep '" + dir + "/spec.json' --out '" + dir + "/out' --run "))
      << jobs[0];
  const gputlm::test::ShellResult one =
      gputlm::test::shell("cd / && " + jobs[0] + " 2>&1");  // works from anywhere
  EXPECT_EQ(one.exit_code, 0) << one.out;
  EXPECT_TRUE(contains(one.out, ": ok (exit 0")) << one.out;

  r = sweep(dir, "--dry-run");
  EXPECT_TRUE(contains(r.output, "4 runs, 1 done, 3 to run")) << r.output;
  r = sweep(dir, "--collect");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "collected 1 ok run(s) as 1 row(s)")) << r.output;
  EXPECT_EQ(parse_csv(read(dir + "/out/sweep.csv")).size(), 2u);
}

TEST(Sweep, SizeReplacesTheSpecsSizesAndIsPartOfTheIdentity) {
  nlohmann::json j = nlohmann::json::parse(spec(""));
  j["sizes"] = {"study"};
  const std::string dir = sweep_dir("size", j.dump(1));
  Result r = sweep(dir, "--dry-run");
  EXPECT_TRUE(contains(r.output, "missing  fermi-gtx480  micro/vecadd  study")) << r.output;
  r = sweep(dir, "--size test --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "2 runs, 0 cached, 2 ran")) << r.output;
  const nlohmann::json manifest = nlohmann::json::parse(read(dir + "/out/manifest.json"));
  for (const auto& run : manifest["runs"]) EXPECT_EQ(run["size"], "test");
  r = sweep(dir, "--dry-run");  // the spec's own size: other runs
  EXPECT_TRUE(contains(r.output, "2 runs, 0 done, 2 to run")) << r.output;
  r = sweep(dir, "--dry-run --size test");
  EXPECT_TRUE(contains(r.output, "2 runs, 2 done, 0 to run")) << r.output;
}

TEST(Sweep, DramTraceSampleAndPredictAreRunOptionsWithTheirOutputs) {
  nlohmann::json j = nlohmann::json::parse(spec("", R"("traces/micro/vecadd")"));
  j["dram_trace"] = true;
  j["sample"] = 100;
  std::string dir = sweep_dir("dram_trace", j.dump(1));
  Result r = sweep(dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  nlohmann::json run = nlohmann::json::parse(read(dir + "/out/manifest.json"))["runs"][0];
  EXPECT_EQ(run["dram_trace"], true);
  const std::string trace = read(dir + "/out/runs/" + run["id"].get<std::string>() + "/dram.csv");
  EXPECT_GT(std::count(trace.begin(), trace.end(), '\n'), 1) << trace;  // a header and requests
  EXPECT_TRUE(contains(trace.substr(0, trace.find('\n')), "bank")) << trace.substr(0, 200);
  const nlohmann::json sampled = nlohmann::json::parse(
      read(dir + "/out/runs/" + run["id"].get<std::string>() + "/stats.json"));
  EXPECT_TRUE(sampled.contains("samples") && !sampled["samples"].empty())
      << sampled.dump().substr(0, 300);

  j = nlohmann::json::parse(spec("", R"("traces/hongkim/mb1_c")", R"("hongkim-analytical.json")"));
  j["command"] = "predict";
  dir = sweep_dir("predict", j.dump(1));
  r = sweep(dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  run = nlohmann::json::parse(read(dir + "/out/manifest.json"))["runs"][0];
  const std::string id = run["id"].get<std::string>();
  const nlohmann::json result =
      nlohmann::json::parse(read(dir + "/out/runs/" + id + "/result.json"));
  EXPECT_EQ(result["command"][1], "predict");
  const nlohmann::json stats = nlohmann::json::parse(read(dir + "/out/runs/" + id + "/stats.json"));
  ASSERT_TRUE(stats["launches"].is_array() && !stats["launches"].empty())
      << stats.dump().substr(0, 300);
  EXPECT_TRUE(stats["launches"][0].contains("mwp_cwp_prediction")) << stats.dump().substr(0, 300);
  EXPECT_GE(parse_csv(read(dir + "/out/sweep.csv")).size(), 2u);
}

TEST(Sweep, TaskFileRunsTheIdsOnItsLineOneAfterAnother) {
  const std::string dir = sweep_dir("tasks", spec(R"({"core.scheduler": ["rr", "gto"]})"));
  const Result jobs = sweep(dir, "--print-jobs");  // prepares the runs
  std::vector<std::string> ids;
  for (std::istringstream lines(jobs.output); std::getline(lines, ids.emplace_back());)
    ids.back() = ids.back().substr(ids.back().rfind(' ') + 1);
  ids.pop_back();
  ASSERT_EQ(ids.size(), 4u) << jobs.output;
  std::ofstream(dir + "/tasks.txt") << ids[0] << " " << ids[1] << "\n"
                                    << ids[2] << "  " << ids[3] << "\n";
  Result r = sweep(dir, "--task-file '" + dir + "/tasks.txt' --task 1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "run " + ids[2] + ": ok") &&
              contains(r.output, "run " + ids[3] + ": ok"))
      << r.output;
  EXPECT_FALSE(contains(r.output, ids[0])) << r.output;
  EXPECT_TRUE(contains(sweep(dir, "--dry-run").output, "4 runs, 2 done, 2 to run"));
  r = sweep(dir, "--task-file '" + dir +
                     "/tasks.txt' --task 1");  // a resubmitted task runs nothing again
  EXPECT_TRUE(contains(r.output, "run " + ids[2] + ": ok (done before)")) << r.output;
  r = sweep(dir, "--task-file '" + dir + "/tasks.txt' --task 2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "tasks.txt: no line 2 (tasks count from 0)")) << r.output;
}

TEST(Sweep, SigtermKeepsFinishedRunsAndTheStoppedOneRunsNextTime) {
  nlohmann::json j = nlohmann::json::parse(spec("", R"("traces/micro/saxpy")"));
  j["sizes"] = {"test",
                "study"};  // the study size takes seconds: it is running when the signal comes
  const std::string dir = sweep_dir("sigterm", j.dump());
  const std::string log = dir + "/sweep.log";
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string sh = "exec '" GPUTLM_BINARY "' sweep '" + dir + "/spec.json' --out '" + dir +
                           "/out' --jobs 1 > '" + log + "' 2>&1";
    execl("/bin/sh", "sh", "-c", sh.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 3000 && !contains(read(log), "[1/2] ok"); ++i) usleep(20000);
  usleep(200000);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string out = read(log);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 143) << out;
  EXPECT_TRUE(contains(out, "2 runs, 0 cached, 2 ran, 0 failed, 1 not run")) << out;
  EXPECT_TRUE(contains(out, "STOPPED by SIGTERM")) << out;
  EXPECT_EQ(parse_csv(read(dir + "/out/sweep.csv")).size(), 2u);
  EXPECT_EQ(parse_csv(read(dir + "/out/failures.csv")).size(), 1u);  // a stopped run is no failure
  const Result again = sweep(dir, "--jobs 1");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "2 runs, 1 cached, 1 ran, 0 failed")) << again.output;
}

TEST(Sweep, BadSpecIsRefusedNamingFileAndKeyBeforeAnyRun) {
  const std::string dir = sweep_dir("bad", spec(R"({"core.schedular": ["rr", "gto"]})"));
  const Result r = sweep(dir);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, dir + "/spec.json: key 'axes.core.schedular': no config key "
                                       "'core.schedular' (did you mean 'scheduler'?)"))
      << r.output;
  EXPECT_FALSE(fs::exists(dir + "/out"));
}

TEST(Sweep, VersionNamesTheCommitTheBinaryWasBuiltFrom) {
  const Result r = gputlm("--version");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("gputlm ", 0), 0u) << r.output;
  EXPECT_GT(r.output.size(), std::string("gputlm \n").size()) << r.output;
}

}  // namespace
